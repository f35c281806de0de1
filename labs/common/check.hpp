// `labNN-tests --check`: the table the grader would give this lab on the
// public datasets and this machine (correctness, safety, divergence, and
// timing where scan-bench timed it on a GPU), scored with the grader's own
// arithmetic (score.hpp) against the rubric and the reference's figures in
// labs/targets.json. A student's preview: it never fails a test.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest.hpp"

namespace harness {

struct CheckOptions {
    std::string targets;      // labs/targets.json
    std::string timing_json;  // scan-bench --json of this lab at the rubric's timing size; "" without a GPU
    bool verify = false;      // the kit's test: only the divergence run, its figures those of targets.json
};

// A row of the table alone, for a person and as data.
struct Preview {
    std::string text;       // a few lines ending in a newline
    nlohmann::json fields;  // its numbers (null where there is no row; {"error": why} where it is not shown)
};

// For the suites: the divergence row alone (text "" off the emulator, which
// alone measures divergence). Its fields: score and points (what the row
// would give and its weight), level (the functions' mean part of the points,
// 0 to 1), full_within and zero_below (the rubric's, as fractions), the
// dataset, and per function its efficiency, the reference's and its part
// (or why it was not scored) and the likely cause of a gap ("" where none).
Preview divergence_preview(const std::string& targets_path);

// For `./scan-labs test` on a GPU: the timing row alone, from scan-bench's
// JSON, as the grader would score it were every dataset right.
std::string timing_preview(const std::string& targets_path, const std::string& timing_json);

// Prints the table; returns 0, or 2 where targets.json cannot be read, or
// (verify) 1 where this build's SIMT efficiencies differ from targets.json's.
int run_check(const std::vector<datasets::Entry>& entries, const CheckOptions& options);

}  // namespace harness
