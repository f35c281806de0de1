// Hardware counters per kernel, read from Nsight Compute's CSV (`ncu --csv
// --metrics ...`), and what they say about a lab function against theory.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bench {

// The metrics scan-bench asks ncu for, comma-separated.
extern const char* const kMetrics;

struct KernelCounters {
    std::string kernel;  // the name without its parameter list
    unsigned launches = 0;
    std::map<std::string, double> sum;  // metric name -> sum over launches
    double get(const std::string& metric) const;
};

struct Profile {
    std::vector<KernelCounters> kernels;  // in order of first launch
    std::string problem;                  // why there are no counters ("" when there are)
};

// Parses everything ncu printed; a run refused counters (ERR_NVGPUCTRPERM),
// an ncu error or output without a CSV table becomes `problem`.
Profile parse_ncu(const std::string& output);

// Warp instructions executed and thread instructions executed with the
// predicate on, summed over every launch of every kernel of a profile; the
// lane slots they left idle (32 per warp instruction, less the busy ones).
struct Lanes {
    double warp = 0, thread = 0;
    double idle() const { return 32 * warp - thread; }
};
Lanes lanes_of(const Profile& profile);
// The share of lanes active per warp instruction over every kernel of the
// profile: control divergence as the hardware counts it. -1 without a kernel.
double lane_share(const Profile& profile);
// A build's share set at the reference's work: the reference's busy thread
// instructions over those plus the build's idle lane slots. For the
// reference it is lane_share; unlike lane_share, work every lane does (an
// integer division per element) cannot raise it, only idle lanes lower it.
double share_at_work(const Lanes& mine, const Lanes& reference);
// The two metrics lanes_of reads, comma-separated (ncu --metrics).
extern const char* const kLaneMetrics;

// The report for one function on n elements: per kernel and in total, warp
// instructions, active lanes per warp instruction, FADDs against the
// textbook's count, shared-memory bank conflicts, DRAM bytes against 8n.
std::string counters_report(const std::string& function, std::size_t n, const Profile& profile);
nlohmann::json counters_json(const std::string& function, std::size_t n, const Profile& profile);

}  // namespace bench
