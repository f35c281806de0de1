// The scheduler's state: a started block's lanes (its GPU threads, each a
// Boost.Context fiber) and warps, and the running one. Shared by the files
// that run a launch; not part of the shim: student code never sees it.
#pragma once

#include <csetjmp>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fiber.hpp"
#include "internal.hpp"
#include "simt/cuda.hpp"

namespace simt {

// ---- the scheduler ----------------------------------------------------------

constexpr unsigned kMaxThreadsPerBlock = 1024;
static_assert(kMaxThreadsPerBlock < 0xffff, "a shadow Word (memcheck.hpp) keeps a thread number plus one in 16 bits");
constexpr std::size_t kMaxDynamicShared = 48 * 1024;  // without cudaFuncSetAttribute or static shared memory
constexpr std::size_t kMaxDynamicSharedOptin = 232448;  // with it (an H100's sharedMemPerBlockOptin)
extern "C" unsigned char simt_dynamic_shared_memory[kMaxDynamicSharedOptin];  // launch.cpp
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

// Two cache lines, aligned: what a switch to or from it touches, and
// threadIdx, in the first (suspend() prefetches it for the thread after the
// next); the rest in the second. blockIdx and the dimensions are the
// block's and launch's (LaunchState), not each lane's.
struct alignas(64) Lane {
    Status status = Status::Running;
    int barrier_line = 0;
    const char* barrier_file = nullptr;
    Context context;  // the GPU thread while it is not running
    // The fiber's stack, [stack_low, stack_high): the kernel's own locals.
    const unsigned char* stack_low = nullptr;
    const unsigned char* stack_high = nullptr;
    // Once its block has spent its basic-block budget (the watchdog, below):
    // the basic blocks it has run since it was last resumed.
    unsigned slice = 0;
    uint3 thread_idx{};
    int barrier_vote = 0;       // its predicate at a __syncthreads_count/_and/_or (0 at a __syncthreads)
    bool grid_sync = false;     // the barrier it waits at is a grid group's sync()
    bool live = false;          // started and not yet returned from its fiber
    bool abandon_now = false;   // resumed by abandon(): leave through abandon_to

    std::jmp_buf* abandon_to = nullptr;  // once its fiber has begun: where abandon() makes it return from
    // At a warp function: its mask and what it deposits (at an
    // __activemask(), the group it met, once released).
    unsigned warp_mask = 0;
    unsigned long long deposit = 0;
    bool warp_orders_memory = false;  // at a __syncwarp
    // The word it polls, the value it saw there, how often in a row, and where.
    const void* poll_address = nullptr;
    unsigned long long poll_value = 0;
    unsigned polls = 0;
    const void* poll_pc = nullptr;
};
static_assert(sizeof(Lane) == 128, "a Lane is two cache lines");

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

// The fiber stacks of a block's threads, kFiberStack apart in one mapping,
// handed on to later blocks and launches: a fresh mapping's first touch of
// each stack would fault.
class LaneStacks {
public:
    LaneStacks() = default;
    LaneStacks(const LaneStacks&) = delete;
    LaneStacks& operator=(const LaneStacks&) = delete;
    ~LaneStacks() { give_back(); }
    // Holds stacks for `lanes` threads.
    void ensure(std::size_t lanes);
    unsigned char* low(std::size_t lane) const { return base_ + lane * kFiberStack; }

private:
    void give_back();
    unsigned char* base_ = nullptr;
    std::size_t lanes_ = 0;
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
    LaneStacks stacks;
    void (*body)(void*) = nullptr;  // the kernel's call, run by each thread
    void* closure = nullptr;
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

inline thread_local Lane* g_lane = nullptr;  // the lane whose fiber is running (detail::g_thread numbers it)
inline thread_local unsigned g_spun = 0;      // threads of the running block that began to spin in this pass
inline thread_local Lane* g_lanes = nullptr;  // the block's lanes, to number g_lane
inline thread_local std::vector<Warp>* g_warps = nullptr;
inline thread_local std::uint64_t g_interval_counter = 0;  // carried from launch to launch
// The running launch's dynamic shared memory (its first g_dynamic_shared_size
// bytes): room for the most a launch may have, at one address for good,
// which a namespace-scope `extern __shared__` array names by its symbol
// (rewrite_shared.cpp). Launches run one at a time (g_shared). The rest of
// it is no program memory for the checks (program_memory.cpp): an index far
// past the launch's bytes is reported, as one into host memory.
inline std::size_t g_dynamic_shared_size = 0;
inline thread_local BlockRun* g_block = nullptr;  // the running block
inline thread_local bool g_preempted = false;    // a thread of it was stopped in a loop (the watchdog's sampling)
inline thread_local bool g_stopped = false;      // a thread made an access it must not (detail::stop_launch)

// What the fault backstop (launch.cpp) keeps of a GPU thread's fault, for its
// report where the thread's fiber began (start_block).
constexpr int kFaulted = 2;  // setjmp's value at a fiber's start (abandon() gives 1)
struct Fault {
    const void* address = nullptr;
    const void* pc = nullptr;
    bool write = false;
};
inline thread_local Fault g_fault;

// The watchdog (watchdog.cpp).
constexpr std::uint64_t kNever = ~std::uint64_t{0};

unsigned long long& spin_budget_setting();
void restart_watch(BlockRun& b);
std::string runaway_message(const BlockRun& b, const detail::LaunchState& launch, detail::ReportDetail& named);

// Running a launch's blocks (scheduler.cpp).
std::string thread_list(const std::vector<unsigned>& ids);
void start_block(BlockRun& b, void (*body)(void*), void* closure, detail::LaunchState& launch);
// The running thread, its status saying why, leaves for the next thread of
// its block's pass, or for the scheduler; returns when resumed.
void suspend();
void abandon(std::vector<std::unique_ptr<BlockRun>>& started);
// Yielded: it published to other blocks (detail::g_published) and was put aside.
// Runaway: its threads spent the watchdog's budget and then the sampling's.
// Stopped: a thread was stopped before an access it must not make (reported).
// GridWait: its threads wait at a grid sync, until every block of the
// (cooperative) grid does.
enum class Outcome { Done, Stalled, Yielded, Runaway, Stopped, GridWait };

Outcome advance(BlockRun& b, detail::LaunchState& launch);
std::string deadlock_message(const std::vector<BlockRun*>& started, std::size_t not_started,
                             detail::ReportDetail& named);

}  // namespace simt
