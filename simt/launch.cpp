// A launch on the emulator: its blocks started in one order or another and
// run a few at a time by the scheduler (scheduler.cpp), the fault backstop
// around it, the findings it leaves, and the host-side interface to them.
#include <signal.h>
#include <ucontext.h>

#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "internal.hpp"
#include "scheduler.hpp"
#include "simt/cuda.hpp"
#include "simt/runtime.hpp"

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
// executed again, then meets. (kFaulted and the fault, g_fault, are
// scheduler.hpp's: start_block reports it.)
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

}  // namespace

extern "C" {
alignas(16) unsigned char simt_dynamic_shared_memory[kMaxDynamicSharedOptin];
}

// ---- a launch ---------------------------------------------------------------

cudaError_t run_grid(const LaunchSite& site, dim3 grid, dim3 block, std::size_t shared_bytes, void (*body)(void*),
                     void* closure, LaunchKind kind) {
    // A launch from device code (dynamic parallelism) needs nvcc's -rdc=true,
    // which the kit's CUDA build does not use, so nvcc rejects it; the
    // emulator cannot nest one launch's fibers in another's.
    if (detail::in_kernel()) {
        detail::g_running_launch->reports.add("kernel launch from device code", Kind::memory, detail::g_running_launch->block_serial,
                              detail::block_name(detail::g_running_launch->block_idx) + ": thread " +
                                  std::to_string(detail::current_thread()) + " launched " + site.kernel + " at " +
                                  detail::where(site.file, site.line) +
                                  " from device code (dynamic parallelism), which nvcc rejects without -rdc=true "
                                  "(the labs build without it): launch kernels from host code; the launch stopped "
                                  "there",
                              detail::ReportDetail{detail::g_running_launch->block_idx, detail::current_thread()}.line(
                                  detail::where(site.file, site.line)));
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

    std::memset(simt_dynamic_shared_memory, 0, shared_bytes);
    g_dynamic_shared_size = shared_bytes;
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
    detail::traffic_begin_launch();
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
                for (unsigned x = 0; x < block.x; ++x) b->lanes[t++].thread_idx = {x, y, z};
        switch_to(*b);
        start_block(*b, body, closure, launch);
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
            launch.reports.add("possible deadlock", Kind::barrier, w.serial,
                               detail::block_name(w.idx) + ": its threads wait at the grid sync at " +
                                   detail::where(lane->barrier_file, lane->barrier_line) + " with " +
                                   std::to_string(started.size()) + " block(s), but " +
                                   detail::block_name(exited_idx) +
                                   " has finished without reaching it: every block of a cooperative launch must "
                                   "reach each grid sync, or the others wait for ever",
                               detail::ReportDetail{w.idx}.line(detail::where(lane->barrier_file, lane->barrier_line)));
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
            detail::ReportDetail named{b->idx};
            std::string message = runaway_message(*b, launch, named);
            launch.reports.add("possible endless loop", Kind::barrier, b->serial, message, std::move(named));
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
            detail::ReportDetail named{waiting.front()->idx};
            std::string message = deadlock_message(waiting, order.size() - next, named);
            launch.reports.add("possible deadlock", Kind::barrier, b->serial, message, std::move(named));
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
    detail::traffic_end_launch();  // reads the shadow words this launch left
    detail::memcheck_end_launch();
    g_interval_counter = launch.interval_high;
    detail::g_running_launch = nullptr;
    g_lanes = nullptr;
    g_warps = nullptr;
    for (const auto& check : launch.reports.order) {
        const auto& report = launch.reports.by_check.at(check);
        const detail::ReportDetail& d = report.detail;
        std::vector<unsigned> columns;
        for (const void* pc : d.pcs) columns.push_back(pc ? detail::source_column(pc) : 0);
        g_findings.push_back({check, report.kind, site.kernel, report.first_message, d.lines, columns,
                              detail::where(site.file, site.line), {d.block.x, d.block.y, d.block.z}, d.thread,
                              d.allocation, report.blocks});
    }
    return cudaSuccess;
}

// ---- host-side interface ----------------------------------------------------

const char* kind_name(Kind kind) {
    switch (kind) {
        case Kind::race: return "race";
        case Kind::barrier: return "barrier";
        case Kind::memory: return "memory";
        case Kind::uninitialised: return "uninitialised";
    }
    return "memory";  // not reached: every Kind is named above (-Wswitch)
}

std::vector<Finding> take_findings() {
    std::vector<Finding> out;
    out.swap(g_findings);
    return out;
}

std::string format(const Finding& f) {
    const unsigned more = f.blocks > 1 ? f.blocks - 1 : 0;
    return f.check + " in kernel " + f.kernel + ": " + f.message +
           (more ? " (and " + std::to_string(more) + " more block" + (more > 1 ? "s" : "") + ")" : "") +
           "; launched at " + f.launch;
}

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
// program (simt/docs/math.md): linked whenever this file is (every
// program that launches a kernel), so a program's sinf is the same whatever
// its kernels happen to call.
namespace simt::detail {
extern const char math_linked;
}
[[maybe_unused]] __attribute__((used)) static const char* const g_math_anchor = &simt::detail::math_linked;
