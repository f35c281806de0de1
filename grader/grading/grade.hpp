// Grading one submission: every lab built, run on the public and hidden
// datasets in contained processes, judged by the grader against answers it
// computed itself, and scored by the rubric. The parts: schedule.hpp (cores,
// GPU locks), executor.hpp (what builds and runs), pipeline.hpp (the runs of
// each lab), scorers.hpp (one per component), lab_state.hpp (what they share).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "grader/core/report.hpp"
#include "grader/grading/context.hpp"
#include "grader/grading/executor.hpp"
#include "grader/intake/submission.hpp"

namespace grader {

// Thrown by grade() when the grader is stopping (stop_children()): what it
// had graded of the submission is not a result.
struct Stopped : std::runtime_error {
    Stopped() : std::runtime_error("stopped before the grading finished") {}
};
// Slot `index` of a batch: its own workspaces, and a GPU of ctx.gpus by turns.
Slot make_slot(Context& ctx, unsigned index);

Report grade(Context& ctx, Slot& slot, const Submission& submission);

// "emu", "cuda" or "emu+cuda": the backends a report names.
std::string backend_names(const Context& ctx);

// A lab that scores nothing (not submitted, rejected, not compiling, or the
// whole submission unreadable): every component zero, gradable as the
// context's backends make it, and one test named `test` carrying `output`.
LabResult zero_lab(const Context& ctx, const catalog::Lab& lab, const std::string& test, const std::string& note,
                   const std::string& output);

// A lab the emulator cannot run (its limits), graded where no GPU is: no
// component gradable here, "needs a GPU to grade", never zero.
LabResult needs_gpu_lab(const Context& ctx, const catalog::Lab& lab, const std::vector<simt::Limit>& limits);

}  // namespace grader
