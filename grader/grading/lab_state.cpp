#include "grader/grading/lab_state.hpp"

#include <algorithm>

#include "grader/core/files.hpp"
#include "score.hpp"

namespace grader {

// The first few findings of a category; one the list holds already, but for
// how many blocks showed it (the emulator counts them per dataset), is not
// news, so another tool's finding still gets shown.
void note_finding(LabState& state, const Finding& finding) { finding::note(state.findings[finding.kind], finding, 3); }

namespace {

// A withheld unit's failure says only that it failed.
void withhold(const Unit& unit, const std::string& on, Verdict& v) {
    if (!unit.withheld) return;
    if (!v.feedback.empty()) v.feedback = "FAIL  " + unit.what + on + "\n";
    v.undefined.clear();
    for (auto& f : v.findings) f = finding::withheld(f, unit.what);
    if (v.problems.empty()) return;
    harness::Problem p;
    p.severity = std::min_element(v.problems.begin(), v.problems.end(), [](const auto& a, const auto& b) {
                     return a.severity < b.severity;
                 })->severity;
    p.key = "withheld|" + unit.function;  // the hidden datasets' problems are told apart only after publication
    p.title = unit.function + " fails on a hidden dataset (details shown after grades are published)";
    v.problems = {p};
}

Verdict judge_run_in_full(const Unit& unit, const std::string& on, const Run& r) {
    Verdict v;
    if (!r.ok) {
        v.timed_out = r.timed_out;
        v.feedback = "FAIL  " + unit.what + on + ": " + r.problem + "\n";
        v.problems = {harness::failed_run(unit.function, r.problem)};
        return v;
    }
    // The run in the emulator's default block order, then (when it made one)
    // the run with the blocks reversed: both must be right.
    const auto judge_one = [&](const harness::Observation& seen, const std::string& order) {
        v.findings.insert(v.findings.end(), seen.findings.begin(), seen.findings.end());
        if (seen.leaked_bytes)
            v.findings.push_back(finding::leak(seen.leaked_bytes, seen.leaked_allocations, unit.function));
        std::string why;
        const auto checks = harness::judge(*unit.input, seen, unit.fn->spec, datasets::is_exact(unit.spec.dist), unit.function);
        for (harness::Problem& p : harness::problems_of(checks, seen, unit.function, ""))
            v.problems.push_back(std::move(p));
        for (const auto& c : checks)
            if (!c.ok && !score::safety_rule(c.rule))
                why += c.rule + ": " + c.message + "\n";  // safety findings are scored apart
        std::vector<Finding> undefined;
        for (const auto& f : seen.findings)
            if (f.undefined) undefined.push_back(f);
        if (why.empty() && undefined.empty()) return true;
        v.feedback = "FAIL  " + unit.what + on + (order.empty() ? "" : "; " + order) + "\n" + first_lines(why, 24);
        v.undefined = std::move(undefined);
        return false;
    };
    v.passed = judge_one(r.seen, r.reversed ? r.seen.block_order : "") &&
               (!r.reversed || judge_one(*r.reversed, r.reversed->block_order + ": a GPU may run blocks in any order"));
    return v;
}

}  // namespace

Verdict judge_run(const Unit& unit, const std::string& on, const Run& r) {
    Verdict v = judge_run_in_full(unit, on, r);
    withhold(unit, on, v);
    return v;
}

Verdict not_run(const Unit& unit, const std::string& on, const std::string& why) {
    Verdict v;
    v.feedback = "FAIL  " + unit.what + on + ": not run, " + why + "\n";
    v.problems = {harness::failed_run(unit.function, "not run, " + why)};
    withhold(unit, on, v);
    return v;
}

std::string on_label(const Context& ctx, const std::string& backend) {
    return ctx.backends.size() > 1 ? " [" + backend + "]" : "";
}

std::string hung_runs(const LabState& state) {
    std::string out;
    for (const auto& [function, what] : state.gpu_hung)
        out += (out.empty() ? "" : "; ") + function + " on " + what;
    return out;
}

TestResult make_test(const std::string& lab, const catalog::Lab& info, const std::string& component,
                     const std::string& name, double score, double max, const std::string& output) {
    TestResult t;
    t.lab = lab;
    t.component = component;
    t.name = info.suite + " " + name;
    t.score = score;
    t.max_score = max;
    t.status = score >= max - 1e-9 ? Status::Passed : Status::Failed;
    t.output = output;
    return t;
}

bool worth_running(const LabState& state, std::size_t backend, bool gpu) {
    if (gpu && state.gpu_hung.size() == state.lab->functions.size()) return false;
    for (const Unit& u : state.units)
        if (u.scored && u.on[backend].passed && !u.on[backend].skipped) return true;
    return false;
}

std::string skip_reason(const LabState& state, bool gpu_work) {
    if (state.gate <= 0) return "not scored: no dataset came out right, and this component is scaled by correctness";
    if (gpu_work && state.gpu_hung.size() == state.lab->functions.size())
        return "not run on the GPU: " + hung_runs(state) + " timed out there (a hung kernel costs its function's later GPU work)";
    return "";
}

}  // namespace grader
