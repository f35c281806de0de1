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
    bool verify = false;      // the kit's test: the reference's figures in targets.json are this build's
};

// For the suites: the divergence row alone, a few lines ending in a newline
// ("" off the emulator, which alone measures divergence).
std::string divergence_preview(const std::string& targets_path);

// Prints the table; returns 0, or 2 where targets.json cannot be read, or
// (verify) 1 where this build's figures differ from targets.json's.
int run_check(const std::vector<datasets::Entry>& entries, const CheckOptions& options);

}  // namespace harness
