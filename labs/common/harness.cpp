#include "harness.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>

#include "check.hpp"
#include "compare.hpp"
#include "device.hpp"
#include "generator.hpp"
#include "observe.hpp"
#include "lab_reporter.hpp"
#include "results.hpp"
#include "triage.hpp"

namespace harness {
namespace {

std::vector<datasets::Entry> g_selected;
std::optional<std::vector<float>> g_values;  // --input
bool g_device_lost = false;  // a sticky error ended every later device call
bool g_target_always = false;  // --divergence
bool g_details = false;      // --details: every failed check of every dataset in full, as doctest reports it
std::string g_details_path;  // --details-file: every check of every dataset in full, written there
std::ofstream g_details_file;
Triage g_triage;
results::Recorder g_results;  // --results-file

// Integer values small enough that every partial sum is exact in float32.
bool exact_values(const std::vector<float>& values) {
    double total = 0;
    for (float x : values) {
        if (x != std::floor(x)) return false;
        total += std::fabs(x);
    }
    return total < (1 << 24);
}

// --divergence: each barrier interval's line of a kernel's report once, for
// the first dataset that showed it (a line per dataset of the same warps and
// source lines buried the few that differ); "kernel\nline" -> that dataset.
std::map<std::string, std::string> g_intervals_shown;

std::string fold_shown_intervals(const KernelDivergence& d, const std::string& dataset) {
    const ReportParts& parts = d.report;
    std::string out = parts.head;
    std::set<std::string> earlier;  // the datasets that showed the lines left out
    std::size_t repeated = 0;
    for (const auto& [interval, line] : parts.intervals) {
        const auto [at, fresh] = g_intervals_shown.emplace(d.kernel + "\n" + line, dataset);
        if (fresh) {
            out += line;
        } else {
            ++repeated;
            earlier.insert(at->second);
        }
    }
    if (repeated)
        out += "  (and " + std::to_string(repeated) + " interval(s) as shown above for " +
               (earlier.size() == 1 ? *earlier.begin() : "earlier datasets") + ")\n";
    return out + parts.lanes;
}

std::string list(const std::vector<float>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < 64; ++i) out += " " + compare::format_value(v[i]);
    return v.size() > 64 ? out + " ..." : out;
}

// A failed check in full: its rule, then its message, where the findings it
// stands for (the emulator's, a leak) are their diagnostic lines
// (Problem::full, for an editor to take the student to the line): those of
// `problems` with its rule.
std::string in_full(const Check& c, const std::vector<Problem>& problems) {
    std::string text;
    for (const Problem& p : problems)
        if (p.rule == c.rule) text += "\n  " + p.full;
    if (c.rule != "backend_checks_clean") return c.rule + ": " + (text.empty() ? c.message : text.substr(3));
    return c.rule + ": " + c.message.substr(0, c.message.find('\n')) + text;
}

// "  ok    WHAT" / "  FAIL  WHAT" and, for each failed check, "    RULE: MESSAGE"
// (its later lines indented too): the details file's record of one dataset.
void write_details(const std::string& what, const std::vector<Check>& checks, const std::vector<Problem>& problems) {
    if (!g_details_file.is_open()) return;
    bool ok = true;
    std::string failed;
    for (const Check& c : checks) {
        if (c.ok) continue;
        ok = false;
        failed += "    ";
        for (const char ch : in_full(c, problems)) failed += ch == '\n' ? std::string("\n      ") : std::string(1, ch);
        failed += "\n";
    }
    g_details_file << (ok ? "  ok    " : "  FAIL  ") << what << "\n" << failed << std::flush;
}

// Runs one dataset, the manifest's `entry` or (null) the --input values;
// returns false when the device is no longer usable.
bool check_dataset(const LabFunction& fn, const std::string& dataset, const datasets::Entry* entry) {
    const std::vector<float> in = entry ? datasets::generate(entry->spec) : *g_values;
    const bool exact = entry ? datasets::is_exact(entry->spec.dist) : exact_values(*g_values);
    const std::string name = fn.name + " on " + dataset;
    const std::string what = name + " (" + datasets::describe(fn.spec) + ")";
    // A failure's first line names the function and the dataset
    // (lab_reporter.hpp), not the harness line that reports it.
    const auto fail = [&](const std::string& text) { ADD_FAIL_CHECK_AT(name.c_str(), kNoLine, text); };
    const Observation seen = observe(fn, in);
    const std::vector<Check> checks = judge(in, seen, fn.spec, exact, fn.name);
    const std::vector<Problem> problems = problems_of(checks, seen, fn.name, std::string("labs/") + kLab.id);
    const std::vector<Problem> fresh = g_triage.add(fn.name, dataset, problems);
    write_details(what, checks, problems);
    g_results.dataset(fn.name, dataset, entry, in.size(), checks, seen, problems);
    std::set<std::string> shown;  // the keys of the problems shown in full here
    for (const Check& c : checks) {
        if (c.ok) {
            CHECK_MESSAGE(c.ok, c.rule);  // counted among doctest's assertions
            continue;
        }
        if (g_details) {
            fail(in_full(c, problems));
            continue;
        }
        // Only what no earlier dataset showed, in full: a rule's message, or
        // the emulator's findings that are new, the others counted.
        std::vector<Problem> news;
        std::size_t repeated = 0;
        for (const Problem& p : problems) {
            if (p.rule != c.rule) continue;
            if (std::none_of(fresh.begin(), fresh.end(), [&](const Problem& f) { return f.key == p.key; }))
                ++repeated;
            else if (shown.insert(p.key).second)  // (another finding of this dataset with its key: the same problem)
                news.push_back(p);
        }
        if (news.empty()) continue;
        std::string text = in_full(c, news);
        if (repeated && c.rule == "backend_checks_clean")
            text += "\n  (and " + std::to_string(repeated) + " more, shown in full on an earlier dataset)";
        fail(text);
    }
    if (problems.empty())
        std::printf("  ok    %s\n", what.c_str());
    else if (g_details)
        std::printf("  FAIL  %s\n", what.c_str());
    else
        std::printf("  FAIL  %s\n", fail_line(name, problems).c_str());
    if (g_values) {
        const std::vector<float> out(seen.out.begin(), seen.out.begin() + static_cast<std::ptrdiff_t>(seen.n));
        std::printf("    in: %s\n   out: %s\n", list(in).c_str(), list(out).c_str());
    }
    g_triage.add_divergence(fn.name, dataset, seen.divergence);
    for (const auto& d : seen.divergence) std::printf("%s", fold_shown_intervals(d, dataset).c_str());
    std::printf("%s", device::take_shared_trace().c_str());
    if (seen.sticky) {
        const std::string lost = "the device context is lost after this error; the remaining datasets of this run are "
                                 "not tested";
        fail(lost);
        if (g_details_file.is_open()) g_details_file << "    " << lost << "\n" << std::flush;
    }
    // Each dataset's lines out now (doctest's too: std::cout shares stdout's
    // buffer): a program that dies later does not lose them.
    std::fflush(stdout);
    return !seen.sticky;
}

void check_function(const LabFunction& fn) {
    if (g_device_lost) {
        FAIL_CHECK(fn.name << " not tested: the device context was lost by an earlier error in this run");
        return;
    }
    if (g_values) {
        g_device_lost = !check_dataset(fn, "the --input values n=" + std::to_string(g_values->size()), nullptr);
        return;
    }
    for (const auto& entry : g_selected)
        if (!check_dataset(fn, entry.cls + " dataset " + datasets::describe(entry.spec), &entry)) {
            g_device_lost = true;
            return;
        }
}

}  // namespace

void select(std::vector<datasets::Entry> entries) { g_selected = std::move(entries); }

void show_details(bool print, const std::string& file, const std::string& header) {
    g_details = print;
    g_details_path = file;
    if (file.empty()) return;
    g_details_file.open(file, std::ios::trunc);
    if (!g_details_file)
        std::printf("cannot write the details file %s; --details prints every finding\n", file.c_str());
    else
        g_details_file << header << "every check of every dataset, each failed one in full:\n" << std::flush;
}

TEST_CASE("the lab's functions on the selected datasets") {
    for (const LabFunction& fn : lab_functions()) check_function(fn);
    // The datasets a lost device left untested go into the results file too:
    // those after the ones it has, in the order they would have run.
    if (g_device_lost && !g_values) {
        const std::size_t tested = g_results.datasets();
        std::size_t run = 0;
        for (const LabFunction& fn : lab_functions())
            for (const auto& entry : g_selected)
                if (run++ >= tested)
                    g_results.not_tested(fn.name, entry.cls + " dataset " + datasets::describe(entry.spec), entry,
                                         "not run: the device context was lost by an earlier error in this run");
    }
    // Shown, not tested: `meson test` stays a verdict on correctness. Where a
    // dataset failed only with --divergence: a failing run's output is about
    // its failures.
    if (!g_values && !g_device_lost && (g_target_always || !g_triage.failed())) {
        const Preview target = divergence_preview(LAB_TARGETS);
        std::printf("%s", target.text.c_str());
        g_results.divergence_target(target);
    }
    // After the summary, where every finding of every dataset is (nothing more with --details: they are above).
    std::string details = g_details ? "" : "Every finding of every dataset: run again with --details";
    if (g_details_file.is_open())
        details = "Every finding of every dataset: " + g_details_path +
                  (g_details ? "" : " (or run again with --details)");
    std::printf("%s", g_triage.summary(details).c_str());
    g_results.fix_first(g_triage);
}

void use_values(std::vector<float> values) { g_values = std::move(values); }

void show_divergence_target_always() { g_target_always = true; }

void results_file(const std::string& path, const std::string& cls) { g_results.open(path, cls); }

void write_results(int status, const std::string& device, const std::string& why) {
    g_results.write(status, device, why, g_details_file.is_open() ? g_details_path : "", g_details);
}

}  // namespace harness
