#include "grader/grading/scorers.hpp"

#include <algorithm>
#include <set>

#include "finding_place.hpp"

namespace grader {

namespace {

// The findings that left a failed run's values proving nothing: each
// problem (finding::problem_key: the same on every dataset) in full once, as
// an editor's diagnostic lines (finding_place.hpp), then by its title.
std::string undefined_text(const std::vector<Finding>& found, const std::string& folder, std::set<std::string>& shown) {
    std::string out;
    for (const Finding& f : found) {
        const std::string why = "undefined behaviour, so these values prove nothing:";
        if (!shown.insert(finding::problem_key(f)).second) {
            out += why + " " + finding::title(f) + " (shown in full above)\n";
            continue;
        }
        out += why + "\n";
        for (const std::string& line : finding::diagnostic(f, folder)) out += "  " + line + "\n";
    }
    return out;
}

}  // namespace

// Correctness from the units' verdicts: one test per class (and function),
// points per scored dataset; the findings noted in the units' order.
void score_correctness(const Context& ctx, LabState& state) {
    const catalog::Lab& lab = *state.lab;
    LabResult& out = state.out;
    const Weights& w = ctx.rubric.weights_of(lab.id);
    std::size_t scored = 0, passed = 0;
    for (auto& u : state.units) {
        u.passed = true;
        for (std::size_t b = 0; b < u.on.size(); ++b) {
            if (static_cast<int>(b) == state.emu_off) continue;
            const Verdict& v = u.on[b];
            u.passed = u.passed && v.passed;
            for (const auto& f : v.findings) note_finding(state, f);
        }
        scored += u.scored;
        passed += u.scored && u.passed;
    }
    state.gate = scored ? static_cast<double>(passed) / static_cast<double>(scored) : 0;
    // What to fix first, by the suites' own triage: each unit one dataset,
    // its problems on every backend that judged it.
    harness::Triage triage;
    for (const auto& u : state.units) {
        std::vector<harness::Problem> problems;
        for (std::size_t b = 0; b < u.on.size(); ++b)
            if (static_cast<int>(b) != state.emu_off && !u.on[b].skipped)
                problems.insert(problems.end(), u.on[b].problems.begin(), u.on[b].problems.end());
        triage.add(u.function, u.what, problems);
    }
    out.fix_first = triage.fix_first();
    std::vector<std::pair<std::string, std::string>> groups;
    for (const auto& u : state.units)
        if (std::find(groups.begin(), groups.end(), std::make_pair(u.cls, u.function)) == groups.end()) groups.push_back({u.cls, u.function});
    // In the tests' order, so that a problem shown in full is above its later mentions.
    std::set<std::string> shown;
    for (const auto& [cls, function] : groups) {
        std::size_t g_scored = 0, g_passed = 0;
        double seconds = 0;  // its datasets' measured runs (Verdict::seconds)
        std::string text;
        bool hidden_group = false;
        for (auto& u : state.units)
            if (u.cls == cls && u.function == function) {
                g_scored += u.scored;
                g_passed += u.scored && u.passed;
                hidden_group = u.hidden;
                for (const Verdict& v : u.on) seconds += v.seconds;
                u.feedback = u.passed ? "ok    " + u.what + "\n" : "";
                for (std::size_t b = 0; b < u.on.size() && !u.passed; ++b)
                    if (static_cast<int>(b) != state.emu_off)
                        u.feedback += u.on[b].feedback + undefined_text(u.on[b].undefined, "labs/" + lab.id, shown);
                text += u.feedback;
            }
        if (state.emu_spared)
            text = "emulator: the datasets above " + std::to_string(ctx.rubric.emulator_max_n(state.lab->id)) +
                   " elements that the GPU failed were not run again on it\n" + text;
        if (state.emu_skipped)
            text = "emulator: the datasets of up to " + std::to_string(ctx.rubric.emulator_max_n(state.lab->id)) +
                   " elements, which found nothing, and one larger one, chosen by the course's secret; the GPU ran "
                   "every larger one\n" + text;
        if (!state.block_order.empty())
            text = "emulator: " + state.block_order + "; again in reverse order where a launch ran more than one block\n" + text;
        const double unit = scored ? w.correctness / static_cast<double>(scored) : 0;
        TestResult t = make_test(lab.id, lab, "correctness",
                                 "correctness: " + cls + (lab.functions.size() > 1 ? ", " + function : ""),
                                 unit * static_cast<double>(g_passed), unit * static_cast<double>(g_scored), text);
        t.hidden = hidden_group;
        t.seconds = seconds;
        out.tests.push_back(t);
    }
    out.components.push_back({"correctness", w.correctness * state.gate, w.correctness, true,
                              std::to_string(passed) + " of " + std::to_string(scored) + " datasets right"});
}

}  // namespace grader
