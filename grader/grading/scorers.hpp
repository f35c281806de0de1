// One scorer per component, each from what the pipeline gathered in a
// LabState (no process runs here): correctness from the units' verdicts,
// safety from the findings, divergence from the emulator's traces against
// the reference's, timing from scan-bench's ratios. Each adds its tests to
// the lab's result and returns its component; correctness, scored first,
// sets the gate that scales the others.
#pragma once

#include "grader/grading/context.hpp"
#include "grader/grading/lab_state.hpp"

namespace grader {

void score_correctness(const Context& ctx, LabState& state);
Component score_safety(const Context& ctx, LabState& state, LabResult& out);
Component score_divergence(const Context& ctx, LabState& state, LabResult& out);
Component score_timing(const Context& ctx, LabState& state, LabResult& out);

}  // namespace grader
