#include "grade.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "catalog.hpp"
#include "files.hpp"
#include "generator.hpp"
#include "manifest.hpp"
#include "observation.hpp"
#include "outputs.hpp"
#include "sanitizer.hpp"
#include "timing.hpp"

namespace fs = std::filesystem;

namespace grader {
namespace {

const char* const kCategories[] = {"race", "barrier", "memory", "leak"};

std::string category_of(const std::string& finding) {
    if (finding.rfind("data race", 0) == 0) return "race";
    if (finding.rfind("barrier divergence", 0) == 0) return "barrier";
    return "memory";  // out-of-bounds, uninitialized reads, host memory, the rest
}

// Findings after which a run's values prove nothing: undefined behaviour the
// hardware may turn into a hang or into other values.
bool undefined_behaviour(const std::string& finding) {
    const std::string c = category_of(finding);
    return c == "barrier" || (c == "memory" && finding.find("uninitialized") == std::string::npos);
}

std::string first_lines(const std::string& text, int lines) {
    std::size_t at = 0;
    for (int i = 0; i < lines && at != std::string::npos; ++i) at = text.find('\n', at + 1);
    return at == std::string::npos ? text : text.substr(0, at + 1) + "[...]\n";
}

// A runner's run: the observation it wrote, or why there is none.
struct Run {
    bool ok = false;
    bool timed_out = false;
    std::string problem;
    std::string output;  // what the process printed (kept to the limit), for tools whose reports are read
    harness::Observation seen;
};

void write_input(const std::string& path, const std::vector<float>& values) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
    if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

// Runs `program` (a runner, maybe under compute-sanitizer) on `input` in the
// workspace's scratch folder.
Run run_runner(const Context& ctx, const std::string& scratch, std::vector<std::string> program,
               const std::string& function, const std::vector<float>& input, double timeout_s, bool contained,
               std::vector<std::string> extra = {}) {
    const std::string in = scratch + "/input.bin", out = scratch + "/observation.bin";
    fs::remove(out);
    write_input(in, input);
    program.insert(program.end(), {"--function", function, "--input", in, "--output", out});
    program.insert(program.end(), extra.begin(), extra.end());
    // The runner's build folder (scratch's parent) stays readable under the hidden work folder.
    const Outcome o = run_contained(program, scratch, {scratch}, Limits{timeout_s}, contained ? ctx.sandbox : Sandbox{},
                                    {fs::path(scratch).parent_path().string()});
    Run r;
    r.timed_out = o.timed_out;
    r.output = o.output;
    if (!o.ok()) {
        r.problem = "the test program " + o.describe() +
                    (o.timed_out ? " (a kernel that never finishes: is a __syncthreads() or a loop bound wrong?)" : "") +
                    (o.output.empty() ? "" : "; its output:\n" + first_lines(o.output, 20));
        if (o.exit_code == 77) r.problem = "no usable GPU: " + o.output;
        return r;
    }
    try {
        r.seen = harness::read_observation(out);
        if (r.seen.n != input.size()) throw std::runtime_error("the result file is for another input");
        r.ok = true;
    } catch (const std::exception& e) {
        r.problem = std::string("the test program exited without a valid result (") + e.what() + ")";
    }
    return r;
}

double run_timeout(const Context& ctx, const std::string& backend, std::size_t n) {
    const double per_million = backend == "cuda" ? ctx.rubric.gpu_per_million_s : ctx.rubric.run_per_million_s;
    return ctx.rubric.run_base_s + per_million * static_cast<double>(n) / 1e6;
}

// One function on one dataset, on every backend.
struct Unit {
    std::string cls, function;
    datasets::Spec spec;
    bool hidden = false, scored = true, passed = false;
    std::string feedback;
};

struct LabState {
    const catalog::Lab* lab;
    std::vector<Unit> units;
    std::map<std::string, std::vector<std::string>> findings;  // category -> findings, first few
    unsigned timeouts = 0;
    double seconds = 0;
};

// Expected output equal to the input (n <= 1 for inclusive scans): a copy of
// the input passes, so it carries no points.
bool trivial(const std::vector<float>& in, const datasets::ScanSpec& spec) {
    const std::vector<double> expected = datasets::reference_scan(in, spec);
    for (std::size_t i = 0; i < in.size(); ++i)
        if (expected[i] != in[i]) return false;
    return true;
}

// The first few findings of a category; one the list holds already, but for
// how many more blocks showed it (the emulator counts them per dataset), is
// not news, so another tool's finding still gets shown.
void note_finding(LabState& state, const std::string& category, const std::string& finding) {
    static const std::regex blocks(R"( \(and [0-9]+ more blocks?\))");
    auto& list = state.findings[category];
    const std::string key = std::regex_replace(finding, blocks, "");
    for (const auto& f : list)
        if (std::regex_replace(f, blocks, "") == key) return;
    if (list.size() < 3) list.push_back(finding);
}

void run_unit(Context& ctx, Slot& slot, LabState& state, Unit& unit) {
    const std::vector<float> input = datasets::generate(unit.spec);
    const auto& fn = *std::find_if(state.lab->functions.begin(), state.lab->functions.end(),
                                   [&](const catalog::Function& f) { return f.name == unit.function; });
    unit.scored = !trivial(input, fn.spec);
    const std::string what = (unit.hidden ? "hidden " : "") + datasets::describe(unit.spec) +
                             (unit.scored ? "" : " (no points: the answer equals the input)");
    if (state.timeouts >= ctx.rubric.give_up_after) {
        unit.feedback = "FAIL  " + what + ": not run, after " + std::to_string(state.timeouts) + " timeouts in this lab\n";
        return;
    }
    unit.passed = true;
    for (auto& ws : slot.workspaces) {
        const Run r = run_runner(ctx, ws->scratch(), {ws->runner(*state.lab)}, unit.function, input,
                                 run_timeout(ctx, ws->backend(), input.size()), true);
        const std::string on = ctx.backends.size() > 1 ? " [" + ws->backend() + "]" : "";
        if (!r.ok) {
            state.timeouts += r.timed_out;
            unit.passed = false;
            unit.feedback += "FAIL  " + what + on + ": " + r.problem + "\n";
            continue;
        }
        for (const auto& f : r.seen.findings) note_finding(state, category_of(f), f);
        if (r.seen.leaked_bytes)
            note_finding(state, "leak", std::to_string(r.seen.leaked_bytes) + " bytes in " +
                                            std::to_string(r.seen.leaked_allocations) + " allocation(s) still live after " +
                                            unit.function + " returned (cudaFree every temporary)");
        std::string why;
        for (const auto& c : harness::judge(input, r.seen, fn.spec, datasets::is_exact(unit.spec.dist), unit.function))
            if (!c.ok && c.rule != "backend_checks_clean" && c.rule != "temporaries_freed")
                why += c.rule + ": " + c.message + "\n";  // safety findings are scored apart
        for (const auto& f : r.seen.findings)
            if (undefined_behaviour(f)) why += "undefined behaviour, so these values prove nothing: " + f + "\n";
        if (!why.empty()) {
            unit.passed = false;
            unit.feedback += "FAIL  " + what + on + "\n" + first_lines(why, 24);
        }
    }
    if (unit.passed) unit.feedback = "ok    " + what + "\n";
}

// The slot's workspace for `backend`; nullptr when it is not graded on it.
Workspace* workspace_for(Slot& slot, const std::string& backend) {
    for (auto& ws : slot.workspaces)
        if (ws->backend() == backend) return ws.get();
    return nullptr;
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

// compute-sanitizer on the GPU at a small n, each tool on each function,
// its reports read into findings of the emulator's categories.
void sanitize(Context& ctx, Slot& slot, LabState& state) {
    Workspace* cuda = workspace_for(slot, "cuda");
    if (!cuda) return;
    const std::vector<float> input = datasets::generate({datasets::Distribution::Walk4, ctx.rubric.sanitizer_n, 4242});
    std::lock_guard<std::mutex> lock(ctx.gpu);
    for (const auto& tool : ctx.rubric.sanitizer_tools)
        for (const auto& fn : state.lab->functions) {
            std::vector<std::string> program = {"compute-sanitizer", "--tool", tool, "--error-exitcode", "99",
                                                "--print-limit", "8"};
            if (tool == "memcheck") program.insert(program.end(), {"--leak-check", "full"});
            program.push_back(cuda->runner(*state.lab));
            const Run r = run_runner(ctx, cuda->scratch(), program, fn.name, input, ctx.rubric.sanitizer_timeout_s, true);
            if (r.ok) continue;
            const std::string on = " (compute-sanitizer " + tool + " on " + fn.name + ")";
            if (r.timed_out) {  // a kernel that never finishes under the tool: threads wait at a barrier forever
                note_finding(state, "barrier", "deadlock: " + fn.name + " did not finish in " +
                                                   fixed(ctx.rubric.sanitizer_timeout_s, 0) +
                                                   " s; is a __syncthreads() inside a loop or branch some threads leave?" + on);
                continue;
            }
            const std::vector<Finding> found = parse_sanitizer(tool, r.output);
            for (const auto& f : found) note_finding(state, f.category, f.text);
            if (found.empty()) {  // the tool failed the run, but in words the grader does not know
                const std::string category = tool == "racecheck" ? "race" : tool == "synccheck" ? "barrier" : "memory";
                note_finding(state, category, "the run failed: " + r.problem + on);
            }
        }
}

Component score_safety(const Context& ctx, LabState& state, LabResult& out, double gate) {
    const double weight = ctx.rubric.weights_of(state.lab->id).safety;
    std::string text;
    int clean = 0;
    for (const char* category : kCategories) {
        const auto it = state.findings.find(category);
        if (it == state.findings.end()) {
            ++clean;
            text += std::string("ok    no ") + category + " findings\n";
        } else
            for (const auto& f : it->second) text += "FAIL  " + f + "\n";
    }
    const double score = weight * gate * clean / 4.0;
    std::string note = std::to_string(clean) + " of 4 checks clean (race, barrier, memory, leak)";
    if (gate < 1) note += ", scaled by correctness " + fixed(gate * 100, 0) + "%";
    out.tests.push_back(make_test(state.lab->id, *state.lab, "safety", "safety", score, weight, note + "\n" + text));
    return {"safety", score, weight, true, note};
}

Component score_divergence(Context& ctx, Slot& slot, LabState& state, LabResult& out, double gate) {
    const double weight = ctx.rubric.weights_of(state.lab->id).divergence;
    Workspace* emu = workspace_for(slot, "emu");
    if (!emu) {  // --backend cuda: the metric is the emulator's
        TestResult t = make_test(state.lab->id, *state.lab, "divergence", "control divergence", 0, 0,
                                 "not gradable here: control divergence is measured by the emulator (--backend auto)");
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"divergence", 0, weight, false, "needs the emulator"};
    }
    const datasets::Spec spec{datasets::Distribution::Walk4, ctx.rubric.divergence_n, 4343};
    const std::vector<float> input = datasets::generate(spec);
    double total = 0;
    std::string text;
    const std::string reference =
        reference_build(ctx.work, ctx.kit, "emu", "labs/" + state.lab->suite + "-run", ctx.rubric.build_timeout_s);
    const double timeout = run_timeout(ctx, "emu", spec.n);
    for (const auto& fn : state.lab->functions) {
        const Run mine = run_runner(ctx, emu->scratch(), {emu->runner(*state.lab)}, fn.name, input, timeout, true, {"--divergence"});
        const Run ref = run_runner(ctx, emu->scratch(), {reference}, fn.name, input, timeout, false, {"--divergence"});
        if (!ref.ok) throw std::runtime_error("the reference's divergence run failed: " + ref.problem);
        // For report.html's maps (none of a run without a valid result).
        out.divergence.push_back({fn.name, datasets::describe(spec), {}, ref.seen.divergence});
        if (mine.ok) out.divergence.back().mine = mine.seen.divergence;
        const double target = harness::simt_efficiency(ref.seen.divergence);
        bool right = mine.ok;
        if (right)
            for (const auto& c : harness::judge(input, mine.seen, fn.spec, true, fn.name))
                right = right && (c.ok || c.rule == "backend_checks_clean" || c.rule == "temporaries_freed");
        if (!right) {
            text += fn.name + ": not scored: wrong or no outputs on " + datasets::describe(spec) + "\n";
            continue;
        }
        const double got = harness::simt_efficiency(mine.seen.divergence);
        const double part = std::clamp((got - (target - ctx.rubric.divergence_zero_below)) /
                                           (ctx.rubric.divergence_zero_below - ctx.rubric.divergence_full_within),
                                       0.0, 1.0);
        total += part;
        text += fn.name + ": SIMT efficiency " + fixed(got * 100, 1) + "% against the reference's " +
                fixed(target * 100, 1) + "% on " + datasets::describe(spec) + " (full points within " +
                fixed(ctx.rubric.divergence_full_within * 100, 0) + " points, none " +
                fixed(ctx.rubric.divergence_zero_below * 100, 0) + " points below)\n";
        for (const auto& d : mine.seen.divergence) text += first_lines(d.report, 8);
    }
    const double score = weight * gate * total / static_cast<double>(state.lab->functions.size());
    std::string note = fixed(100 * total / static_cast<double>(state.lab->functions.size()), 0) + "% of the reference's level";
    if (gate < 1) note += ", scaled by correctness " + fixed(gate * 100, 0) + "%";
    out.tests.push_back(make_test(state.lab->id, *state.lab, "divergence", "control divergence", score, weight, note + "\n" + text));
    return {"divergence", score, weight, true, note};
}

Component score_timing(Context& ctx, Slot& slot, LabState& state, LabResult& out, double gate) {
    const Rubric& rubric = ctx.rubric;
    const double weight = rubric.weights_of(state.lab->id).timing;
    Workspace* cuda = workspace_for(slot, "cuda");
    if (!cuda) {
        const std::string why = "not gradable here: " + ctx.device;
        TestResult t = make_test(state.lab->id, *state.lab, "timing", "timing", 0, 0, why);
        if (rubric.no_gpu_full_timing) {
            t.score = t.max_score = weight;
            t.output = why + "; full points by the rubric's no_gpu policy";
            t.status = Status::Passed;
            out.tests.push_back(t);
            return {"timing", weight, weight, true, "full points without a GPU (rubric: no_gpu = full)"};
        }
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"timing", 0, weight, false, why};
    }
    // scan-bench from the reference's build loads both builds' modules and
    // alternates them in one process (bench/README.md), with CUB's scan and a
    // copy in the same rounds for the HTML report's chart.
    const datasets::Spec spec{datasets::Distribution::Walk4, rubric.timing_n, 4444};
    const std::string bench = reference_build(ctx.work, ctx.kit, "cuda", "bench/scan-bench", rubric.build_timeout_s);
    const std::string reference =
        reference_build(ctx.work, ctx.kit, "cuda", "labs/" + state.lab->suite + "-scan.so", rubric.build_timeout_s);
    const std::string scratch = cuda->scratch(), json_path = scratch + "/timing.json", seen_path = scratch + "/timing.bin";
    std::vector<float> input;
    double total = 0;
    std::string text;
    std::lock_guard<std::mutex> lock(ctx.gpu);
    for (const auto& fn : state.lab->functions) {
        fs::remove(json_path);
        fs::remove(seen_path);
        const std::vector<std::string> command = {
            bench, "--lab", state.lab->id, "--function", fn.name, "--module", cuda->module(*state.lab), "--against",
            reference, "--sizes", std::to_string(spec.n), "--seed", std::to_string(spec.seed),
            "--min-rounds", std::to_string(rubric.timing_min_rounds), "--max-rounds", std::to_string(rubric.timing_max_rounds),
            "--rel-ci", fixed(rubric.timing_rel_ci, 6), "--max-seconds", fixed(rubric.timing_max_seconds, 3),
            "--json", json_path, "--observe", seen_path};
        const double timeout = 2 * rubric.timing_max_seconds + run_timeout(ctx, "cuda", spec.n) + 30;
        const Outcome o = run_contained(command, scratch, {scratch}, Limits{timeout}, ctx.sandbox,
                                        {cuda->build_dir(), fs::path(bench).parent_path().parent_path().string()});
        std::string problem;
        Timed t;
        if (!o.ok()) {
            problem = "the timing program " + o.describe() + (o.output.empty() ? "" : "; its output:\n" + first_lines(o.output, 12));
        } else {
            try {
                t = read_timing(json_path);
                if (input.empty()) input = datasets::generate(spec);
                const harness::Observation seen = harness::read_observation(seen_path);
                if (seen.n != spec.n) throw std::runtime_error("the outputs are for another input");
                for (const auto& c : harness::judge(input, seen, fn.spec, true, fn.name))
                    if (!c.ok && problem.empty()) problem = "wrong outputs on the timing dataset: " + first_lines(c.message, 3);
            } catch (const std::exception& e) {
                problem = std::string("the timing program left no valid result (") + e.what() + ")";
            }
        }
        if (!problem.empty()) {
            text += fn.name + ": not scored: " + problem + "\n";
            continue;
        }
        total += timing_part(rubric, t.median);
        out.timing.push_back({fn.name, datasets::describe(spec), t});
        text += fn.name + ": " + fixed(t.median, 3) + "x the reference's time (" + fixed(t.mine_ms, 4) + " ms against " +
                fixed(t.ref_ms, 4) + " ms" + (t.cub_ms > 0 ? "; CUB's scan " + fixed(t.cub_ms, 4) + " ms" : "") +
                "), median of " + std::to_string(t.rounds) + " alternated rounds, p10-p90 " +
                fixed(t.p10, 3) + "-" + fixed(t.p90, 3) + ", 95% CI of the median " + fixed(t.ci_low, 3) + "-" +
                fixed(t.ci_high, 3) + "; scored as " + fixed(rounded_ratio(rubric, t.median), 2) + "x on " +
                datasets::describe(spec) + "; full points within " + fixed(rubric.timing_full_within, 2) + "x, none from " +
                fixed(rubric.timing_zero_at, 2) + "x\n";
    }
    const double score = weight * gate * total / static_cast<double>(state.lab->functions.size());
    std::string note = text.empty() ? "" : first_lines(text, 1);
    note = note.substr(0, note.find('\n'));
    out.tests.push_back(make_test(state.lab->id, *state.lab, "timing", "timing", score, weight, text));
    return {"timing", score, weight, true, note};
}

LabResult grade_lab(Context& ctx, Slot& slot, const Submission& sub, const catalog::Lab& lab) {
    LabResult out;
    out.lab = lab.id;
    const Weights& w = ctx.rubric.weights_of(lab.id);
    const auto fail_whole = [&](const std::string& name, const std::string& note, const std::string& output) {
        LabResult zero = zero_lab(ctx, lab, name, note, output);
        zero.submitted = out.submitted;
        return zero;
    };
    const auto file = sub.files.find(lab.id);
    if (file == sub.files.end())
        return fail_whole("submitted", "not submitted: no labs/" + lab.id + "/scan.cu",
                          "No labs/" + lab.id + "/scan.cu in the submission (accepted layouts: " + kLayouts + ").");
    out.submitted = true;
    const std::string source = read_file(file->second);
    if (const std::string broken = source_policy(source); !broken.empty())
        return fail_whole("build", "rejected by the source rules", "Not built: " + broken + "\n");
    for (auto& ws : slot.workspaces) {
        if (ctx.progress) ctx.progress(sub.name + ": " + lab.suite + ": building (" + ws->backend() + ")");
        const BuildResult b = ws->build(lab, file->second, ctx.sandbox);
        if (!b.ok) return fail_whole("build", "does not compile (" + ws->backend() + ")", "Compile errors:\n" + b.errors);
    }
    out.built = true;
    out.source = source;

    LabState state{&lab, {}, {}, 0, 0};
    for (const auto& entry : datasets::read_manifest(ctx.kit + "/datasets/manifest/" + lab.suite + ".txt"))
        for (const auto& fn : lab.functions) state.units.push_back({entry.cls, fn.name, entry.spec, false, true, false, ""});
    const auto hidden = ctx.rubric.hidden.find(lab.id);
    if (hidden != ctx.rubric.hidden.end())
        for (const auto& spec : hidden->second)
            for (const auto& fn : lab.functions) state.units.push_back({"hidden", fn.name, spec, true, true, false, ""});
    for (std::size_t i = 0; i < state.units.size(); ++i) {
        if (ctx.progress) ctx.progress(sub.name + ": " + lab.suite + ": dataset " + std::to_string(i + 1) + "/" + std::to_string(state.units.size()));
        run_unit(ctx, slot, state, state.units[i]);
    }

    // Correctness: one test per class (and function), points per scored dataset.
    std::size_t scored = 0, passed = 0;
    for (const auto& u : state.units) {
        scored += u.scored;
        passed += u.scored && u.passed;
    }
    const double gate = scored ? static_cast<double>(passed) / static_cast<double>(scored) : 0;
    std::vector<std::pair<std::string, std::string>> groups;
    for (const auto& u : state.units)
        if (std::find(groups.begin(), groups.end(), std::make_pair(u.cls, u.function)) == groups.end()) groups.push_back({u.cls, u.function});
    for (const auto& [cls, function] : groups) {
        std::size_t g_scored = 0, g_passed = 0;
        std::string text;
        bool hidden_group = false;
        for (const auto& u : state.units)
            if (u.cls == cls && u.function == function) {
                g_scored += u.scored;
                g_passed += u.scored && u.passed;
                hidden_group = u.hidden;
                text += u.feedback;
            }
        const double unit = scored ? w.correctness / static_cast<double>(scored) : 0;
        TestResult t = make_test(lab.id, lab, "correctness",
                                 "correctness: " + cls + (lab.functions.size() > 1 ? ", " + function : ""),
                                 unit * static_cast<double>(g_passed), unit * static_cast<double>(g_scored), text);
        t.hidden = hidden_group;
        out.tests.push_back(t);
    }
    out.components.push_back({"correctness", w.correctness * gate, w.correctness, true,
                              std::to_string(passed) + " of " + std::to_string(scored) + " datasets right"});
    if (ctx.progress) ctx.progress(sub.name + ": " + lab.suite + ": safety, divergence, timing");
    sanitize(ctx, slot, state);
    for (const auto& [category, list] : state.findings)
        for (const auto& f : list) out.findings.push_back({category, f});
    out.components.push_back(score_safety(ctx, state, out, gate));
    out.components.push_back(score_divergence(ctx, slot, state, out, gate));
    out.components.push_back(score_timing(ctx, slot, state, out, gate));
    return out;
}

}  // namespace

std::string backend_names(const Context& ctx) {
    std::string names;
    for (const auto& b : ctx.backends) names += (names.empty() ? "" : "+") + b;
    return names;
}

LabResult zero_lab(const Context& ctx, const catalog::Lab& lab, const std::string& test, const std::string& note,
                   const std::string& output) {
    const Weights& w = ctx.rubric.weights_of(lab.id);
    const bool has_cuda = std::find(ctx.backends.begin(), ctx.backends.end(), "cuda") != ctx.backends.end();
    const bool has_emu = std::find(ctx.backends.begin(), ctx.backends.end(), "emu") != ctx.backends.end();
    const bool timing_counts = has_cuda || ctx.rubric.no_gpu_full_timing;
    LabResult out;
    out.lab = lab.id;
    out.note = note;
    out.components = {{"correctness", 0, w.correctness, true, note},
                      {"safety", 0, w.safety, true, note},
                      {"divergence", 0, w.divergence, has_emu, note},
                      {"timing", 0, w.timing, timing_counts, note}};
    double max = 0;
    for (const auto& c : out.components) max += c.gradable ? c.max_score : 0;
    out.tests.push_back(make_test(lab.id, lab, "build", test, 0, max, output));
    return out;
}

Slot make_slot(Context& ctx, unsigned index) {
    Slot slot;
    for (const auto& backend : ctx.backends)
        slot.workspaces.push_back(std::make_unique<Workspace>(ctx.work + "/slot" + std::to_string(index) + "-" + backend,
                                                              ctx.kit, backend, ctx.rubric.build_timeout_s));
    return slot;
}

Report grade(Context& ctx, Slot& slot, const Submission& sub) {
    Report report;
    report.submission = sub.name;
    report.backend = backend_names(ctx);
    report.device = ctx.device;
    report.sandboxed = ctx.sandbox.enabled;
    report.notes.push_back(ctx.sandbox.enabled ? "sandbox: bubblewrap (no network, read-only file system, hidden reference)"
                                               : "no sandbox was used: " + ctx.sandbox.why);
    if (!sub.ignored.empty()) {
        std::string list;
        for (std::size_t i = 0; i < sub.ignored.size() && i < 8; ++i) list += (i ? ", " : "") + sub.ignored[i];
        if (sub.ignored.size() > 8) list += " and " + std::to_string(sub.ignored.size() - 8) + " more";
        report.notes.push_back("ignored (only each lab's scan.cu is graded): " + list);
    }
    for (const auto& id : ctx.labs) {
        const catalog::Lab& lab = *catalog::find(id);
        try {
            report.labs.push_back(grade_lab(ctx, slot, sub, lab));
        } catch (const std::exception& e) {  // the grader's own trouble: say so, never score it as the student's
            throw std::runtime_error(lab.id + ": " + e.what());
        }
    }
    return report;
}

}  // namespace grader
