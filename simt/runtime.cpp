// The emulator's runtime: device memory, CUDA's error state, and the grid
// scheduler. Blocks run one after another; within a block every GPU thread is
// a Boost.Context fiber, resumed in thread order until it reaches a
// __syncthreads() or exits. When no thread can run, the barrier is checked
// and released. The order never depends on timing, so every report is the
// same from run to run.
#include <boost/context/fiber.hpp>
#include <boost/context/pooled_fixedsize_stack.hpp>
#include <signal.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <iterator>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "internal.hpp"
#include "simt/cuda.hpp"
#include "simt/runtime.hpp"

namespace ctx = boost::context;

namespace simt {
namespace {

// ---- findings and block orders ---------------------------------------------

std::vector<Finding> g_findings;

// Launches and blocks run since the process started (the harness's proof
// that a lab function used the GPU).
unsigned long long g_launch_count = 0, g_block_count = 0;

// The order blocks start in: a permutation drawn per launch from a seed, the
// reverse of launch order, or launch order. SIMT_BLOCK_ORDER (a seed, "reverse"
// or "launch") chooses it; the default is a fixed seed, so runs repeat.
constexpr unsigned long long kDefaultSeed = 1;
struct BlockOrder {
    enum Kind { Seeded, Reverse, Launch } kind = Seeded;
    unsigned long long seed = kDefaultSeed;
};
BlockOrder parse_order(const char* spec, bool* ok) {
    BlockOrder order;
    *ok = true;
    const std::string s = spec ? spec : "";
    if (s.empty() || s == "default") return order;
    if (s == "reverse") order.kind = BlockOrder::Reverse;
    else if (s == "launch") order.kind = BlockOrder::Launch;
    else {
        char* end = nullptr;
        order.seed = std::strtoull(s.c_str(), &end, 10);
        *ok = end && *end == '\0' && s.find_first_not_of("0123456789") == std::string::npos;
    }
    return order;
}
BlockOrder& block_order_setting() {
    static BlockOrder order = [] {
        bool ok = true;
        BlockOrder o = parse_order(std::getenv("SIMT_BLOCK_ORDER"), &ok);
        if (!ok) {
            std::fprintf(stderr, "simt: SIMT_BLOCK_ORDER must be a seed (digits), reverse or launch\n");
            std::exit(2);
        }
        return o;
    }();
    return order;
}

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// Linear block numbers (x fastest) in the order they start.
std::vector<unsigned> start_order(unsigned long long total, unsigned long long launch) {
    std::vector<unsigned> order(total);
    for (unsigned i = 0; i < total; ++i) order[i] = i;
    const BlockOrder& how = block_order_setting();
    if (how.kind == BlockOrder::Reverse) std::reverse(order.begin(), order.end());
    else if (how.kind == BlockOrder::Seeded) {
        // Each launch its own permutation, the same in every run with the seed.
        std::uint64_t state = how.seed * 0x2545f4914f6cdd1dull + launch;
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[splitmix64(state) % i]);
    }
    return order;
}

thread_local std::string g_refused_launch;  // take_refused_launch()

// ---- the scheduler ----------------------------------------------------------

constexpr unsigned kMaxThreadsPerBlock = 1024;
constexpr std::size_t kMaxDynamicShared = 48 * 1024;  // without cudaFuncSetAttribute or static shared memory
// A stack's size is not a multiple of 4 KiB: at exactly 64 KiB apart, every
// fiber's hot top frames fall in the same L1 sets and evict each other at each
// switch (the 2^20-element lab 02 scan ran 0.58 s that way, 0.51 s offset by
// 17 cache lines).
constexpr std::size_t kFiberStack = 64 * 1024 + 17 * 64;

// Spinning: the thread polled one word (an atomic that changed nothing, a
// volatile load) kSpinPolls times in a row and saw the same value each time;
// it waits for another thread or block to change it.
// AtActiveMask: at an __activemask() (or coalesced_threads()), until the
// lanes of its warp that reach that call site have (release_warp_rounds).
enum class Status { Running, AtBarrier, AtWarpSync, AtActiveMask, Spinning, Exited };
constexpr unsigned kSpinPolls = 64;
// Blocks a launch keeps started at once (a GPU holds far more): a block that
// spins lets another run, and a new one start while fewer are started.
constexpr std::size_t kResidentBlocks = 4;
// A cooperative launch starts every block that asks for it (each must be
// resident at once on a GPU) up to what an H100 holds: 132 SMs, each at most
// 32 blocks, 64 warps and 228 KiB of shared memory (1 KiB of it reserved per
// block).
constexpr unsigned long long kSMs = 132, kBlocksPerSM = 32, kWarpsPerSM = 64;
constexpr std::size_t kSharedPerSM = 228 * 1024, kSharedReservedPerBlock = 1024;

struct Lane {
    ThreadIndex index;
    Status status = Status::Running;
    const char* barrier_file = nullptr;
    int barrier_line = 0;
    int barrier_vote = 0;     // its predicate at a __syncthreads_count/_and/_or (0 at a __syncthreads)
    bool grid_sync = false;   // the barrier it waits at is a grid group's sync()
    ctx::fiber fiber;  // the GPU thread, resumed by the scheduler
    ctx::fiber sink;   // the scheduler, resumed by the GPU thread
    std::jmp_buf* abandon_to = nullptr;  // once its fiber has begun: where abandon() makes it return from
    // At a warp function: its mask and what it deposits (at an
    // __activemask(), the group it met, once released).
    unsigned warp_mask = 0;
    unsigned long long deposit = 0;
    bool warp_orders_memory = false;  // at a __syncwarp
    // The fiber's stack, [stack_low, stack_high): the kernel's own locals.
    const unsigned char* stack_low = nullptr;
    const unsigned char* stack_high = nullptr;
    // The word it polls, the value it saw there, how often in a row, and where.
    const void* poll_address = nullptr;
    unsigned long long poll_value = 0;
    unsigned polls = 0;
    const void* poll_pc = nullptr;
    // Once its block has spent its basic-block budget (the watchdog, below):
    // the basic blocks it has run since it was last resumed.
    unsigned slice = 0;
};

// What a thread ran once its block spent its basic-block budget: the blocks,
// with how often (a few dozen at most), and the last ones, newest at
// recent[(recent_at - 1) % 8], so the report says where it is in the
// student's file, not in a shim function its loop calls (blockDim,
// threadIdx). Kept beside the lanes, not in them: a Lane is touched at every
// switch, and a smaller one keeps a block's lanes in cache.
struct Sampled {
    std::vector<std::pair<const void*, unsigned>> visits;
    const void* recent[8] = {};
    unsigned recent_at = 0;
};

// Hands out pooled stacks and notes each lane's range for the memory checks.
struct RecordingStack {
    ctx::pooled_fixedsize_stack pool;
    Lane* lane;
    ctx::stack_context allocate() {
        ctx::stack_context sc = pool.allocate();
        lane->stack_high = static_cast<const unsigned char*>(sc.sp);
        lane->stack_low = lane->stack_high - sc.size;
        return sc;
    }
    void deallocate(ctx::stack_context& sc) noexcept { pool.deallocate(sc); }
};

// A warp's rendezvous for warp functions: when the lanes that wait with one
// mask are released, their deposits are copied here by lane, and each reads
// them as it is resumed, in the scheduler's next pass, before any lane can
// wait again.
struct Warp {
    unsigned long long results[32] = {};
    detail::WarpSyncs syncs;  // its completed __syncwarp rendezvous, for the race checks
};

// A started block of a launch: its threads, and where it is while another
// block runs (its shared memory and divergence traces are put aside then).
struct BlockRun {
    std::vector<Lane> lanes;
    std::vector<Warp> warps;
    uint3 idx{};
    unsigned long long linear = 0, serial = 0;
    std::uint64_t interval = 0, first_interval = 0;
    unsigned interval_in_block = 0;
    std::shared_ptr<detail::SavedShared> shared;  // while another block runs
    std::vector<detail::LaneTrace> traces;
    // The watchdog: the basic blocks it may still run before one of its
    // threads finishes (detail::g_steps_left while it runs), the barriers it
    // passed meanwhile and where the last one was, and, once they are spent,
    // how many more its threads run to show where they loop.
    std::uint64_t steps_left = 0;
    unsigned long long barriers = 0, barriers_in_budget = 0;
    const char* barrier_file = nullptr;
    int barrier_line = 0;
    bool sampling = false;
    std::uint64_t sample_left = 0;
    std::vector<Sampled> sampled;  // by lane, once sampling
    // The last block vote: how many of the threads that waited had a true
    // predicate, and how many waited.
    unsigned vote_true = 0, vote_waiting = 0;
    bool votes = false;  // a thread waits at a block vote or a grid sync: count them
    unsigned at_warp_functions = 0;  // threads waiting at a warp function or an __activemask()
    // Its threads wait at a grid sync (a cooperative launch), and whether the
    // grid has released it.
    bool at_grid = false, grid_released = false;
};

thread_local Lane* g_lane = nullptr;  // the lane whose fiber is running (detail::g_thread numbers it)
thread_local unsigned g_spun = 0;      // threads of the running block that began to spin in this pass
thread_local Lane* g_lanes = nullptr;  // the block's lanes, to number g_lane
thread_local std::vector<Warp>* g_warps = nullptr;
thread_local std::uint64_t g_interval_counter = 0;  // carried from launch to launch
thread_local std::vector<unsigned char> g_dynamic_shared;
thread_local BlockRun* g_block = nullptr;  // the running block
thread_local bool g_preempted = false;    // a thread of it was stopped in a loop (the watchdog's sampling)
thread_local bool g_stopped = false;      // a thread made an access it must not (detail::stop_launch)

// ---- the fault backstop -----------------------------------------------------
//
// The access hooks stop a launch before a kernel touches memory that is not
// there. A fault they did not see (an access the instrumentation does not
// cover, such as a library call's) comes here: during a launch SIGSEGV and
// SIGBUS are handled on a stack of their own (the fiber's may be where it
// faulted), and a GPU thread's fault leaves the signal by the same jump that
// abandon() uses, to where its fiber began, with kFaulted; there it is
// reported and the launch stops. Any other fault goes to the handler that was
// there before (the default, or doctest's), which the faulting access,
// executed again, then meets.
constexpr int kFaulted = 2;  // setjmp's value at a fiber's start (abandon() gives 1)
struct Fault {
    const void* address = nullptr;
    const void* pc = nullptr;
    bool write = false;
};
thread_local Fault g_fault;
struct sigaction g_previous_segv, g_previous_bus;

void on_fault(int sig, siginfo_t* info, void* context) {
    std::jmp_buf* to = g_lane ? g_lane->abandon_to : nullptr;
    if (to == nullptr) {
        sigaction(sig, sig == SIGBUS ? &g_previous_bus : &g_previous_segv, nullptr);
        return;
    }
    const auto& mc = static_cast<const ucontext_t*>(context)->uc_mcontext;
#if defined(__x86_64__)
    g_fault = {info->si_addr, reinterpret_cast<const void*>(mc.gregs[REG_RIP]), (mc.gregs[REG_ERR] & 2) != 0};
#elif defined(__aarch64__)
    g_fault = {info->si_addr, reinterpret_cast<const void*>(mc.pc), false};
#else
    (void)mc;
    g_fault = {info->si_addr, nullptr, false};
#endif
    g_lane->abandon_to = nullptr;  // a fault while this one is reported is not caught again
    std::longjmp(*to, kFaulted);
}

// Installs the backstop for one launch and puts back what was there.
class FaultBackstop {
public:
    FaultBackstop() {
        constexpr std::size_t kSize = 64 * 1024;
        static thread_local std::unique_ptr<char[]> memory(new char[kSize]);
        stack_t ours{};
        ours.ss_sp = memory.get();
        ours.ss_size = kSize;
        sigaltstack(&ours, &previous_stack_);
        struct sigaction action {};
        action.sa_sigaction = on_fault;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;  // NODEFER: left by a jump, SIGSEGV stays unblocked
        sigemptyset(&action.sa_mask);
        sigaction(SIGSEGV, &action, &g_previous_segv);
        sigaction(SIGBUS, &action, &g_previous_bus);
    }
    ~FaultBackstop() {
        sigaction(SIGSEGV, &g_previous_segv, nullptr);
        sigaction(SIGBUS, &g_previous_bus, nullptr);
        sigaltstack(&previous_stack_, nullptr);
    }
    FaultBackstop(const FaultBackstop&) = delete;
    FaultBackstop& operator=(const FaultBackstop&) = delete;

private:
    stack_t previous_stack_{};
};

// ---- the watchdog -----------------------------------------------------------
//
// A block whose threads run spin_budget() basic blocks (the trace-pc hook
// counts them) without one of them finishing loops without end, as far as
// the emulator can tell: a barrier inside the loop does not make it end.
// Then the block runs kSampleSlice more basic blocks per thread, each thread
// at most kSampleSlice at a time, so the report can say where each one is and
// which lines the loop spans, and the launch stops with a finding (a thread
// that finishes meanwhile starts the count again).

constexpr std::uint64_t kNever = ~std::uint64_t{0};
constexpr unsigned kSampleSlice = 1024;
constexpr std::size_t kSampledBlocks = 64;  // distinct basic blocks kept per thread
// The default: labs/common/catalog.cpp says why (SIMT_SPIN_BUDGET overrides it).
constexpr unsigned long long kDefaultSpinBudget = 100'000'000;

unsigned long long& spin_budget_setting() {
    static unsigned long long budget = [] {
        const char* spec = std::getenv("SIMT_SPIN_BUDGET");
        if (spec == nullptr || *spec == '\0') return kDefaultSpinBudget;
        if (std::string(spec).find_first_not_of("0123456789") != std::string::npos) {
            std::fprintf(stderr, "simt: SIMT_SPIN_BUDGET must be a number of basic blocks (digits; 0: no limit)\n");
            std::exit(2);
        }
        return std::strtoull(spec, nullptr, 10);
    }();
    return budget;
}

std::uint64_t fresh_budget() {
    const unsigned long long b = spin_budget_setting();
    return b == 0 ? kNever : b;
}

// A thread of the running block finished (or the block starts): the count starts again.
void restart_watch(BlockRun& b) {
    b.sampling = false;
    b.barriers = 0;
    detail::g_steps_left = fresh_budget();
}

// "threads 0-31, 64" style list of thread indices.
std::string thread_list(const std::vector<unsigned>& ids) {
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += std::to_string(ids[i]);
        if (j > i) out += "-" + std::to_string(ids[j]);
        i = j + 1;
    }
    return (ids.size() == 1 ? "thread " : "threads ") + out;
}

// Checks a barrier every live thread has arrived at (or exited before) and
// releases it. Returns false when every thread has exited.
bool release_barrier(std::vector<Lane>& lanes, detail::LaunchState& launch) {
    const uint3& block = launch.block_idx;
    // The usual case, checked without allocating: every thread waits at one
    // call site (compared by line, then file name).
    const Lane& first = lanes.front();
    const bool uniform =
        first.status == Status::AtBarrier && std::all_of(lanes.begin(), lanes.end(), [&](const Lane& l) {
            return l.status == Status::AtBarrier && l.barrier_line == first.barrier_line &&
                   (l.barrier_file == first.barrier_file || std::strcmp(l.barrier_file, first.barrier_file) == 0);
        });
    if (uniform) {
        for (auto& lane : lanes) lane.status = Status::Running;
        launch.interval = ++launch.interval_high;
        return true;
    }
    std::vector<unsigned> exited;
    std::map<std::pair<std::string, int>, std::vector<unsigned>> sites;  // (file, line) -> waiting threads
    for (unsigned t = 0; t < lanes.size(); ++t) {
        if (lanes[t].status == Status::Exited) exited.push_back(t);
        else sites[{lanes[t].barrier_file ? lanes[t].barrier_file : "?", lanes[t].barrier_line}].push_back(t);
    }
    if (sites.empty()) return false;

    const auto& [first_site, first_waiting] = *sites.begin();
    if (!exited.empty())
        launch.reports.add("barrier divergence", launch.block_serial,
                    detail::block_name(block) + ": " + thread_list(exited) + " exited while " + thread_list(first_waiting) +
                        " waited at __syncthreads() at " + detail::where(first_site.first.c_str(), first_site.second) +
                        " (a barrier every thread of the block must reach: is it inside a loop or branch whose "
                        "trip count depends on threadIdx?)");
    if (sites.size() > 1) {
        std::string detail;
        for (const auto& [site, waiting] : sites)
            detail += (detail.empty() ? "" : "; ") + thread_list(waiting) + " at " +
                      detail::where(site.first.c_str(), site.second);
        launch.reports.add("barrier divergence", launch.block_serial,
                           detail::block_name(block) + ": threads wait at different __syncthreads() call sites: " + detail);
    }
    for (auto& lane : lanes)
        if (lane.status == Status::AtBarrier) lane.status = Status::Running;
    launch.interval = ++launch.interval_high;
    return true;
}

// Completes the warp functions whose lanes have all arrived: the lanes that
// wait with one mask (one call, as CUDA requires of the lanes it names) are
// released when every lane of the mask waits with it; a lane of the mask
// that may still come (running, spinning, at an __activemask(), or waiting
// with another mask, which it may leave) holds them. When no lane of the
// warp can run or come, the lanes of a mask whose other lanes are gone or
// wait elsewhere are released with a finding. Then, in a warp none of whose
// lanes can run on and that released none (whose lanes might still reach
// it), the lanes at an __activemask() call site are released with the group
// that met there (one group per call site): the lanes that reached it before
// waiting anywhere else. Returns whether any lane can run again.
bool release_warp_rounds(std::vector<Lane>& lanes, detail::LaunchState& launch) {
    if (g_block->at_warp_functions == 0) return false;
    bool released = false;
    for (std::size_t first = 0; first < lanes.size(); first += 32) {
        const std::size_t last = std::min(lanes.size(), first + 32);
        bool running = false, at_active_mask = false, waiting_any = false, spinning = false;
        for (std::size_t t = first; t < last; ++t) {
            const Status st = lanes[t].status;
            running = running || st == Status::Running;
            at_active_mask = at_active_mask || st == Status::AtActiveMask;
            waiting_any = waiting_any || st == Status::AtWarpSync;
            spinning = spinning || st == Status::Spinning;
        }
        if (!waiting_any && !at_active_mask) continue;
        Warp& warp = (*g_warps)[first / 32];
        bool released_here = false;
        unsigned synced = 0;
        const bool may_run = running || at_active_mask || spinning;
        for (int lenient = 0; waiting_any && lenient < 2 && !released_here; ++lenient) {
            if (lenient && may_run) break;
            unsigned done = 0;  // lanes whose mask was looked at in this pass
            for (std::size_t s = first; s < last; ++s) {
                if (lanes[s].status != Status::AtWarpSync || (done >> (s - first) & 1u)) continue;
                const unsigned mask = lanes[s].warp_mask;
                unsigned met = 0;
                for (std::size_t t = s; t < last; ++t)
                    if (lanes[t].status == Status::AtWarpSync && lanes[t].warp_mask == mask) met |= 1u << (t - first);
                done |= met;
                std::vector<unsigned> missing, waiting;
                bool may_come = false;
                for (std::size_t t = first; t < last; ++t) {
                    const unsigned bit = 1u << (t - first);
                    if (met & bit) waiting.push_back(static_cast<unsigned>(t));
                    else if (mask & bit) {
                        missing.push_back(static_cast<unsigned>(t));
                        const Status st = lanes[t].status;
                        may_come = may_come || st == Status::Spinning || st == Status::Running ||  // stopped by the watchdog's sampling
                                   st == Status::AtActiveMask || (!lenient && st == Status::AtWarpSync);
                    }
                }
                if (may_come) continue;
                if (!missing.empty())
                    launch.reports.add("warp divergence", launch.block_serial,
                                       detail::block_name(launch.block_idx) + ": " + thread_list(waiting) +
                                           " waited at a warp function at " +
                                           detail::where(lanes[s].barrier_file, lanes[s].barrier_line) + " while " +
                                           thread_list(missing) +
                                           ", named in its mask, did not arrive (exited, or waiting at another barrier)");
                bool orders_memory = false;
                for (std::size_t t = first; t < last; ++t)
                    if (met >> (t - first) & 1u) {
                        warp.results[t - first] = lanes[t].deposit;
                        orders_memory = orders_memory || lanes[t].warp_orders_memory;
                        lanes[t].status = Status::Running;
                        --g_block->at_warp_functions;
                    }
                if (orders_memory) synced |= met;
                released = released_here = true;
            }
        }
        if (synced != 0) {
            warp.syncs = {static_cast<std::uint16_t>(warp.syncs.count + 1), synced};
            detail::g_syncwarp_seen = true;
        }
        if (!at_active_mask || running || released_here) continue;
        // One call site at a time, the earliest in the file first: lanes
        // released from an earlier call site in divergent code may reach a
        // later one (as the warp reconverges on a GPU) before it is released.
        const Lane* at = nullptr;
        for (std::size_t t = first; t < last; ++t) {
            const Lane& l = lanes[t];
            if (l.status != Status::AtActiveMask) continue;
            if (at == nullptr || std::make_pair(std::strcmp(l.barrier_file, at->barrier_file), l.barrier_line) <
                                     std::make_pair(0, at->barrier_line))
                at = &l;
        }
        unsigned group = 0;
        for (std::size_t u = first; u < last; ++u)
            if (lanes[u].status == Status::AtActiveMask && lanes[u].barrier_line == at->barrier_line &&
                (lanes[u].barrier_file == at->barrier_file || std::strcmp(lanes[u].barrier_file, at->barrier_file) == 0))
                group |= 1u << (u - first);
        for (std::size_t u = first; u < last; ++u)
            if (group >> (u - first) & 1u) {
                lanes[u].warp_mask = group;
                lanes[u].status = Status::Running;
                --g_block->at_warp_functions;
            }
        released = true;
    }
    return released;
}

void start_block(BlockRun& b, ctx::pooled_fixedsize_stack& stacks, void (*body)(void*), void* closure,
                 detail::LaunchState& launch) {
    b.first_interval = b.interval = launch.block_first_interval = launch.interval = ++launch.interval_high;
    b.interval_in_block = 0;
    b.at_warp_functions = 0;
    b.votes = b.at_grid = b.grid_released = false;
    restart_watch(b);
    for (auto& lane : b.lanes) {
        lane.status = Status::Running;
        lane.polls = 0;
        lane.poll_address = nullptr;
        lane.abandon_to = nullptr;
        lane.fiber = ctx::fiber(std::allocator_arg, RecordingStack{stacks, &lane}, [&lane, body, closure](ctx::fiber&& sink) {
            lane.sink = std::move(sink);
            std::jmp_buf abandoned;
            lane.abandon_to = &abandoned;
            const int how = setjmp(abandoned);
            if (how == 0) {
                body(closure);
                lane.status = Status::Exited;
                restart_watch(*g_block);
            } else if (how == kFaulted) {  // from on_fault, off the signal's stack now
                lane.status = Status::Exited;
                detail::report_fault(g_fault.address, g_fault.pc, g_fault.write);
                g_stopped = true;
            }
            lane.abandon_to = nullptr;
            return std::move(lane.sink);
        });
    }
}

// Ends the threads of a stopped launch (a possible deadlock or endless loop,
// an access to memory that is not there)
// without unwinding their stacks. Each is put aside inside the emulator, often
// in a hook that GCC's instrumentation calls as a function that never throws
// (__tsan_volatile_read8 for a volatile poll, __sanitizer_cov_trace_pc for the
// watchdog): the kernel's unwind table may have no entry for that call, and
// destroying the fiber there (Boost.Context's forced_unwind, an exception)
// ends the process in std::terminate. Instead the thread, resumed on top of
// where it waits, jumps back to where its fiber began and the fiber returns,
// its stack released; the kernel's destructors do not run, as on a GPU that
// stops a kernel.
void abandon(std::vector<std::unique_ptr<BlockRun>>& started) {
    for (auto& b : started)
        for (auto& lane : b->lanes) {
            if (!lane.fiber) continue;  // exited
            if (lane.abandon_to == nullptr) {  // not begun: no frame of the kernel to leave
                lane.fiber = ctx::fiber();
                continue;
            }
            lane.fiber = std::move(lane.fiber).resume_with([&lane](ctx::fiber&& sink) -> ctx::fiber {
                lane.sink = std::move(sink);
                std::longjmp(*lane.abandon_to, 1);
            });
        }
}

// Yielded: it published to other blocks (detail::g_published) and was put aside.
// Runaway: its threads spent the watchdog's budget and then the sampling's.
// Stopped: a thread was stopped before an access it must not make (reported).
// GridWait: its threads wait at a grid sync, until every block of the
// (cooperative) grid does.
enum class Outcome { Done, Stalled, Yielded, Runaway, Stopped, GridWait };

// Runs a started block until every thread has exited, or until its threads
// only spin on values that nothing in the block changes any more (Stalled:
// resumed later, after other blocks ran).
Outcome advance(BlockRun& b, detail::LaunchState& launch) {
    std::vector<Lane>& lanes = b.lanes;
    for (auto& lane : lanes)
        if (lane.status == Status::Spinning) lane.status = Status::Running;
    for (;;) {
        for (;;) {
            const std::uint64_t before = detail::g_progress;
            g_spun = 0;
            do {
                g_preempted = false;
                for (auto& lane : lanes) {
                    if (lane.status != Status::Running) continue;
                    g_lane = &lane;
                    detail::g_thread = static_cast<unsigned>(&lane - lanes.data());
                    detail::g_stack_low = lane.stack_low;
                    detail::g_stack_high = lane.stack_high;
                    lane.slice = 0;
                    lane.fiber = std::move(lane.fiber).resume();
                    if (g_stopped) {
                        g_lane = nullptr;
                        detail::g_thread = detail::kNoThread;
                        detail::g_stack_low = detail::g_stack_high = nullptr;
                        return Outcome::Stopped;
                    }
                }
                g_lane = nullptr;
                detail::g_thread = detail::kNoThread;
                detail::g_stack_low = detail::g_stack_high = nullptr;
                if (b.sampling && b.sample_left == 0) return Outcome::Runaway;
                if (detail::g_published) {  // resumed here later: warp rounds still pending go on then
                    detail::g_published = false;
                    return Outcome::Yielded;
                }
            } while (release_warp_rounds(lanes, launch) || g_preempted);
            if (g_spun == 0) break;  // no thread is left spinning
            if (detail::g_progress == before) return Outcome::Stalled;  // nothing they could see changed
            for (auto& lane : lanes)
                if (lane.status == Status::Spinning) lane.status = Status::Running;
        }
        // Every thread waits at a barrier or has exited: the block votes'
        // count, and a grid sync waits for the grid.
        bool grid = false;
        if (b.votes) {  // a thread waits at a block vote or a grid sync
            b.votes = false;
            b.vote_true = b.vote_waiting = 0;
            for (const auto& lane : lanes)
                if (lane.status == Status::AtBarrier) {
                    grid = grid || lane.grid_sync;
                    ++b.vote_waiting;
                    b.vote_true += lane.barrier_vote != 0;
                }
            b.votes = grid;  // counted again when the grid releases it
        }
        if (grid && !b.grid_released) {
            b.at_grid = true;
            return Outcome::GridWait;
        }
        b.at_grid = b.grid_released = false;
        const unsigned interval = b.interval_in_block;
        detail::divergence_end_interval(interval);
        const Lane* waiting = nullptr;
        for (const auto& lane : lanes)
            if (lane.status == Status::AtBarrier && waiting == nullptr) waiting = &lane;
        detail::trace_interval_end(waiting ? "at barrier " + std::to_string(interval + 1) + " (" +
                                                 detail::where(waiting->barrier_file, waiting->barrier_line) + ")"
                                           : std::string("at the end"));
        if (!release_barrier(lanes, launch)) return Outcome::Done;
        ++b.interval_in_block;
        ++b.barriers;
        b.barrier_file = waiting->barrier_file;
        b.barrier_line = waiting->barrier_line;
    }
}

// "possible deadlock" for a launch whose started blocks all spin with nothing
// left to change what they wait for.
std::string deadlock_message(const std::vector<BlockRun*>& started, std::size_t not_started) {
    const BlockRun& b = *started.front();
    const Lane* spinner = nullptr;
    for (const auto& lane : b.lanes)
        if (lane.status == Status::Spinning && spinner == nullptr) spinner = &lane;
    std::string where = spinner ? detail::source_line(spinner->poll_pc) : std::string("?");
    const unsigned thread = spinner ? static_cast<unsigned>(spinner - b.lanes.data()) : 0;
    std::string message = detail::block_name(b.idx) + ": thread " + std::to_string(thread) + " waits at " + where +
                          " for a value that no running block changes; " + std::to_string(started.size()) +
                          " started block(s) all wait";
    if (not_started > 0)
        message += " and " + std::to_string(not_started) + " block(s) have not started (the emulator keeps " +
                   std::to_string(kResidentBlocks) +
                   " started at once): a GPU may run blocks in any order and need not start one until a running "
                   "block ends, so a block must not wait for another that may not have started (wait for a block "
                   "that took an earlier ticket from an atomic counter, not for a lower blockIdx)";
    else
        message += " on each other";
    return message;
}

// Where a sampled thread is: its newest basic block in `file` (the launch's),
// else its newest of all.
std::string where_now(const Sampled& lane, const std::string& file) {
    std::string newest;
    for (unsigned k = 0; k < 8 && k < lane.recent_at; ++k) {
        const std::string at = detail::source_line(lane.recent[(lane.recent_at - 1 - k) % 8]);
        if (newest.empty()) newest = at;
        if (at.rfind(file + ":", 0) == 0) return at;
    }
    return newest.empty() ? "?" : newest;
}

// "possible endless loop" for a block that spent the watchdog's budget and
// then its sampling: the threads that have not finished, the lines the loop
// spans and where each thread is.
std::string runaway_message(const BlockRun& b, const detail::LaunchState& launch) {
    // The loop: the basic blocks a thread ran more than once while sampled
    // (all it ran if none), by line, in the launch's file where it has any.
    std::map<std::string, std::set<int>> lines;  // file -> lines
    for (int repeated = 1; repeated >= 0 && lines.empty(); --repeated)
        for (const auto& lane : b.sampled)
            for (const auto& [pc, count] : lane.visits) {
                if (repeated && count < 2) continue;
                const std::string at = detail::source_line(pc);
                const auto colon = at.rfind(':');
                if (colon == std::string::npos) continue;
                lines[at.substr(0, colon)].insert(std::atoi(at.c_str() + colon + 1));
            }
    std::string file = detail::where(launch.site.file, 0);
    file.resize(file.rfind(':'));
    auto chosen = lines.find(file);
    if (chosen == lines.end())
        chosen = std::max_element(lines.begin(), lines.end(),
                                  [](const auto& x, const auto& y) { return x.second.size() < y.second.size(); });
    std::string loop = "?";
    if (chosen != lines.end()) {
        const int first = *chosen->second.begin(), last = *chosen->second.rbegin();
        loop = chosen->first + ":" + std::to_string(first) + (last > first ? "-" + std::to_string(last) : "");
    }
    // Where the threads that have not finished are: (verb, place) -> threads.
    std::vector<unsigned> unfinished;
    std::map<std::pair<int, std::string>, std::vector<unsigned>> at;
    for (unsigned t = 0; t < b.lanes.size(); ++t) {
        const Lane& lane = b.lanes[t];
        if (lane.status == Status::Exited) continue;
        unfinished.push_back(t);
        if (lane.status == Status::Running)
            at[{0, t < b.sampled.size() ? where_now(b.sampled[t], file) : std::string("?")}].push_back(t);
        else if (lane.status == Status::AtBarrier)
            at[{1, "the __syncthreads() at " + detail::where(lane.barrier_file, lane.barrier_line)}].push_back(t);
        else if (lane.status == Status::AtWarpSync || lane.status == Status::AtActiveMask)
            at[{1, "a warp function at " + detail::where(lane.barrier_file, lane.barrier_line)}].push_back(t);
        else
            at[{2, detail::source_line(lane.poll_pc)}].push_back(t);
    }
    std::string now;
    for (const auto& [place, threads] : at) {
        static const char* const verbs[2][3] = {{"runs at ", "waits at ", "polls a word at "},
                                               {"run at ", "wait at ", "poll a word at "}};
        now += (now.empty() ? "" : "; ") + thread_list(threads) + " " + verbs[threads.size() > 1][place.first] +
               place.second;
    }
    std::string message = detail::block_name(b.idx) + ": " + thread_list(unfinished) +
                          (unfinished.size() > 1 ? " have run " : " has run ") +
                          std::to_string(spin_budget_setting()) + " basic blocks in the loop at " + loop;
    if (b.barriers_in_budget == 0)
        message += " without reaching a barrier or finishing";
    else
        message += " without one finishing, through " + std::to_string(b.barriers_in_budget) + " barriers (the last at " +
                   detail::where(b.barrier_file, b.barrier_line) + ")";
    return message + "; now " + now +
           ": does the loop's condition ever turn false (a typo such as `stride * 2` for `stride *= 2`, or `stride >= 0` with a stride that halves to 0)? "
           "SIMT_SPIN_BUDGET sets the budget";
}

}  // namespace

// ---- device built-ins -------------------------------------------------------

const ThreadIndex& current() {
    if (g_lane == nullptr) {
        std::fprintf(stderr, "simt: threadIdx/blockIdx used outside a kernel\n");
        std::abort();
    }
    return g_lane->index;
}

namespace {
void wait_at_barrier(const char* file, int line, int vote, bool grid) {
    Lane& lane = *g_lane;
    lane.status = Status::AtBarrier;
    lane.barrier_file = file;
    lane.barrier_line = line;
    lane.barrier_vote = vote;
    lane.grid_sync = grid;
    if (vote || grid) g_block->votes = true;
    lane.sink = std::move(lane.sink).resume();
}
}  // namespace

void syncthreads(const char* file, int line) { wait_at_barrier(file, line, 0, false); }

int syncthreads_vote(BlockVote vote, int predicate, const char* file, int line) {
    g_block->votes = true;  // even when no thread's predicate holds
    wait_at_barrier(file, line, predicate != 0, false);
    const BlockRun& b = *g_block;  // released: the votes of the threads that waited
    if (vote == BlockVote::Count) return static_cast<int>(b.vote_true);
    if (vote == BlockVote::And) return b.vote_true == b.vote_waiting;
    return b.vote_true != 0;
}

bool grid_is_cooperative() { return detail::g_running_launch != nullptr && detail::g_running_launch->cooperative; }

void grid_sync(const char* file, int line) {
    if (!detail::g_running_launch->cooperative) {
        detail::g_running_launch->reports.add("grid sync outside a cooperative launch", detail::g_running_launch->block_serial,
                              detail::block_name(detail::g_running_launch->block_idx) + ": thread " +
                                  std::to_string(detail::current_thread()) + " called the grid group's sync() at " +
                                  detail::where(file, line) +
                                  " in a kernel launched with <<<>>> or cudaLaunchKernel: a grid-wide barrier needs every "
                                  "block of the grid running at once, which only cudaLaunchCooperativeKernel guarantees "
                                  "(on a GPU this_grid() is then not valid and its sync() traps or hangs); the launch "
                                  "stopped there");
        detail::stop_launch();
    }
    wait_at_barrier(file, line, 0, true);
}

void group_error(const char* what, const char* file, int line) {
    detail::g_running_launch->reports.add("cooperative groups error", detail::g_running_launch->block_serial,
                          detail::block_name(detail::g_running_launch->block_idx) + ": thread " +
                              std::to_string(detail::current_thread()) + " called " + what + " at " +
                              detail::where(file, line) +
                              ", which CUDA's cooperative groups trap on (the kernel fails on a GPU): the launch "
                              "stopped there");
    detail::stop_launch();
}

unsigned active_mask(const char* file, int line) {
    Lane& lane = *g_lane;
    lane.status = Status::AtActiveMask;
    ++g_block->at_warp_functions;
    lane.barrier_file = file;
    lane.barrier_line = line;
    lane.sink = std::move(lane.sink).resume();
    return lane.warp_mask;
}

void* dynamic_shared() { return g_dynamic_shared.data(); }

namespace detail {

void stop_launch() {
    g_stopped = true;
    g_lane->sink = std::move(g_lane->sink).resume();
    std::abort();  // never resumed: abandon() leaves through where the fiber began
}

void on_publish() {
    if (g_lane == nullptr || g_published) return;
    g_published = true;
    g_lane->sink = std::move(g_lane->sink).resume();  // still Running: resumed here in the block's next pass
}

void poll(const void* address, unsigned long long value, const void* pc) {
    if (g_lane == nullptr) return;
    Lane& lane = *g_lane;
    if (address != lane.poll_address || value != lane.poll_value) {
        lane.poll_address = address;
        lane.poll_value = value;
        lane.polls = 0;
        return;
    }
    if (++lane.polls < kSpinPolls) return;
    lane.polls = 0;
    lane.poll_pc = pc;
    lane.status = Status::Spinning;
    ++g_spun;
    lane.sink = std::move(lane.sink).resume();
}

void steps_spent(const void* pc) {
    if (g_lane == nullptr || g_block == nullptr) {  // host code of the kernel's file
        g_steps_left = kNever;
        return;
    }
    BlockRun& b = *g_block;
    if (!b.sampling) {  // the budget is spent: from now on every basic block comes here
        b.sampling = true;
        b.barriers_in_budget = b.barriers;
        b.sample_left = std::uint64_t{kSampleSlice} * b.lanes.size();
        b.sampled.assign(b.lanes.size(), Sampled{});
        for (auto& lane : b.lanes) lane.slice = 0;
    }
    g_steps_left = 1;
    Lane& lane = *g_lane;
    Sampled& seen_by = b.sampled[static_cast<std::size_t>(g_lane - b.lanes.data())];
    seen_by.recent[seen_by.recent_at++ % 8] = pc;
    auto& visits = seen_by.visits;
    const auto seen = std::find_if(visits.begin(), visits.end(), [pc](const auto& v) { return v.first == pc; });
    if (seen != visits.end()) ++seen->second;
    else if (visits.size() < kSampledBlocks) visits.emplace_back(pc, 1);
    if (b.sample_left > 0) --b.sample_left;
    if (++lane.slice >= kSampleSlice) {  // put aside, still Running: the block's next pass resumes it
        g_preempted = true;
        lane.sink = std::move(lane.sink).resume();
    }
}

}  // namespace detail

namespace detail {
// The counter clock() and clock64() read in a kernel (device_clock.cpp).
thread_local long long g_device_clock = 0;
long long device_clock() { return g_device_clock += 8; }
}  // namespace detail

// A call the compiler cannot move memory accesses across.
void threadfence(bool device_wide) {
    if (device_wide && detail::in_kernel()) detail::device_fence();
}

unsigned lane_id() { return static_cast<unsigned>(g_lane - g_lanes) % 32; }

const unsigned long long* warp_exchange(unsigned mask, unsigned long long deposit, const char* file, int line,
                                        bool orders_memory) {
    Lane& lane = *g_lane;
    Warp& warp = (*g_warps)[static_cast<std::size_t>(g_lane - g_lanes) / 32];
    lane.deposit = deposit;
    lane.status = Status::AtWarpSync;
    ++g_block->at_warp_functions;
    lane.warp_mask = mask;
    lane.warp_orders_memory = orders_memory;
    lane.barrier_file = file;
    lane.barrier_line = line;
    lane.sink = std::move(lane.sink).resume();
    return warp.results;
}

cudaError_t run_grid(const LaunchSite& site, dim3 grid, dim3 block, std::size_t shared_bytes, void (*body)(void*),
                     void* closure, LaunchKind kind) {
    // A launch from device code (dynamic parallelism) needs nvcc's -rdc=true,
    // which the kit's CUDA build does not use, so nvcc rejects it; the
    // emulator cannot nest one launch's fibers in another's.
    if (detail::in_kernel()) {
        detail::g_running_launch->reports.add("kernel launch from device code", detail::g_running_launch->block_serial,
                              detail::block_name(detail::g_running_launch->block_idx) + ": thread " +
                                  std::to_string(detail::current_thread()) + " launched " + site.kernel + " at " +
                                  detail::where(site.file, site.line) +
                                  " from device code (dynamic parallelism), which nvcc rejects without -rdc=true "
                                  "(the labs build without it): launch kernels from host code; the launch stopped "
                                  "there");
        detail::stop_launch();
    }
    const unsigned long long threads = 1ull * block.x * block.y * block.z;
    const bool cooperative = kind == LaunchKind::Cooperative;
    // The error alone names no launch: which one was refused, and why.
    const auto refuse = [&](const std::string& why, cudaError_t err = cudaErrorInvalidValue) {
        const std::string dims = "(" + std::to_string(grid.x) + "," + std::to_string(grid.y) + "," +
                                 std::to_string(grid.z) + "), (" + std::to_string(block.x) + "," +
                                 std::to_string(block.y) + "," + std::to_string(block.z) + ")";
        g_refused_launch = std::string(kind == LaunchKind::Chevrons ? "the launch of " :
                                       cooperative ? "cudaLaunchCooperativeKernel of " : "cudaLaunchKernel of ") +
                           site.kernel + " at " + detail::where(site.file, site.line) + " with " +
                           (kind == LaunchKind::Chevrons ? "<<<" + dims + ">>>" : "grid and block " + dims) +
                           " was refused: " + why;
        return detail::fail(err);
    };
    // CUDA 13 on an H100 answered each of these with cudaErrorInvalidValue
    // (a zero grid, 1025 threads, block.z = 65, 48 KiB + 4 of dynamic shared).
    if (grid.x == 0 || grid.y == 0 || grid.z == 0)
        return refuse("a grid of 0 blocks (a block count computed from n is 0 for n == 0, which must return before "
                      "launching, or for n below the section size if it rounds down)");
    if (threads == 0 || threads > kMaxThreadsPerBlock || block.z > 64)
        return refuse("a block of " + std::to_string(threads) + " threads (1 to " +
                      std::to_string(kMaxThreadsPerBlock) + ", block.z at most 64)");
    // 48 KiB less the kernel's static shared memory (known after its first
    // launch), unless cudaFuncSetAttribute allowed more.
    if (const std::size_t most = detail::dynamic_shared_limit(site.function); shared_bytes > most)
        return refuse(std::to_string(shared_bytes) + " bytes of dynamic shared memory (at most " +
                      std::to_string(most) +
                      (most == kMaxDynamicShared ? ", 48 KiB, without cudaFuncSetAttribute)" : ")"));
    const unsigned long long blocks = 1ull * grid.x * grid.y * grid.z;
    if (cooperative) {
        // Every block resident at once: what an H100 holds of these blocks
        // (its registers aside, which the emulator does not know).
        const unsigned long long warps = (threads + 31) / 32;
        const unsigned long long per_sm =
            std::min({kBlocksPerSM, kWarpsPerSM / warps,
                      static_cast<unsigned long long>(kSharedPerSM / (shared_bytes + kSharedReservedPerBlock))});
        if (blocks > kSMs * per_sm)
            return refuse("a cooperative launch of " + std::to_string(blocks) +
                              " blocks, more than an H100 holds at once (" + std::to_string(kSMs) + " SMs, each " +
                              std::to_string(per_sm) + " blocks of " + std::to_string(threads) + " threads" +
                              (shared_bytes ? " and " + std::to_string(shared_bytes) + " bytes of dynamic shared memory"
                                            : std::string()) +
                              ": at most " + std::to_string(kSMs * per_sm) + " blocks)",
                          cudaErrorCooperativeLaunchTooLarge);
    }

    g_dynamic_shared.assign(shared_bytes, 0);
    static thread_local ctx::pooled_fixedsize_stack stacks(kFiberStack);
    detail::LaunchState launch;
    launch.site = site;
    launch.grid = grid;
    launch.block = block;
    launch.cooperative = cooperative;
    launch.interval = launch.interval_high = g_interval_counter;
    launch.launch_first_interval = launch.interval + 1;
    detail::g_running_launch = &launch;
    detail::g_published = false;
    g_stopped = false;
    const FaultBackstop backstop;
    detail::memcheck_begin_launch();
    detail::divergence_begin_launch(static_cast<unsigned>(threads));

    // Blocks start in start_order's order and run one at a time: each to its
    // end, unless it stalls (spins on what only another block can change);
    // or publishes to other blocks; then, while fewer than kResidentBlocks are
    // started, the next one starts, else the started ones are resumed: after
    // a stall the next in turn, after a publication one drawn from a seeded
    // sequence (so a block may run on past another's AGGREGATE before that
    // one's INCLUSIVE prefix). When a whole round of them changes nothing,
    // the launch is stopped as a possible deadlock.
    std::vector<std::unique_ptr<BlockRun>> spare;
    std::vector<std::unique_ptr<BlockRun>> started;  // in start order
    BlockRun* live = nullptr;  // whose shared memory and traces are in place
    bool live_done = false;
    const auto switch_to = [&](BlockRun& b) {
        if (live != &b) {
            const bool live_suspended = live != nullptr && !live_done;
            if (live_suspended) {
                live->shared = detail::shared_save();
                detail::divergence_save(live->traces);
                live->steps_left = detail::g_steps_left;
            }
            detail::g_steps_left = b.steps_left;
            if (b.shared) {
                detail::shared_restore(std::move(b.shared));
                detail::divergence_restore(b.traces);
            } else if (live_suspended) {
                detail::shared_fresh();
            }
        }
        live = &b;
        live_done = false;
        g_block = &b;
        launch.block_idx = b.idx;
        launch.block_linear = b.linear;
        launch.block_serial = b.serial;
        launch.interval = b.interval;
        launch.block_first_interval = b.first_interval;
        g_lanes = b.lanes.data();
        g_warps = &b.warps;
    };
    const std::vector<unsigned> order = start_order(1ull * grid.x * grid.y * grid.z, g_launch_count++);
    std::size_t next = 0, turn = 0, idle = 0;
    std::uint64_t draws = block_order_setting().seed * 0x9e3779b97f4a7c15ull + g_launch_count;
    const auto start_next = [&]() -> BlockRun& {
        std::unique_ptr<BlockRun> b;
        if (spare.empty()) {
            b = std::make_unique<BlockRun>();
            b->lanes = std::vector<Lane>(threads);
            b->warps.resize((threads + 31) / 32);
        } else {
            b = std::move(spare.back());
            spare.pop_back();
        }
        const unsigned linear = order[next];
        const unsigned bx = linear % grid.x, by = linear / grid.x % grid.y, bz = linear / grid.x / grid.y;
        b->idx = {bx, by, bz};
        b->linear = linear;
        b->serial = next++;
        unsigned t = 0;
        for (unsigned z = 0; z < block.z; ++z)
            for (unsigned y = 0; y < block.y; ++y)
                for (unsigned x = 0; x < block.x; ++x) b->lanes[t++].index = {{x, y, z}, {bx, by, bz}, block, grid};
        switch_to(*b);
        start_block(*b, stacks, body, closure, launch);
        started.push_back(std::move(b));
        turn = started.size() - 1;
        return *started.back();
    };
    // A cooperative launch keeps every block that asks started; its blocks
    // wait at a grid sync (put aside, not run) until every block does.
    const std::size_t resident = cooperative ? order.size() : kResidentBlocks;
    std::size_t at_grid = 0;  // started blocks waiting at a grid sync
    const BlockRun* exited = nullptr;  // the first block to finish, for a grid sync it never reaches
    uint3 exited_idx{};
    // The started block at `from` in turn, or the first after it that does not wait at a grid sync.
    const auto runnable_from = [&](std::size_t from) -> BlockRun* {
        for (std::size_t k = 0; k < started.size(); ++k) {
            const std::size_t at = (from + k) % started.size();
            if (!started[at]->at_grid) return started[turn = at].get();
        }
        return nullptr;
    };
    // Every started block waits at a grid sync and none is left to start:
    // release them all (what any block did before the sync happens before
    // what any does after it), or, when a block has finished instead, the
    // grid waits for ever.
    const auto grid_release = [&]() -> BlockRun* {
        if (exited != nullptr) {
            const BlockRun& w = *started.front();
            const Lane* lane = &*std::find_if(w.lanes.begin(), w.lanes.end(),
                                              [](const Lane& l) { return l.status == Status::AtBarrier; });
            launch.reports.add("possible deadlock", w.serial,
                               detail::block_name(w.idx) + ": its threads wait at the grid sync at " +
                                   detail::where(lane->barrier_file, lane->barrier_line) + " with " +
                                   std::to_string(started.size()) + " block(s), but " +
                                   detail::block_name(exited_idx) +
                                   " has finished without reaching it: every block of a cooperative launch must "
                                   "reach each grid sync, or the others wait for ever");
            abandon(started);
            return nullptr;
        }
        launch.launch_first_interval = launch.interval_high + 1;
        for (auto& p : started) {
            p->at_grid = false;
            p->grid_released = true;
        }
        at_grid = 0;
        idle = 0;
        return started[turn = 0].get();
    };
    // The block to run after one that cannot go on: `preferred` (a started
    // block's position) unless it waits at a grid sync, else the next in
    // turn, else a new one, else the grid's release.
    const auto pick = [&](std::size_t preferred) -> BlockRun* {
        if (BlockRun* r = started.empty() ? nullptr : runnable_from(preferred)) return r;
        if (next < order.size()) return &start_next();
        return started.empty() ? nullptr : grid_release();
    };
    BlockRun* b = order.empty() ? nullptr : &start_next();
    while (b != nullptr) {
        const std::uint64_t before = detail::g_progress;
        switch_to(*b);
        const Outcome outcome = advance(*b, launch);
        b->interval = launch.interval;
        if (outcome == Outcome::Stopped) {
            abandon(started);
            break;
        }
        if (outcome == Outcome::Runaway) {
            detail::g_steps_left = kNever;
            launch.reports.add("possible endless loop", b->serial, runaway_message(*b, launch));
            abandon(started);
            break;
        }
        if (outcome == Outcome::Done) {
            live_done = true;
            ++g_block_count;
            idle = 0;
            if (exited == nullptr) {
                exited = b;
                exited_idx = b->idx;
            }
            const auto it = std::find_if(started.begin(), started.end(), [&](const auto& p) { return p.get() == b; });
            spare.push_back(std::move(*it));
            started.erase(it);
            b = pick(started.empty() ? 0 : turn % started.size());  // the next in turn
            continue;
        }
        if (outcome == Outcome::GridWait) {
            ++at_grid;
            idle = 0;
            b = next < order.size() && started.size() < resident ? &start_next() : pick(turn + 1);
            continue;
        }
        idle = detail::g_progress != before ? 0 : idle + 1;
        if (next < order.size() && started.size() < resident) {
            b = &start_next();
            idle = 0;
        } else if (idle > started.size() - at_grid) {  // a round in which no block changed anything
            std::vector<BlockRun*> waiting;
            for (auto& p : started)
                if (!p->at_grid) waiting.push_back(p.get());
            launch.reports.add("possible deadlock", b->serial, deadlock_message(waiting, order.size() - next));
            abandon(started);
            break;
        } else if (outcome == Outcome::Yielded) {
            b = runnable_from(splitmix64(draws) % started.size());
        } else {
            b = runnable_from(turn + 1);
        }
    }
    launch.block_serial = next;
    g_stopped = false;
    detail::g_steps_left = kNever;
    g_block = nullptr;
    detail::divergence_end_launch();
    if (const std::size_t declared = detail::take_static_shared(); site.function != nullptr) {
        std::size_t& known = detail::kernel_info(site.function).static_shared;
        known = std::max(known, declared);
    }
    detail::memcheck_end_launch();
    g_interval_counter = launch.interval_high;
    detail::g_running_launch = nullptr;
    g_lanes = nullptr;
    g_warps = nullptr;
    for (const auto& check : launch.reports.order) {
        const auto& report = launch.reports.by_check.at(check);
        const unsigned more = report.blocks - 1;
        g_findings.push_back({check, site.kernel,
                              report.first_message + (more ? " (and " + std::to_string(more) + " more block" +
                                                                 (more > 1 ? "s" : "") + ")"
                                                           : "") +
                                  "; launched at " + detail::where(site.file, site.line)});
    }
    return cudaSuccess;
}

namespace detail {

void LaunchReports::add(const std::string& check, unsigned long long block_serial, const std::string& message) {
    auto [it, inserted] = by_check.try_emplace(check);
    if (inserted) {
        it->second.first_message = message;
        order.push_back(check);
    }
    if (it->second.last_block_serial != block_serial) {
        it->second.last_block_serial = block_serial;
        ++it->second.blocks;
    }
}

WarpSyncs current_warp_syncs() { return (*g_warps)[current_thread() / 32].syncs; }
std::size_t dynamic_shared_size() { return g_dynamic_shared.size(); }

std::string where(const char* file, int line) {
    std::string f = file ? file : "?";  // never null from the rewriter; a string cannot be made from null
    const auto slash = f.find_last_of('/');
    return (slash == std::string::npos ? f : f.substr(slash + 1)) + ":" + std::to_string(line);
}

std::string block_name(const uint3& b) {
    return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

}  // namespace detail

// ---- host-side interface ----------------------------------------------------

std::vector<Finding> take_findings() {
    std::vector<Finding> out;
    out.swap(g_findings);
    return out;
}

std::string format(const Finding& f) { return f.check + " in kernel " + f.kernel + ": " + f.message; }

LaunchCount launches_so_far() { return {g_launch_count, g_block_count}; }



bool set_block_order(const std::string& spec) {
    bool ok = true;
    const BlockOrder order = parse_order(spec.c_str(), &ok);
    if (ok) block_order_setting() = order;
    return ok;
}

std::string block_order() {
    const BlockOrder& o = block_order_setting();
    if (o.kind == BlockOrder::Reverse) return "blocks in reverse launch order";
    if (o.kind == BlockOrder::Launch) return "blocks in launch order";
    return "blocks in a seeded random order, seed " + std::to_string(o.seed) + (o.seed == kDefaultSeed ? ", the default" : "");
}

void set_spin_budget(unsigned long long basic_blocks) { spin_budget_setting() = basic_blocks; }
unsigned long long spin_budget() { return spin_budget_setting(); }


std::string take_refused_launch() {
    std::string out;
    out.swap(g_refused_launch);
    return out;
}

}  // namespace simt

// math.cpp defines the C library's transcendental functions for the whole
// program (simt/README.md, Math): linked whenever the runtime is, so a
// program's sinf is the same whatever its kernels happen to call.
namespace simt::detail {
extern const char math_linked;
}
[[maybe_unused]] __attribute__((used)) static const char* const g_math_anchor = &simt::detail::math_linked;

// ---- time in a kernel ---------------------------------------------------------

namespace {
const int g_nanosleep_word = 0;  // what a back-off polls when its thread polled nothing before
}

// A look-back's back-off: a poll of the word the thread last polled (the flag
// it waits for) that saw it unchanged, so a waiting thread yields after as
// many polls and back-offs as a polling one; a thread that polled nothing
// polls a word of its own, which nothing changes.
__attribute__((noinline)) void __nanosleep(unsigned) {
    using namespace simt;
    if (!detail::in_kernel()) return;
    const void* pc = __builtin_return_address(0);
    const Lane& lane = *g_lane;
    if (lane.poll_address != nullptr) detail::poll(lane.poll_address, lane.poll_value, pc);
    else detail::poll(&g_nanosleep_word, 0, pc);
}

long long clock64() { return simt::detail::device_clock(); }
