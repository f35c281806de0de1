// Grading one submission: every lab built, run on the public and hidden
// datasets in contained processes, judged by the grader against answers it
// computed itself, and scored by the rubric.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "report.hpp"
#include "rubric.hpp"
#include "sandbox.hpp"
#include "submission.hpp"
#include "workspace.hpp"

namespace grader {

struct Context {
    Rubric rubric;
    std::string kit;    // the kit's source tree (with reference/)
    std::string work;   // the grader's work folder: builds, scratch
    std::vector<std::string> backends;  // "emu" always; "cuda" too with a usable GPU
    std::string device;                 // what runs the cuda backend, or why there is none
    Sandbox sandbox;
    std::vector<std::string> labs;  // lab ids to grade
    std::mutex gpu;                 // GPU timing and sanitizer runs never overlap
    std::function<void(const std::string&)> progress;  // one line per step, may be empty
};

// The per-backend workspaces of one grading slot (a batch worker owns one).
struct Slot {
    std::vector<std::unique_ptr<Workspace>> workspaces;
};
Slot make_slot(Context& ctx, unsigned index);

Report grade(Context& ctx, Slot& slot, const Submission& submission);

// "emu", "cuda" or "emu+cuda": the backends a report names.
std::string backend_names(const Context& ctx);

// A lab that scores nothing (not submitted, rejected, not compiling, or the
// whole submission unreadable): every component zero, gradable as the
// context's backends make it, and one test named `test` carrying `output`.
LabResult zero_lab(const Context& ctx, const catalog::Lab& lab, const std::string& test, const std::string& note,
                   const std::string& output);

}  // namespace grader
