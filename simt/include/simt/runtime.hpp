// The emulator's host-side interface for the harness and the tests: what its
// checks found, and the device memory the program holds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace simt {

// The family of what a check found, set by the check that fires (never read
// back from its name or words): a data race; a barrier or warp function a
// GPU would hang on or leave undefined; an access a GPU would fault on or
// leave undefined; a read of memory nothing wrote (the value is what was
// there: the kernel runs on).
enum class Kind : unsigned char { race, barrier, memory, uninitialised };
const char* kind_name(Kind kind);  // "race", "barrier", "memory", "uninitialised"

// What one check found in one launch: its first report in words, and what
// that report names as fields, so that no reader takes the words apart.
struct Finding {
    std::string check;    // "barrier divergence", ...
    Kind kind;            // its check's family
    std::string kernel;   // the kernel as written at its launch
    std::string message;  // the first report: block, threads and source lines, for a person
    std::vector<std::string> lines;  // the source lines it names ("scan.cu:24"), in its order
    std::vector<unsigned> columns;   // each line's column, 1-based; 0 where not known
    std::string launch;              // where the kernel was launched ("scan.cu:80")
    unsigned block[3] = {};          // the first block that showed it (blockIdx)
    long long thread = -1;           // the thread of that block it names, where it names one
    std::string allocation;          // the allocation or array an access missed, where it names one
    unsigned blocks = 1;             // the launch's blocks that showed it
};

// Findings since the last call, in the order found (deterministic).
std::vector<Finding> take_findings();
// The emulator's own sentence for a finding (its tests and tools print it;
// the kit renders its record of it, labs/common/finding.hpp, the same way).
std::string format(const Finding& finding);

// SIMT divergence, from per-lane basic-block traces of the kernel file (off
// unless switched on: it costs time on every basic block). A warp diverges in
// a barrier interval when its live lanes did not run the same sequence of
// basic blocks. SIMT efficiency = lane-block visits / (32 x warp-block
// visits), where a warp visits a block as often as its busiest lane does.
struct DivergenceCell {
    unsigned divergent_blocks = 0;  // blocks in which this warp diverged in this interval
    unsigned long long lane_visits = 0, warp_visits = 0;
};

struct LaunchDivergence {
    std::string kernel;
    unsigned blocks = 0, warps_per_block = 0;
    // cells[interval][warp], interval 0 running up to the first __syncthreads()
    std::vector<std::vector<DivergenceCell>> cells;
    // active_lanes[k]: warp-block visits with k lanes active
    std::vector<unsigned long long> active_lanes = std::vector<unsigned long long>(33);
    // divergent_pcs[interval]: the basic blocks that some lanes of a warp ran
    // and others did not (or ran less often): the branch that diverged
    std::vector<std::set<std::uintptr_t>> divergent_pcs;
    // strides[interval][s]: the lanes whose two nearest shared-memory reads
    // in that interval were s elements apart (a step's stride: Kogge-Stone's
    // XY[t] and XY[t - s], Brent-Kung's XY[i] and XY[i - s])
    std::vector<std::map<std::size_t, unsigned long long>> strides;
    double efficiency() const;
};

void set_divergence_tracing(bool on);
std::vector<LaunchDivergence> take_divergence();
// A few lines for a person: the efficiency; per barrier interval where a warp
// diverged, its stride, the warps (as ranges) and the source lines of the
// branch; the active-lanes histogram, explained.
std::string format(const LaunchDivergence& d);
// The same report in its parts, so a reader can pick lines without taking
// the text apart: the kernel's line and the legend (or "no warp diverged"),
// each barrier interval's line with its number, and the active-lanes line;
// each line with its newline. format(d) is them in this order.
struct DivergenceReport {
    std::string head;
    std::vector<std::pair<std::size_t, std::string>> intervals;
    std::string lanes;
};
DivergenceReport report_parts(const LaunchDivergence& d);

// Trace mode: after every barrier of block `block` (in launch order: blockIdx.x
// for a 1-D grid), the first `elements` elements of each row of the __shared__
// array `array` are recorded, as for the textbook's exercises 9.7 and 9.8.
void set_trace(const std::string& array, unsigned block, std::size_t elements);
void clear_trace();
std::string take_trace();  // what was recorded since the last call
// Where set_trace's array or block matched nothing in the launches since:
// what they had (kernels, their traceable arrays, their blocks); "" otherwise.
std::string trace_unmatched();

// The last launch refused since the last call (a grid of 0 blocks, ...): its
// kernel, line, configuration and why; "" if none.
std::string take_refused_launch();

// Kernel launches and the blocks they ran since the process started.
struct LaunchCount {
    unsigned long long launches = 0, blocks = 0;
};
LaunchCount launches_so_far();

// Whether the data in the device allocation at `device_ptr` came from a
// kernel: a kernel wrote into it (or a device-to-device copy brought it from
// one a kernel wrote), and no copy from the host replaced it since.
bool written_by_kernel(const void* device_ptr);

// Data through the host (the harness: a scan done on the host, its answer
// uploaded and copied into the output by a kernel). count_host_traffic
// starts the count again. bytes_to_host: what copies took from device memory
// (cudaMalloc's, `__device__` variables) into memory the host reads
// (pageable, pinned, registered, managed), and kernels stored into pinned,
// registered or managed memory, since. host_data_in: of the data uploaded
// since from pageable memory after something went to the host, or written by
// the host into pinned, registered or managed memory, the bytes that may have
// reached the allocation at `device_ptr` through copies and kernels (a launch
// carries what it read of it into what it wrote), at most its size; 0 for
// no allocation.
void count_host_traffic();
std::size_t bytes_to_host();
std::size_t host_data_in(const void* device_ptr);

// Only the first `bytes` of the device allocation at `device_ptr` are the
// program's (the harness pads its buffers with guard elements): a kernel's
// read past them is reported as an out-of-bounds access, as it would be past
// an allocation of that size. False if `device_ptr` starts no allocation.
bool set_given_bytes(const void* device_ptr, std::size_t bytes);

// The order a launch's blocks start in: a seed (digits: a permutation per
// launch drawn from it), "reverse" (last block first), "launch" (block 0
// first) or "default" (seed 1). The environment variable SIMT_BLOCK_ORDER
// sets it at start-up. False for anything else.
bool set_block_order(const std::string& spec);
std::string block_order();  // for a person: "blocks in a seeded random order, seed 1, the default"

// The watchdog: a block whose threads run this many basic blocks in all
// without one of them finishing (a barrier does not count) is taken to loop
// without end; the launch stops with a "possible endless loop" finding. 0:
// no limit. The environment variable SIMT_SPIN_BUDGET sets it at start-up
// (default 100000000); a lab's programs set their lab's (labs/common/catalog.cpp)
// unless the variable is set.
void set_spin_budget(unsigned long long basic_blocks);
unsigned long long spin_budget();

struct MemoryUsage {
    std::size_t bytes = 0;
    std::size_t allocations = 0;
};
MemoryUsage memory_in_use();

}  // namespace simt
