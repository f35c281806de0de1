// One run of a lab function on one input, as the device left it, and the
// rules it is judged by. The suite observes and judges in one process; the
// grader's runner (run_main.cpp) only observes and writes the observation to a
// file, and the grader judges it against the input and answer it made itself.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "finding.hpp"
#include "scan_spec.hpp"

namespace harness {

// Elements after n in both buffers, checked to be left as they were.
constexpr std::size_t kGuard = 64;
// What the input's guard elements hold: huge, so a kernel that reads past n
// and lets it into a real output fails loudly.
constexpr float kInputGuard = 1.0e30f;

// One warp in one barrier interval of a launch, summed over its blocks: the
// emulator's cells[interval][warp] (simt/docs/divergence.md).
struct DivergenceCell {
    unsigned long long lane_visits = 0, warp_visits = 0;
    unsigned divergent_blocks = 0;  // blocks in which this warp diverged in this interval
    // Active lanes per warp-block visit over 32: lane_visits / (32 * warp_visits); 1 when never visited.
    double active_fraction() const;
    DivergenceCell& operator+=(const DivergenceCell& other);  // every count summed
};

// The emulator's report of a launch for a person (simt::report_parts), in
// its parts: the kernel's line and the legend (or "no warp diverged"), each
// barrier interval's line with its number, and the active-lanes line; each
// line with its newline.
struct ReportParts {
    std::string head;
    std::vector<std::pair<std::size_t, std::string>> intervals;
    std::string lanes;
    std::string text() const;  // the whole report, as simt::format writes it
};

// One launch, traced: its warp-by-interval map and the emulator's report for a person.
struct KernelDivergence {
    std::string kernel;
    unsigned blocks = 0, warps_per_block = 0;
    std::vector<std::vector<DivergenceCell>> cells;  // cells[interval][warp], interval 0 up to the first barrier
    ReportParts report;
    DivergenceCell total() const;  // every cell summed: divergent_blocks counts (warp, interval) pairs
};

// SIMT efficiency of launches together: lane visits / (32 x warp visits); 1 with none.
double simt_efficiency(const std::vector<KernelDivergence>& launches);
// Per launch, per barrier interval: how many of its warps diverged (in any
// block). The reference's on the divergence dataset are in labs/targets.json,
// so ./scan-labs check can tell the cause below without the reference's code.
using DivergentWarps = std::vector<std::vector<unsigned>>;
DivergentWarps divergent_warps(const std::vector<KernelDivergence>& launches);
// The modulo mapping (its busy threads spread over every warp) in a
// Brent-Kung scan's reduction tree, distribution tree or both, recognised from
// the barrier intervals in which most warps of a launch diverge and fewer of
// the reference's do (the first half of a kernel's intervals holds the
// reduction tree, the second the distribution tree); "the reduction tree",
// "the distribution tree", "both trees"; "" where no such interval is.
std::string modulo_mapping_trees(const std::vector<KernelDivergence>& mine, const DivergentWarps& reference);
// A launch's report cut for the grader's feedback: its head and legend, then
// the lines of the barrier intervals in which more of its warps diverged
// than the reference's did there (`reference`: that launch's row of
// divergent_warps), at most `lines` of them, the rest counted; the first
// intervals where none diverged more.
std::string report_beyond(const KernelDivergence& mine, const std::vector<unsigned>& reference, std::size_t lines);
// The likely cause of `function`'s lower SIMT efficiency than the reference's,
// for a student, where it is recognisable: "likely the modulo mapping in both
// trees"; "" where none is. `why`, if given, gets a line that explains it.
std::string divergence_cause(const std::string& function, const std::vector<KernelDivergence>& mine,
                             const DivergentWarps& reference, std::string* why = nullptr);

struct Observation {
    std::size_t n = 0;
    std::vector<float> in_after, out;  // n + kGuard elements each
    std::size_t leaked_bytes = 0, leaked_allocations = 0;
    std::vector<finding::Finding> findings;  // the backend's checks' (the emulator's)
    std::string error;                  // a device error, if the run hit one
    bool sticky = false;                // ... that leaves the device unusable
    std::vector<KernelDivergence> divergence;  // per launch, when traced
    // The GPU work the call did, where the backend counts it (-1: unknown):
    // kernel launches, the blocks they ran, and whether the output's data
    // came from a kernel (1) or not (0: never written by one, or replaced by
    // a copy from the host).
    long long launches = -1, blocks = -1;
    int output_from_kernel = -1;
    // Data through the host in the call, where the backend counts it (-1:
    // unknown): bytes copied from device memory to the host, and of the host
    // data uploaded after such a copy, the bytes that may have reached the
    // output (through copies and kernels).
    long long to_host_bytes = -1, host_bytes_in_output = -1;
    std::string block_order;  // the emulator's block order, for a person; empty elsewhere
};

// The input as uploaded: n values then kGuard guard elements.
std::vector<float> guarded(std::vector<float> in);

struct Check {
    std::string rule;  // outputs_match, input_unchanged, nothing_written_past_n,
                       // temporaries_freed, backend_checks_clean, no_device_error,
                       // ran_on_gpu (a kernel launched and wrote the output,
                       // not values that went through the host: host_round_trip_limit)
    bool ok = true;
    std::string message;  // why it failed, for a person
    // outputs_match only: how many outputs are wrong and the first of them
    // (for the suite's one line per failing dataset, triage.hpp).
    std::size_t wrong = 0, first_wrong = 0;
};

// The most values that may go to the host and come back into the output of
// n within a call (a hierarchical scan's block sums): an eighth of n, at least
// one where n > 1 (one block total), none where n is 1. A call that copied
// more than this to the host and whose output then holds more than this of
// host data ran the scan on the host (ran_on_gpu).
std::size_t host_round_trip_limit(std::size_t n);

// Every rule for one observation of `function` on `input` (n values, no guard).
std::vector<Check> judge(const std::vector<float>& input, const Observation& seen, const datasets::ScanSpec& spec,
                         bool exact, const std::string& function);

// An observation as bytes: what a runner sends the grader (result_channel.hpp),
// and a file's content. decode_observation and read_observation throw
// std::runtime_error naming what is wrong with missing, short or corrupt bytes.
std::string encode_observation(const Observation& seen);
Observation decode_observation(std::string_view bytes);
void write_observation(const std::string& path, const Observation& seen);
Observation read_observation(const std::string& path);

}  // namespace harness
