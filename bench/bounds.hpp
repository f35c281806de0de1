// The sanity bounds of a graded timing: what the reference's worker measured
// before any process of the submission was started (bench/worker.hpp), and
// the times no right scan can have. A time outside them is flagged, not scored.
#pragma once

#include <string>

namespace bench {

struct Alone {
    double copy_ms = 0;     // the device-to-device copy of the same bytes
    double against_ms = 0;  // the build timed against (0: none)
};

// The share of the reference's recorded time under which no build's time is
// believed (the reference's builds take 2x to 3.7x the copy's time at 2^24
// elements on an H100, bench/results/2026-11-24-h100.md), and the slowdown
// of the reference or the copy beside the submission's worker, against
// alone, taken as a sign that the submission loaded the GPU while they ran.
constexpr double kBelowReference = 0.25;
constexpr double kSlowerBeside = 1.25;

// Why the module's median time `mine_ms` is not scored, or "": `copy_ms`
// and `against_ms` are the copy's and the reference's medians in the same
// alternated rounds (0 where not timed).
std::string doubt(const Alone& alone, double mine_ms, double copy_ms, double against_ms);

}  // namespace bench
