// `labNN-tests --check`: the table the grader would give this lab on the
// public datasets and this machine (correctness, safety, divergence, and
// timing where scan-bench timed it on a GPU), scored with the grader's own
// arithmetic (score.hpp) against the rubric and the reference's figures in
// labs/targets.json. A student's preview: it never fails a test.
#pragma once

#include <string>
#include <vector>

#include "manifest.hpp"

namespace harness {

struct CheckOptions {
    std::string targets;      // labs/targets.json
    std::string timing_json;  // scan-bench --json of this lab at the rubric's timing size; "" without a GPU
    bool verify = false;      // the kit's test: only the divergence run, its figures those of targets.json
};

// For the suites: the divergence row alone, a few lines ending in a newline
// ("" off the emulator, which alone measures divergence).
std::string divergence_preview(const std::string& targets_path);

// For `./scan-labs test` on a GPU: the timing row alone, from scan-bench's
// JSON, as the grader would score it were every dataset right.
std::string timing_preview(const std::string& targets_path, const std::string& timing_json);

// Prints the table; returns 0, or 2 where targets.json cannot be read, or
// (verify) 1 where this build's SIMT efficiencies differ from targets.json's.
int run_check(const std::vector<datasets::Entry>& entries, const CheckOptions& options);

}  // namespace harness
