#include "triage.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <utility>

#include "finding_place.hpp"

namespace harness {
namespace {

// Problem keys. Two problems are the same when they say the same thing about
// the same code, whatever the dataset:
//   - a finding of the emulator: finding::problem_key (finding.hpp), its
//     check, kernel, source lines and launch, not its blocks, threads,
//     indices or counts. So the stub's race on partial[1] in block (0,0,0)
//     of a tiny dataset and in block (417,0,0) of a large one is one
//     problem.
//   - a wrong output (outputs_match): the function and its hint with every
//     number taken out: the hint says what is wrong ("the outputs equal the
//     inputs", "the step with stride # never ran"); the counts, indices and
//     offsets are the dataset's.
//   - any other rule: the rule, the function and the message's first line
//     with every number taken out ("device memory leaked: # bytes ...").
// Keys are plain strings, the same on every run and machine.

std::string without_numbers(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[i]))) {
            out += text[i];
            continue;
        }
        out += '#';
        while (i + 1 < text.size() && std::isdigit(static_cast<unsigned char>(text[i + 1]))) ++i;
    }
    return out;
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

std::string shortened(const std::string& text, std::size_t most) {
    return text.size() <= most ? text : text.substr(0, most - 3) + "...";
}

std::string plural(std::size_t n, const std::string& word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string joined(const std::vector<std::string>& parts, const std::string& between) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : between) + p;
    return out;
}

Problem finding_problem(const finding::Finding& f, const std::string& folder) {
    Problem p;
    p.severity = Severity::UndefinedBehaviour;
    p.rule = "backend_checks_clean";
    p.full = joined(finding::diagnostic(f, folder), "\n  ");
    p.key = finding::problem_key(f);
    const std::vector<std::string> lines = finding::sorted_lines(f);
    p.title = finding::title(f);
    p.brief = f.check + (lines.empty() ? "" : " at " + joined(lines, ", "));
    return p;
}

}  // namespace

const char* label(Severity severity) {
    switch (severity) {
        case Severity::UndefinedBehaviour: return "undefined behaviour";
        case Severity::WrongResult: return "wrong result";
        case Severity::Note: return "note";
    }
    return "";
}

std::vector<Problem> problems_of(const std::vector<Check>& checks, const Observation& seen,
                                 const std::string& function, const std::string& folder) {
    std::vector<Problem> out;
    for (const Check& c : checks) {
        if (c.ok) continue;
        if (c.rule == "backend_checks_clean" && !seen.findings.empty()) {
            for (const auto& f : seen.findings) out.push_back(finding_problem(f, folder));
            continue;
        }
        Problem p;
        p.rule = c.rule;
        p.full = c.message;
        const std::string line = first_line(c.message);
        if (c.rule == "outputs_match") {
            const std::size_t at = c.message.rfind("hint: ");
            const std::string hint = at == std::string::npos ? line : first_line(c.message.substr(at + 6));
            p.key = c.rule + "|" + function + "|" + without_numbers(hint);
            p.title = function + " computes wrong values; hint: " + hint;
            p.brief = "values: first wrong output at index " + std::to_string(c.first_wrong) + " (" +
                      std::to_string(c.wrong) + " of " + std::to_string(seen.n) + " wrong)";
        } else {
            const bool undefined =
                c.rule == "no_device_error" || c.rule == "nothing_written_past_n" || c.rule == "backend_checks_clean";
            p.severity = undefined ? Severity::UndefinedBehaviour : Severity::WrongResult;
            p.key = c.rule + "|" + function + "|" + without_numbers(line);
            p.title = function + ": " + c.rule + ": " + line;
            p.brief = c.rule + ": " + shortened(line, 160);
            if (c.rule == "temporaries_freed" && seen.leaked_bytes)  // the harness's leak is a finding too
                p.full = "device memory leaked:\n  " +
                         joined(finding::diagnostic(finding::leak(seen.leaked_bytes, seen.leaked_allocations, function),
                                                    folder),
                                "\n  ");
        }
        out.push_back(std::move(p));
    }
    return out;
}

Problem failed_run(const std::string& function, const std::string& why) {
    Problem p;
    p.rule = "run";
    p.key = "run|" + function + "|" + without_numbers(first_line(why));
    p.title = function + ": " + first_line(why);
    p.brief = shortened(first_line(why), 160);
    p.full = why;
    return p;
}

std::string fail_line(const std::string& dataset, const std::vector<Problem>& problems) {
    std::vector<std::string> briefs;
    for (const auto& p : problems)
        if (std::find(briefs.begin(), briefs.end(), p.brief) == briefs.end()) briefs.push_back(p.brief);
    return dataset + ": " + joined(briefs, "; ");
}

bool Triage::failed() const {
    return std::any_of(runs_.begin(), runs_.end(), [](const FunctionRuns& r) { return r.failed > 0; });
}

std::vector<Problem> Triage::add(const std::string& function, const std::string& dataset,
                                 const std::vector<Problem>& problems) {
    auto runs = std::find_if(runs_.begin(), runs_.end(), [&](const FunctionRuns& r) { return r.function == function; });
    if (runs == runs_.end()) runs = runs_.insert(runs_.end(), {function});
    ++runs->datasets;
    runs->failed += !problems.empty();
    const std::string run = function + " on " + dataset;
    std::vector<Problem> fresh;
    std::set<std::string> here;  // a problem counts once per dataset, however often it showed there
    for (const Problem& p : problems) {
        if (!here.insert(p.key).second) continue;
        const auto it =
            std::find_if(problems_.begin(), problems_.end(), [&](const Seen& s) { return s.problem.key == p.key; });
        if (it != problems_.end()) {
            ++it->datasets;
            continue;
        }
        problems_.push_back({p, run, 1});
        fresh.push_back(p);
    }
    return fresh;
}

void Triage::add_divergence(const std::string& function, const std::string& dataset,
                            const std::vector<KernelDivergence>& launches) {
    const std::string run = function + " on " + dataset;
    std::vector<std::string> kernels;
    for (const auto& d : launches)
        if (std::find(kernels.begin(), kernels.end(), d.kernel) == kernels.end()) kernels.push_back(d.kernel);
    for (const auto& kernel : kernels) {
        std::vector<KernelDivergence> its;
        unsigned divergent = 0;
        for (const auto& d : launches)
            if (d.kernel == kernel) {
                its.push_back(d);
                divergent += d.total().divergent_blocks;
            }
        if (divergent == 0) continue;
        const double efficiency = simt_efficiency(its);
        auto it = std::find_if(divergence_.begin(), divergence_.end(),
                               [&](const Divergence& d) { return d.kernel == kernel; });
        if (it == divergence_.end()) it = divergence_.insert(divergence_.end(), {kernel, run, efficiency});
        if (efficiency < it->lowest) *it = {kernel, run, efficiency};
    }
}

std::vector<FixFirstItem> Triage::fix_first() const {
    std::vector<const Seen*> order;
    for (const auto& s : problems_) order.push_back(&s);
    std::stable_sort(order.begin(), order.end(),
                     [](const Seen* a, const Seen* b) { return a->problem.severity < b->problem.severity; });
    std::vector<FixFirstItem> items;
    for (const Seen* s : order)
        items.push_back({s->problem.severity, s->problem.key, s->problem.title, s->first, s->datasets, "", 1});
    for (const auto& d : divergence_) {
        char percent[16];
        std::snprintf(percent, sizeof percent, "%.1f%%", 100 * d.lowest);
        items.push_back({Severity::Note, "",
                         "kernel " + d.kernel + " diverges: SIMT efficiency " + percent + " at the lowest, on " + d.run +
                             " (the grader scores it against the reference's)",
                         d.run, 0, d.kernel, d.lowest});
    }
    return items;
}

std::string Triage::summary(const std::string& details) const {
    if (!failed()) return "";
    // "on 19 of 20 datasets", or per function where the lab has more than one
    std::string failing;
    for (const auto& r : runs_)
        failing += (failing.empty() ? "" : ", ") + (runs_.size() > 1 ? r.function + " on " : std::string("on ")) +
                   std::to_string(r.failed) + " of " + plural(r.datasets, "dataset");
    std::string out = std::string(79, '-') + "\nWhat to fix first: " + plural(problems_.size(), "distinct problem") +
                      " (" + failing + ")" + (problems_.size() == 1 ? ", shown" : ", each shown") +
                      " in full above at its first dataset\n";
    std::size_t number = 0;
    bool undefined = false, wrong = false;
    for (const FixFirstItem& item : fix_first()) {
        undefined = undefined || item.severity == Severity::UndefinedBehaviour;
        wrong = wrong || item.severity == Severity::WrongResult;
        out += "  " + std::to_string(++number) + ". " + label(item.severity) + ": " + item.title + "\n";
        if (item.key.empty()) continue;  // a divergence note: its line says it all
        out += "     " +
               (item.datasets > 1
                    ? "first seen: " + item.first + "; same finding on " + plural(item.datasets - 1, "more dataset")
                    : "seen once: " + item.first) +
               "\n";
    }
    if (undefined && wrong)
        out +=
            "Undefined behaviour first: while it is there the values are a matter of chance, and fixing it may fix "
            "them.\n";
    return details.empty() ? out : out + details + "\n";
}

}  // namespace harness
