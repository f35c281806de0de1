#include "grader/grading/scorers.hpp"

#include "grader/core/files.hpp"
#include "grader/outputs/outputs.hpp"
#include "score.hpp"

namespace grader {

Component score_timing(const Context& ctx, LabState& state, LabResult& out) {
    const Rubric& rubric = ctx.rubric;
    const double weight = rubric.weights_of(state.lab->id).timing;
    if (backend_index(ctx, "cuda") < 0) {
        const std::string why = "not gradable here: " + ctx.device;
        TestResult t = make_test(state.lab->id, *state.lab, "timing", "timing", 0, 0, why);
        if (rubric.no_gpu_full_timing) {
            t.score = weight * state.gate;
            t.max_score = weight;
            t.output = why + "; full points by the rubric's no_gpu policy" +
                       (state.gate < 1 ? ", scaled by correctness " + fixed(state.gate * 100, 0) + "%" : "");
            t.status = state.gate >= 1 ? Status::Passed : Status::Failed;
            out.tests.push_back(t);
            return {"timing", t.score, weight, true, "full points without a GPU (rubric: no_gpu = full)"};
        }
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"timing", 0, weight, false, why};
    }
    std::string why = skip_reason(state, true);
    if (why.empty() && !state.timing_ran) why = "not run: no dataset came out right on the GPU";
    if (!why.empty()) {
        out.tests.push_back(make_test(state.lab->id, *state.lab, "timing", "timing", 0, weight, why));
        return {"timing", 0, weight, true, why};
    }
    double total = 0;
    std::string text;
    for (std::size_t f = 0; f < state.lab->functions.size(); ++f) {
        const std::string& name = state.lab->functions[f].name;
        const std::string& problem = state.timings[f].problem;
        const Timed& t = state.timings[f].timed;
        if (!problem.empty()) {
            text += name + ": not scored: " + problem + "\n";
            continue;
        }
        total += timing_part(rubric, t.median);
        out.timing.push_back({name, rubric.timing_text(), t});
        text += name + ": " + fixed(t.median, 3) + "x the reference's time (" + fixed(t.mine_ms, 4) + " ms against " +
                fixed(t.ref_ms, 4) + " ms" + (t.cub_ms > 0 ? "; CUB's scan " + fixed(t.cub_ms, 4) + " ms" : "") +
                "), median of " + std::to_string(t.rounds) + " alternated rounds (" + std::to_string(t.checked_calls) +
                " calls, each on a new input, every output checked), p10-p90 " +
                fixed(t.p10, 3) + "-" + fixed(t.p90, 3) + ", 95% CI of the median " + fixed(t.ci_low, 3) + "-" +
                fixed(t.ci_high, 3) + "; scored as " + fixed(rounded_ratio(rubric, t.median), 2) + "x on " +
                rubric.timing_text() + "; full points within " + fixed(rubric.timing_full_within, 2) + "x, none from " +
                fixed(rubric.timing_zero_at, 2) + "x\n";
    }
    const double score = weight * state.gate * total / static_cast<double>(state.lab->functions.size());
    std::string note = text.empty() ? "" : first_lines(text, 1);
    note = note.substr(0, note.find('\n'));
    out.tests.push_back(make_test(state.lab->id, *state.lab, "timing", "timing", score, weight, text));
    return {"timing", score, weight, true, note};
}

}  // namespace grader
