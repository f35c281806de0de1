#include "grader/grading/scorers.hpp"

#include <stdexcept>

#include "grader/outputs/outputs.hpp"
#include "score.hpp"

namespace grader {

namespace {

// The component from its functions' parts (`total` of one per function),
// scaled by correctness. Its note heads the test's output: the level, where
// it was measured, and the likely cause where points were lost.
Component divergence_component(const LabState& state, LabResult& out, double weight, double total, const std::string& where,
                               const std::string& cause, const std::string& text) {
    const auto functions = static_cast<double>(state.lab->functions.size());
    const double score = weight * state.gate * total / functions;
    std::string note = fixed(100 * total / functions, 0) + "% of the reference's level" + where;
    if (state.gate < 1) note += ", scaled by correctness " + fixed(state.gate * 100, 0) + "%";
    if (!cause.empty() && total < functions) note += "; " + cause;
    out.tests.push_back(make_test(state.lab->id, *state.lab, "divergence", "control divergence", score, weight, note + "\n" + text));
    return {"divergence", score, weight, true, note};
}

std::string lane_slots(double n) {
    return n >= 1e6 ? fixed(n / 1e6, 2) + " million" : fixed(n, 0);
}

// Where the emulator cannot run the lab: the GPU's counters on the same
// input, the reference's share of lanes active per warp instruction against
// the submission's set at the reference's work (its idle lanes count, its
// extra uniform work does not), scored by the emulator's rule
// (score::divergence_part).
Component score_gpu_divergence(const Context& ctx, LabState& state, LabResult& out, double weight) {
    const datasets::Spec spec = score::divergence_spec(ctx.rubric.divergence_n);
    const std::string on = datasets::describe(spec);
    double total = 0;
    std::string text;
    for (std::size_t f = 0; f < state.lab->functions.size(); ++f) {
        const std::string& name = state.lab->functions[f].name;
        const GpuDivergence& d = state.gpu_divergence.at(f);
        if (!d.problem.empty()) {
            text += name + ": not scored: " + d.problem + "\n";
            continue;
        }
        total += score::divergence_part(d.mine, d.reference, ctx.rubric.divergence_full_within, ctx.rubric.divergence_zero_below);
        text += name + ": " +
                score::divergence_line(d.mine, d.reference, on, ctx.rubric.divergence_full_within,
                                       ctx.rubric.divergence_zero_below) +
                " (lanes active per warp instruction, measured on the GPU by Nsight Compute: " + lane_slots(d.idle_mine) +
                " lane slots left idle against the reference's " + lane_slots(d.idle_reference) +
                "; the emulator cannot run " + simt::summarize("scan.cu", state.limits) + ")\n";
    }
    return divergence_component(state, out, weight, total, ", on the GPU", "", text);
}

}  // namespace

Component score_divergence(const Context& ctx, LabState& state, LabResult& out) {
    const double weight = ctx.rubric.weights_of(state.lab->id).divergence;
    if (backend_index(ctx, "emu") < 0) {  // --backend cuda: the metric is the emulator's
        TestResult t = make_test(state.lab->id, *state.lab, "divergence", "control divergence", 0, 0,
                                 "not gradable here: control divergence is measured by the emulator (--backend auto)");
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"divergence", 0, weight, false, "needs the emulator"};
    }
    if (state.emu_off >= 0 && !state.gpu_divergence.empty()) return score_gpu_divergence(ctx, state, out, weight);
    if (state.emu_off >= 0) {
        const std::string why = "not run: " + simt::summarize("scan.cu", state.limits) +
                                " is beyond the CPU emulator, which measures control divergence";
        TestResult t = make_test(state.lab->id, *state.lab, "divergence", "control divergence", 0, 0, why);
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"divergence", 0, weight, false, why};
    }
    std::string why = skip_reason(state, false);
    if (why.empty() && !state.divergence_ran) why = "not run: no dataset came out right on the emulator";
    if (!why.empty()) {
        out.tests.push_back(make_test(state.lab->id, *state.lab, "divergence", "control divergence", 0, weight, why));
        return {"divergence", 0, weight, true, why};
    }
    const datasets::Spec spec = score::divergence_spec(ctx.rubric.divergence_n);
    const std::vector<float>& input = *ctx.datasets.get(spec);
    double total = 0;
    std::string text, cause;  // cause: the last recognised one, for the one-line note
    for (std::size_t f = 0; f < state.lab->functions.size(); ++f) {
        const catalog::Function& fn = state.lab->functions[f];
        const auto& [mine, ref] = state.divergence[f];
        if (!ref.ok) throw std::runtime_error("the reference's divergence run failed: " + ref.problem);
        // For report.html's maps (none of a run without a valid result).
        out.divergence.push_back({fn.name, datasets::describe(spec), {}, ref.seen.divergence, ""});
        if (mine.ok) out.divergence.back().mine = mine.seen.divergence;
        const double target = harness::simt_efficiency(ref.seen.divergence);
        bool right = mine.ok;
        if (right)
            for (const auto& c : harness::judge(input, mine.seen, fn.spec, true, fn.name))
                right = right && (c.ok || score::safety_rule(c.rule));
        if (!right) {
            out.divergence.back().not_scored = "not scored: wrong or no outputs on " + datasets::describe(spec);
            text += fn.name + ": " + out.divergence.back().not_scored + "\n";
            continue;
        }
        if (mine.seen.divergence.empty()) {  // an efficiency of no warp at all is no efficiency
            out.divergence.back().not_scored = "not scored: no kernel ran on " + datasets::describe(spec);
            text += fn.name + ": " + out.divergence.back().not_scored + "\n";
            continue;
        }
        const double got = harness::simt_efficiency(mine.seen.divergence);
        const double part =
            score::divergence_part(got, target, ctx.rubric.divergence_full_within, ctx.rubric.divergence_zero_below);
        total += part;
        text += fn.name + ": " +
                score::divergence_line(got, target, datasets::describe(spec), ctx.rubric.divergence_full_within,
                                       ctx.rubric.divergence_zero_below) +
                "\n";
        std::string why;
        const harness::DivergentWarps ref_warps = harness::divergent_warps(ref.seen.divergence);
        if (const std::string found = harness::divergence_cause(fn.name, mine.seen.divergence, ref_warps, &why);
            !found.empty()) {
            cause = found;
            text += "  " + cause + ": " + why + "\n";
        }
        // Where it diverges beyond the reference: the lines a student can act on.
        for (std::size_t l = 0; l < mine.seen.divergence.size(); ++l)
            text += harness::report_beyond(mine.seen.divergence[l], l < ref_warps.size() ? ref_warps[l] : std::vector<unsigned>{}, 6);
    }
    return divergence_component(state, out, weight, total, "", cause, text);
}

}  // namespace grader
