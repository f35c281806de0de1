// What the scheduler (launch.cpp, scheduler.cpp, watchdog.cpp, builtins.cpp)
// and the memory checks (memcheck.cpp and memcheck_*.cpp) share.
// Not part of the shim: student code never sees it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "init_bits.hpp"
#include "simt/cuda.hpp"
#include "simt/runtime.hpp"

namespace simt::detail {

// What a report names besides its words, carried into simt::Finding so that
// no reader has to take the message apart: the block, the source lines in the
// order the message names them, and the thread and allocation where it names
// one.
struct ReportDetail {
    explicit ReportDetail(uint3 b = {}, long long t = -1) : block(b), thread(t) {}
    uint3 block;
    std::vector<std::string> lines;
    // lines[k]'s code address, for its column (source_column), read once the
    // launch ends: libdw needs more stack than a GPU thread's fiber has.
    std::vector<const void*> pcs;
    long long thread;
    std::string allocation;
    // "?" (not known) and repeats are left out
    ReportDetail& line(const std::string& at, const void* pc = nullptr);
};

// Findings of one launch: one report per check, for the first block it
// happened in, plus how many blocks in all.
struct LaunchReports {
    struct Report {
        Kind kind = Kind::memory;  // set by add, from the check that fired
        std::string first_message;
        ReportDetail detail;  // the first report's
        unsigned blocks = 0;
        unsigned long long last_block_serial = ~0ull;  // count a block once
    };
    std::map<std::string, Report> by_check;
    std::vector<std::string> order;

    bool has(const std::string& check) const { return by_check.count(check) != 0; }
    void add(const std::string& check, Kind kind, unsigned long long block_serial, const std::string& message,
             ReportDetail detail);
};

// The launch being run, and where in it the running fiber is.
struct LaunchState {
    LaunchSite site{};
    dim3 grid, block;
    bool cooperative = false;  // cudaLaunchCooperativeKernel: grid syncs allowed
    uint3 block_idx{};
    unsigned long long block_serial = 0;  // blocks started in this launch, minus one
    unsigned long long block_linear = 0;  // the running block's blockIdx, x fastest
    // Barrier intervals are numbered from 1, increasing across blocks and
    // launches, so a shadow entry older than the current block or launch is
    // recognised by its number alone.
    std::uint64_t interval = 0;
    std::uint64_t block_first_interval = 0;
    std::uint64_t launch_first_interval = 0;
    std::uint64_t interval_high = 0;  // the last number given out
    LaunchReports reports;
};

// The running launch (null outside one) and GPU thread (its linear index in
// the block, kNoThread outside a kernel), as the scheduler (scheduler.cpp)
// sets them: inline, for the memory checks ask on every access.
constexpr unsigned kNoThread = ~0u;
inline thread_local LaunchState* g_running_launch = nullptr;
inline thread_local unsigned g_thread = kNoThread;
inline LaunchState* current_launch() { return g_running_launch; }
inline unsigned current_thread() { return g_thread; }  // valid inside a kernel
inline bool in_kernel() { return g_thread != kNoThread; }
// The running GPU thread's own stack, [g_stack_low, g_stack_high): its locals.
inline thread_local const unsigned char* g_stack_low = nullptr;
inline thread_local const unsigned char* g_stack_high = nullptr;
inline bool on_fiber_stack(const void* p) {
    const auto* q = static_cast<const unsigned char*>(p);
    return q >= g_stack_low && q < g_stack_high;
}
long long device_clock();  // clock64()'s counter, which grows with every read
// The running thread's warp: how many __syncwarp rendezvous it has completed
// (modulo 2^16) and the lanes that met at the last one. Two accesses of one
// barrier interval by lanes of one warp are ordered when a __syncwarp both
// lanes took part in lies between them.
struct WarpSyncs {
    std::uint16_t count = 0;
    unsigned mask = 0;
};
WarpSyncs current_warp_syncs();
// Whether this launch has completed a __syncwarp rendezvous (until then every
// warp's count is 0, so the checks need not ask); cleared when a launch ends.
inline bool g_syncwarp_seen = false;
std::size_t dynamic_shared_size();  // bytes of this launch's extern __shared__ memory

// Memory checks, called by the scheduler.
void memcheck_begin_launch();
void memcheck_end_launch();
// A block's shared memory (the bytes of its declared arrays and their
// checks' shadows) put aside while another block runs, and put back; a
// block that starts while another is put aside gets fresh shadows.
struct SavedShared;
std::shared_ptr<SavedShared> shared_save();
void shared_restore(std::shared_ptr<SavedShared> saved);
void shared_fresh();

// Bumped by every write of a kernel to device or shared memory (an atomic
// only when it changes the value): a spinning block whose resumption finds
// it unchanged has nothing new to see.
inline std::uint64_t g_progress = 0;
// The running thread publishes to other blocks (a volatile store to device
// memory, an atomic that changed a word there): the first to do so in a pass
// of its block's threads yields at once, and when the pass ends the scheduler
// puts the block aside and lets a block of its choice run, so the others see
// it between its publications (a published AGGREGATE before the INCLUSIVE
// prefix), as they may on a GPU (launch.cpp).
inline bool g_published = false;
void on_publish();
// The watchdog's countdown (watchdog.cpp): the basic blocks the running block
// may still run before one of its threads finishes. The trace-pc hook
// (divergence.cpp) counts it down and calls steps_spent at 0, which inside
// a kernel puts the block under watch (outside one there is no count): every basic block then comes to steps_spent, which notes
// where the thread is and stops it now and then, until the scheduler ends
// the launch with a finding.
inline std::uint64_t g_steps_left = ~std::uint64_t{0};
void steps_spent(const void* pc);
// A read that may be a spin-wait's (an atomic that changed nothing, a
// volatile load): after many in a row of one unchanged word the thread
// yields (builtins.cpp) so other threads and blocks can run.
void poll(const void* address, unsigned long long value, const void* pc);
// An atomic read-modify-write by the running thread (atomics.cpp). `wide`:
// at device or system scope (CUDA's own atomics are), whose read may acquire
// what another block released (block scope: none, as a block-scoped access
// does not synchronise with another block's).
void record_atomic(const void* addr, std::size_t size, const void* pc, bool wide = true);
// libcu++'s atomic loads and stores (atomics.cpp). A load may be a spin-wait's
// poll (as a volatile load is): the check and what it acquires come after the
// poll, when the word holds what the load returns. A store reads nothing, so
// acquires nothing.
void record_atomic_load(const void* addr, std::size_t size, const void* pc, bool wide);
void record_atomic_store(const void* addr, std::size_t size, const void* pc);
// A plain load or store that a library function (math.cpp's sincosf, normf,
// ...) makes for the kernel that called it: checked as an instrumented access
// at `pc`, the caller's return address.
void library_access(const void* addr, std::size_t size, bool write, const void* pc);
// Blocks that publish to each other (memcheck.cpp): a __threadfence() by the
// running thread, and an atomic that changed the word at `addr`. With a fence
// before the flag's store in the writer and one after its load in the
// reader, plain data written before the one is no race with plain reads
// after the other.
void device_fence();
// `stored`: the word holds the new value already (an atomic); a volatile
// store's hook runs before the store, so its yield waits for the thread's
// next checked access. What the release covers (`how`): the writes its
// thread's last __threadfence() covered (CUDA's atomics, volatile stores and
// libcu++'s relaxed ones at device or system scope); every write its block
// made before it (libcu++'s release, acq_rel and seq_cst stores and
// read-modify-writes at device or system scope: a fence and the store in
// one); or nothing (block or thread scope, which no other block synchronises
// with). `publishes`: the word changed, so the block is put aside (a store of
// the value already there releases without yielding). `rmw`: a
// read-modify-write, which continues the word's release sequence; a store
// starts a new one.
enum class Releases { AfterFence, Everything, Nothing };
void release(const void* addr, bool stored, Releases how = Releases::AfterFence, bool publishes = true,
             bool rmw = false);
// An acquire (libcu++'s acquire, acq_rel and seq_cst loads and
// read-modify-writes at device or system scope): what the last release of
// the word at `addr` covered is the running block's now, as an atomic load
// followed by a __threadfence() makes it.
void acquire_now(const void* addr);

// Trace mode (memcheck_launch.cpp, which knows the shared arrays): called when every
// thread of the block is at a barrier or gone; `when` says which.
void trace_interval_end(const std::string& when);

// Divergence tracing, called by the scheduler (no-ops while it is off).
void divergence_begin_launch(unsigned threads_per_block);
void divergence_end_interval(unsigned interval_in_block);  // every thread is at a barrier or gone
void divergence_end_launch();
// What one lane did in the running barrier interval: the basic blocks it ran,
// and the shared-memory elements it read (array, index in units of the read's
// size; the first few), from which the step's stride is told.
struct LaneTrace {
    std::vector<std::uintptr_t> pcs;
    std::vector<std::pair<const void*, std::size_t>> reads;
};
// Whether divergence is being traced (set_divergence_tracing): asked inline
// by the shared-memory check before it calls divergence_shared_read.
inline bool g_tracing = false;
// The running block's lane traces (divergence.cpp), filled by basic_block.
extern std::vector<LaneTrace> g_traces;
// One basic block run, at code address `pc`: the watchdog's count and, while
// tracing, the running lane's trace. The trace-pc hook's body (divergence.cpp),
// and the index built-ins' (builtins.cpp), which stand for a basic block of
// their own. Every basic block of a kernel comes here, so the usual case
// (the count not spent, no tracing) is a decrement and a test, with no
// stack frame; basic_block_noted, out of line, does the rest.
void basic_block_noted(const void* pc);
__attribute__((always_inline)) inline void basic_block(const void* pc) {
    if (__builtin_expect(--g_steps_left == 0 || g_tracing, false)) basic_block_noted(pc);
}
// A shared-memory read by the running thread (memcheck.cpp).
void divergence_shared_read(const void* array, std::size_t index);
// A block's lane traces put aside while another block runs, and put back.
void divergence_save(std::vector<LaneTrace>& into);
void divergence_restore(std::vector<LaneTrace>& from);

// Device allocations: [base, base + bytes), each in a mapping of its own
// (cudaMalloc in runtime_api.cpp): kRedzone bytes on each side, and the page
// rounding after, can be read and written (an access there is reported and
// performed), then kGuard bytes of inaccessible pages on each side, which
// nothing else is mapped into: an index up to kGuard bytes out of range is
// reported against its allocation. The emulator's own state lies elsewhere.
// What an allocation is: cudaMalloc's and cudaMallocAsync's (Device),
// cudaMallocManaged's (Managed), pinned host memory (Pinned: cudaMallocHost,
// cudaHostAlloc), host memory cudaHostRegister registered (Registered: no
// mapping of its own), a `__device__` or `__constant__` variable (Variable:
// in the program's image). Kernels may access every kind; the leak check
// and cudaMemGetInfo count Device and Managed.
enum class MemoryKind : unsigned char { Device, Managed, Pinned, Registered, Variable };
struct Allocation {
    std::size_t bytes;
    // The whole mapping [map_low, map_high) and its accessible part
    // [base - kRedzone, accessible_high).
    const unsigned char* map_low = nullptr;
    const unsigned char* map_high = nullptr;
    const unsigned char* accessible_high = nullptr;
    // What it holds came from a kernel: set by a kernel's write, carried by a
    // device-to-device copy, cleared by a copy from the host.
    mutable bool kernel_written = false;
    // Bytes of host data that may have reached it: data uploaded after
    // something was copied to the host (host_traffic.cpp); at most `bytes`.
    mutable std::size_t from_host = 0;
    // The bytes the program was given (simt::set_given_bytes); reads past them are out of bounds.
    mutable std::size_t given = SIZE_MAX;
    MemoryKind kind = MemoryKind::Device;
    unsigned flags = 0;          // cudaHostAlloc's, cudaHostRegister's or cudaMallocManaged's
    const char* name = nullptr;  // a variable's, and its line
    int line = 0;
    // Which bytes something wrote, for device memory proper (cudaMalloc's,
    // cudaMallocAsync's): the host may write the other kinds directly, and a
    // variable starts initialised. Where it was allocated: the call's return address.
    std::shared_ptr<InitBits> init;
    const void* allocated_at = nullptr;
    const char* site_file = nullptr;  // or, from a typed overload (host_memory.hpp), its call's file and line
    unsigned site_line = 0;
};
// Whether the kind counts as device memory (the leak check, cudaMemGetInfo).
inline bool counts_as_device(MemoryKind k) { return k == MemoryKind::Device || k == MemoryKind::Managed; }
// The variables registered before main (simt::declare_device_variable, run
// during static initialisation) join g_allocations here: called where a
// launch starts and by the runtime API.
void adopt_device_variables();
// "a 128-byte device allocation" or "the 64-byte __device__ variable table
// declared at line 3", for reports.
std::string describe_allocation(const Allocation& a);
const std::map<const unsigned char*, Allocation>& allocations();
// How many allocations have been freed: an entry of allocations() the memory
// checks keep a pointer to stays valid while this is unchanged.
inline std::uint64_t g_allocations_freed = 0;
// Every allocation, by base (runtime_api.cpp owns them).
extern std::map<const unsigned char*, Allocation> g_allocations;
// CUDA's last error of the calling host thread: fail() sets it and returns it.
extern thread_local cudaError_t g_last_error;
cudaError_t fail(cudaError_t err);
constexpr std::size_t kRedzone = 256;
constexpr std::size_t kGuard = std::size_t{16} << 20;  // 10^6 elements of 16 bytes past either end
// What the runtime API's files share: the allocation p points into (not past
// its end) or null, and freeing the allocation at `ptr` if it is one of
// `kinds`, a bit per MemoryKind (runtime_api.cpp); whether a stream is one
// the program may use (stream_api.cpp).
const std::pair<const unsigned char* const, Allocation>* containing(const void* p);
bool unmap_allocation(void* ptr, unsigned kinds);
bool valid_stream(cudaStream_t s);

// Data through the host (host_traffic.cpp): around each copy and memset
// (cudaMemcpy, cudaMemset, after their checks) and each launch that runs
// (while it is the running one), and an allocation's end.
void traffic_before_copy(const void* dst, const void* src);
void traffic_after_copy(const void* dst, const void* src, std::size_t bytes);
void traffic_after_set(const void* dst, std::size_t bytes);
void traffic_begin_launch();
void traffic_end_launch();
void traffic_forget(const unsigned char* base);
// The words of the allocation at `base` that the running launch read (an
// atomic read-modify-write counts too) and wrote, from the memory checks'
// shadow words (memcheck.cpp).
struct WordsTouched {
    std::size_t read = 0, written = 0;
};
WordsTouched words_touched(const unsigned char* base);

// Kernels' attributes, by the kernel's address (device_api.cpp): the
// static shared memory of its last launch, cudaFuncSetAttribute's values.
struct KernelInfo {
    std::size_t static_shared = 0;  // the most a launch of it declared
    int max_dynamic_shared = -1;  // -1: not set (48 KiB less its static shared memory)
    int carveout = -1;
    int cluster[6] = {};          // cudaFuncAttributeClusterDimMustBeSet ... SchedulingPolicyPreference
};
KernelInfo& kernel_info(const void* function);
// The dynamic shared memory a launch of `function` may have: 48 KiB less its
// static shared memory, or what cudaFuncSetAttribute allowed.
std::size_t dynamic_shared_limit(const void* function);
// The bytes of the __shared__ arrays the running launch declared (the most a
// block of it had); taking it starts the count again (memcheck_launch.cpp).
std::size_t take_static_shared();
// cudaDeviceReset's part in device_api.cpp: limits, cache settings and
// kernels' attributes back to their defaults.
void reset_device_settings();

// An access the running thread must not make (memory that is not there, or
// the program's own that is not the kernel's): after its report the launch
// stops, before the access, as a GPU stops a kernel at an illegal address.
// The thread never returns from here; the scheduler ends the launch's threads.
[[noreturn]] void stop_launch();
// The running thread faulted at `address` (the SIGSEGV backstop, for an
// access the hooks did not see): its report, made after the fault handler
// has left the signal (launch.cpp's fault backstop).
void report_fault(const void* address, const void* pc, bool write);

// "scan.cu:24" for a code address in the student's file ("?" if unknown).
std::string source_line(const void* pc);
// The column of the code at `pc` in its .cu (1-based), where the debug
// information has one and the rewriter left the line's text up to it as
// written; else 0.
unsigned source_column(const void* pc);
std::string where(const char* file, int line);
std::string block_name(const uint3& b);

}  // namespace simt::detail
