#include "grader/grading/scorers.hpp"

#include <set>

#include "finding_place.hpp"
#include "grader/outputs/outputs.hpp"
#include "score.hpp"

namespace grader {

Component score_safety(const Context& ctx, LabState& state, LabResult& out) {
    const double weight = ctx.rubric.weights_of(state.lab->id).safety;
    std::string text;
    int clean = 0;
    for (const char* category : score::kCategories) {
        const auto it = state.findings.find(category);
        if (it == state.findings.end()) {
            ++clean;
            text += std::string("ok    no ") + category + " findings\n";
        } else {
            // Each problem once (the same race on other datasets is noted for
            // its other blocks), as an editor's diagnostic lines (finding_place.hpp).
            text += std::string("FAIL  ") + category + " findings:\n";
            std::set<std::string> shown;
            for (const auto& f : it->second)
                if (shown.insert(finding::problem_key(f)).second)
                    for (const std::string& line : finding::diagnostic(f, "labs/" + state.lab->id)) text += "  " + line + "\n";
        }
    }
    if (!state.gpu_hung.empty()) text += "compute-sanitizer not run on " + hung_runs(state) + ": it timed out on the GPU\n";
    if (state.emu_off >= 0)
        text += "the emulator's checks: not run: " + simt::summarize("scan.cu", state.limits) +
                " is beyond the CPU emulator; compute-sanitizer's on the GPU are scored\n";
    const double score = weight * state.gate * clean / 4.0;
    // With no dataset right the emulator's findings are still shown; compute-sanitizer did not run.
    std::string note = skip_reason(state, false);
    if (note.empty()) note = std::to_string(clean) + " of 4 checks clean (race, barrier, memory, leak)";
    if (state.gate > 0 && state.gate < 1) note += ", scaled by correctness " + fixed(state.gate * 100, 0) + "%";
    out.tests.push_back(make_test(state.lab->id, *state.lab, "safety", "safety", score, weight, note + "\n" + text));
    return {"safety", score, weight, true, note};
}

}  // namespace grader
