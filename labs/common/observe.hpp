// Runs a lab function on the device: the one place that uploads, calls,
// checks for errors and downloads, for the suite and for the grader's runner.
#pragma once

#include <vector>

#include "lab.hpp"
#include "observation.hpp"

namespace harness {

// One call of fn on `input` (n values; the guard is added here). A device
// error is caught and recorded in the observation, not thrown. (Timing is
// scan-bench's: bench/README.md.)
Observation observe(const LabFunction& fn, const std::vector<float>& input);

}  // namespace harness
