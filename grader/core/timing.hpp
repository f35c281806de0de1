// The timing component's arithmetic: what scan-bench's JSON says of one
// student-against-reference run, and the points a ratio earns.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "grader/core/rubric.hpp"

namespace grader {

// The ratio as scored: rounded to the rubric's ratio_step, so noise well
// inside a step cannot move the points.
double rounded_ratio(const Rubric& rubric, double ratio);
// Full points (1) within full_within, none from zero_at, linear between.
double timing_part(const Rubric& rubric, double ratio);

// What scan-bench wrote for one function run --against the reference: the
// per-round ratio's summary, both medians, and CUB's and the copy's medians
// where it timed them in the same rounds (0 where it did not).
struct Timed {
    double median = 0, p10 = 0, p90 = 0, ci_low = 0, ci_high = 0, mine_ms = 0, ref_ms = 0, cub_ms = 0, copy_ms = 0;
    std::size_t rounds = 0;
    std::size_t checked_calls = 0;  // --grading: the student's calls, each on a fresh input, whose outputs were all checked
    std::string problem;            // --grading: why the time is not scored (a wrong output, a time under the copy's)
};

// Throws std::exception on anything but the expected fields with finite,
// positive times: the file was written by a process that ran student code.
// A run with a problem needs no times. Without one, a time under the copy's
// is a problem too (the roofline floor, score::impossible_time), whatever the file says.
Timed read_timing(const std::string& path);
Timed parse_timing(std::string_view json);  // the same, of the JSON text (a frame of the result channel)

// Where a `scan-bench --plan` process stopped: it sends every function's
// outputs in plan order, then every function's timing (its JSON) in plan
// order, so the first function missing its outputs, or else the first
// missing its JSON, is the one it failed on; none when every frame came.
// `has(k, json)`: whether plan line k's outputs (false) or JSON (true) came.
std::optional<std::size_t> plan_stopped_at(std::size_t lines, const std::function<bool(std::size_t, bool)>& has);

}  // namespace grader
