#include "check.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "device.hpp"
#include "finding_place.hpp"
#include "generator.hpp"
#include "lab.hpp"
#include "observe.hpp"
#include "score.hpp"

namespace harness {
namespace {

using nlohmann::json;

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

json read_json(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    return json::parse(in);
}

struct Row {
    std::string name;
    double score = 0, weight = 0;
    bool gradable = true;
    std::string how;  // one line, then detail lines
    json fields = json::object();  // the numbers behind `how` (the divergence row's)
};

// The public datasets through the grader's rules: verdicts, and the safety
// checks' first findings.
struct Datasets {
    std::size_t scored = 0, passed = 0;
    std::map<std::string, finding::Finding> first_finding;  // category -> the first finding of it
    std::string failures;                                   // a line per failing dataset
    double gate() const { return scored ? static_cast<double>(passed) / static_cast<double>(scored) : 0; }
};

Datasets run_datasets(const std::vector<datasets::Entry>& entries) {
    Datasets d;
    bool lost = false;
    for (const LabFunction& fn : lab_functions())
        for (const auto& entry : entries) {
            const std::vector<float> input = datasets::generate(entry.spec);
            const bool scored = !score::trivial(input, fn.spec);
            d.scored += scored;
            const std::string what = fn.name + " on " + entry.cls + " " + datasets::describe(entry.spec) +
                                     (scored ? "" : " (no points: the answer equals the input)");
            if (lost) {
                d.failures += "    FAIL  " + what + ": not run, the device context was lost earlier\n";
                continue;
            }
            const Observation seen = observe(fn, input);
            lost = seen.sticky;
            std::string why;
            for (const Check& c : judge(input, seen, fn.spec, datasets::is_exact(entry.spec.dist), fn.name))
                if (!c.ok && !score::safety_rule(c.rule) && why.empty())
                    why = c.rule + ": " + c.message.substr(0, c.message.find('\n'));
            for (const auto& f : seen.findings) {
                d.first_finding.emplace(f.kind, f);
                if (why.empty() && f.undefined) why = "undefined behaviour, so its values prove nothing";
            }
            if (seen.leaked_bytes)
                d.first_finding.emplace("leak", finding::leak(seen.leaked_bytes, seen.leaked_allocations, fn.name));
            if (why.empty()) d.passed += scored;
            else d.failures += "    FAIL  " + what + ": " + why + "\n";
        }
    return d;
}

Row safety_row(const Datasets& d, double weight, bool emulator) {
    Row r{"safety", 0, weight, true, ""};
    int clean = 0;
    std::string detail;
    for (const char* category : score::kCategories) {
        const auto it = d.first_finding.find(category);
        if (it == d.first_finding.end()) {
            ++clean;
            continue;
        }
        // The finding as an editor's diagnostic lines, under its category.
        detail += "    " + std::string(category) + ":\n";
        for (const std::string& line : finding::diagnostic(it->second, std::string("labs/") + kLab.id))
            detail += "      " + line.substr(0, line.find('\n')) + "\n";
    }
    r.score = weight * d.gate() * clean / 4.0;
    r.how = std::to_string(clean) + " of 4 checks clean (race, barrier, memory, leak)" +
            (emulator ? "" : "; this build checks leaks only, the grader adds compute-sanitizer's checks") + "\n" + detail;
    return r;
}

Row divergence_row(const json& targets, const json& reference, double gate, std::vector<std::string>& mismatches) {
    const json& rule = targets.at("divergence");
    Row r{"divergence", 0, targets.at("weights").at("divergence").get<double>(), true, ""};
    if (!device::trace_divergence(true)) {
        r.gradable = false;
        r.how = "not measured here: the emulator measures it (-Dscan_backend=emu)\n";
        return r;
    }
    if (gate == 0) {
        r.how = "not run: no dataset came out right\n";
        return r;
    }
    const datasets::Spec spec = score::divergence_spec(rule.at("n").get<std::size_t>());
    const std::vector<float> input = datasets::generate(spec);
    const double full = rule.at("full_within").get<double>(), zero = rule.at("zero_below").get<double>();
    double total = 0;
    const auto functions = lab_functions();
    json parts = json::array();
    for (const LabFunction& fn : functions) {
        const Observation seen = observe(fn, input);
        bool right = seen.error.empty();
        for (const Check& c : judge(input, seen, fn.spec, true, fn.name))
            right = right && (c.ok || score::safety_rule(c.rule));
        if (!right || seen.divergence.empty()) {
            const std::string why = right ? "no warp ran" : "wrong outputs";
            r.how += "    " + fn.name + ": not scored: " + why + " on " + datasets::describe(spec) + "\n";
            parts.push_back({{"function", fn.name}, {"not_scored", why}});
            continue;
        }
        const json& ref = reference.at(fn.name);
        const double got = simt_efficiency(seen.divergence);
        const double target = ref.at("simt_efficiency").get<double>();
        if (std::fabs(got - target) > 0.0005)
            mismatches.push_back(fn.name + " SIMT efficiency " + fixed(got, 4) + ", targets.json " + fixed(target, 4));
        const DivergentWarps warps = divergent_warps(seen.divergence), ref_warps = ref.at("divergent_warps");
        if (warps != ref_warps)
            mismatches.push_back(fn.name + " divergent_warps " + json(warps).dump() + ", targets.json " +
                                 ref.at("divergent_warps").dump());
        const double part = score::divergence_part(got, target, full, zero);
        total += part;
        r.how += "    " + fn.name + ": " + score::divergence_line(got, target, datasets::describe(spec), full, zero) + "\n";
        std::string why;
        const std::string cause = divergence_cause(fn.name, seen.divergence, ref_warps, &why);
        if (!cause.empty()) r.how += "      " + cause + ": " + why + "\n";
        parts.push_back({{"function", fn.name}, {"efficiency", got}, {"reference", target}, {"part", part}, {"cause", cause}});
    }
    r.fields = {{"level", total / static_cast<double>(functions.size())}, {"full_within", full}, {"zero_below", zero},
                {"dataset", datasets::describe(spec)}, {"functions", parts}};
    r.score = r.weight * gate * total / static_cast<double>(functions.size());
    r.how = fixed(100 * total / static_cast<double>(functions.size()), 0) + "% of the reference's level (full points within " +
            fixed(full * 100, 0) + " points of it, none " + fixed(zero * 100, 0) + " points below)\n" + r.how;
    return r;
}

// scan-bench's median ms of `role` for `function` at size n in its JSON; 0 where absent.
double bench_ms(const json& bench, const std::string& function, const std::string& role, std::size_t n) {
    for (const json& result : bench.at("results"))
        if (result.at("function") == function)
            for (const json& size : result.at("sizes"))
                if (size.at("n").get<std::size_t>() == n)
                    for (const json& c : size.at("candidates"))
                        if (c.at("role") == role) return c.at("ms").at("median").get<double>();
    return 0;
}

Row timing_row(const json& targets, const json& reference, double gate, const std::string& timing_json) {
    const json& rule = targets.at("timing");
    Row r{"timing", 0, targets.at("weights").at("timing").get<double>(), true, ""};
    if (timing_json.empty()) {
        r.gradable = false;
        r.how = "not measured here: needs a GPU (./scan-labs check times it with scan-bench where one is usable)\n";
        return r;
    }
    if (gate == 0) {
        r.how = "not scored: no dataset came out right\n";
        return r;
    }
    const json bench = read_json(timing_json);
    const std::size_t n = rule.at("n").get<std::size_t>();
    const auto functions = lab_functions();
    double total = 0;
    for (const LabFunction& fn : functions) {
        const double mine = bench_ms(bench, fn.name, "module", n), copy = bench_ms(bench, fn.name, "copy", n);
        if (!(mine > 0 && copy > 0)) {
            r.how += "    " + fn.name + ": not scored: scan-bench's JSON has no time of it at n=" + std::to_string(n) + "\n";
            continue;
        }
        if (const std::string impossible = score::impossible_time(mine, copy); !impossible.empty()) {
            r.how += "    " + fn.name + ": not scored: " + impossible + "\n";
            continue;
        }
        const double ref = reference.at(fn.name).at("time_over_copy").get<double>();
        const double ratio = mine / copy / ref;
        total += score::timing_part(ratio, rule.at("full_within").get<double>(), rule.at("zero_at").get<double>(),
                                    rule.at("ratio_step").get<double>());
        r.how += "    " + fn.name + ": " + fixed(mine / copy, 2) + "x the time of a copy of its bytes here; the reference's " +
                 fixed(ref, 2) + "x on " + rule.at("measured_on").get<std::string>() + ": about " + fixed(ratio, 2) +
                 "x the reference's time\n";
    }
    r.score = r.weight * gate * total / static_cast<double>(functions.size());
    r.how = "an estimate: the grader times it against the reference on its own GPU (full points within " +
            fixed(rule.at("full_within").get<double>(), 2) + "x, none from " + fixed(rule.at("zero_at").get<double>(), 2) +
            "x)\n" + r.how;
    return r;
}

// One row, framed for a suite's output (shown, not tested), as if every
// dataset were right; `row` computes it from targets.json.
template <class RowOf>
Preview preview(const char* what, const std::string& targets_path, RowOf row) {
    const std::string head = "lab " + std::string(kLab.id) + ": the grader's " + what + " target";
    try {
        const json targets = read_json(targets_path);
        const Row r = row(targets, targets.at("reference").at(kLab.id));
        json fields = {{"score", r.score}, {"points", r.weight}};
        fields.update(r.fields);
        return {head + " (shown, not tested; ./scan-labs check gives the whole table):\n  " + fixed(r.score, 2) + " of " +
                    fixed(r.weight, 0) + " points if every dataset is right: " + r.how,
                fields};
    } catch (const std::exception& e) {
        return {head + ": not shown: " + e.what() + "\n", {{"error", e.what()}}};
    }
}

}  // namespace

Preview divergence_preview(const std::string& targets_path) {
    if (!device::trace_divergence(false)) return {};
    Preview target = preview("divergence", targets_path, [](const json& targets, const json& reference) {
        std::vector<std::string> unused;
        return divergence_row(targets, reference, 1.0, unused);
    });
    device::trace_divergence(false);
    return target;
}

std::string timing_preview(const std::string& targets_path, const std::string& timing_json) {
    const Preview row = preview("timing", targets_path, [&](const json& targets, const json& reference) {
        return timing_row(targets, reference, 1.0, timing_json);
    });
    return row.text;
}

int run_check(const std::vector<datasets::Entry>& entries, const CheckOptions& options) {
    json targets;
    try {
        targets = read_json(options.targets);
        targets.at("reference").at(kLab.id);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "--check: cannot read the targets (%s): %s\n", options.targets.c_str(), e.what());
        return 2;
    }
    const json& reference = targets.at("reference").at(kLab.id);
    const json& weights = targets.at("weights");
    const device::Availability dev = device::probe();
    const bool emulator = device::trace_divergence(false);  // only the emulator can trace; off until its run
    std::printf("check %s: the grader's table on this lab's %zu public datasets, on %s\n", kLab.id, entries.size(),
                dev.description.c_str());
    std::vector<Row> rows;
    std::vector<std::string> mismatches;
    try {
        if (options.verify) {  // the suites prove the reference right; this checks only the shipped figures
            rows.push_back(divergence_row(targets, reference, 1.0, mismatches));
        } else {
            const Datasets d = run_datasets(entries);
            const double gate = d.gate();
            rows.push_back({"correctness", weights.at("correctness").get<double>() * gate,
                            weights.at("correctness").get<double>(), true,
                            std::to_string(d.passed) + " of " + std::to_string(d.scored) +
                                " scored datasets right (the grader adds hidden ones)\n" + d.failures});
            rows.push_back(safety_row(d, weights.at("safety").get<double>(), emulator));
            rows.push_back(divergence_row(targets, reference, gate, mismatches));
            rows.push_back(timing_row(targets, reference, gate, options.timing_json));
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "--check: %s\n", e.what());
        return 2;
    }
    double score = 0, most = 0;
    bool partial = false;
    for (const Row& r : rows) {
        const std::string first = r.how.substr(0, r.how.find('\n'));
        std::printf("  %-12s %6s / %-3s %s\n%s", r.name.c_str(), r.gradable ? fixed(r.score, 2).c_str() : "-",
                    fixed(r.weight, 0).c_str(), first.c_str(), r.how.substr(first.size() + 1).c_str());
        if (r.gradable) {
            score += r.score;
            most += r.weight;
        } else partial = true;
    }
    std::printf("  %-12s %6s / %-3s %s\n", "total", fixed(score, 2).c_str(), fixed(most, 0).c_str(),
                partial ? "(what this machine can measure; the grader adds hidden datasets)"
                        : "(the grader adds hidden datasets)");
    if (options.verify) {
        for (const auto& m : mismatches) std::printf("MISMATCH %s\n", m.c_str());
        if (!mismatches.empty()) return 1;
        std::printf("the reference's divergence figures match labs/targets.json\n");
        return 0;
    }
    // As a failing test fails `meson test`: a script or a workflow sees a lab
    // short of full points without reading the table.
    if (score < most - 0.005) {
        std::printf("  short of full points on what this machine measures: exit status 1\n");
        return 1;
    }
    return 0;
}

}  // namespace harness
