// Runs a lab function over the selected public datasets with the suite's
// checks: right answers (compare.hpp), input unchanged, nothing written past
// the end, every output written, no device memory left allocated.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "manifest.hpp"
#include "scan_spec.hpp"

namespace harness {

// Each lab's test file defines this: the path of its public manifest.
extern const char* const kDefaultManifest;

using ScanFunction = std::function<void(const float* d_in, float* d_out, std::size_t n)>;

struct LabFunction {
    std::string name;  // as in scan.hpp, for messages
    datasets::ScanSpec spec;
    ScanFunction run;
};

// Elements after n in both buffers, checked to be left as they were.
constexpr std::size_t kGuard = 64;

// The datasets chosen on the command line (main.cpp).
const std::vector<datasets::Entry>& selected();
void select(std::vector<datasets::Entry> entries);

// Instead of the manifest's datasets, run on these values (--input).
void use_values(std::vector<float> values);

// Runs `fn` on every selected dataset (or the --input values), one doctest
// check per rule.
void check_function(const LabFunction& fn);

}  // namespace harness
