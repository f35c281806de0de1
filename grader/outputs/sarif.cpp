// results.sarif: each lab's safety findings (LabResult::findings) as SARIF
// 2.1.0, the format GitHub code scanning reads, so a finding shows on the
// student's scan.cu line in the Security tab and in pull requests; the
// workflows' annotations are made from the same file.
//
// What it relies on:
// - OASIS SARIF 2.1.0 (docs.oasis-open.org/sarif/sarif/v2.1.0): a sarifLog
//   needs version and runs, a run its tool.driver with a name, a result its
//   message; a region of startLine alone is that whole line (3.30); a
//   relative artifactLocation.uri names its base with uriBaseId (3.4.4),
//   whose absolute location originalUriBaseIds may leave out (3.14.14).
// - GitHub's "SARIF support for code scanning" (docs.github.com, code-security/
//   code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning):
//   rules need shortDescription, fullDescription and help text; a result
//   needs message.text and a location with artifactLocation.uri relative to
//   the repository root and region.startLine (a result without a location
//   has the whole upload refused: codeql-action's issues 1738 and 2459);
//   a finding that names no line (a leak) is a location of the file alone,
//   no region: codeql-action's upload validates against SARIF's schema
//   (src/upload-lib.ts), which allows it, and fingerprints such a location
//   as a result that "pertains to the entire file" (src/fingerprints.ts);
//   partialFingerprints are computed by upload-sarif from the checked-out
//   sources when absent; at most 25,000 results a run.
// course/tests/sarif-2.1.0.schema.json and sarif-github.schema.json hold both
// as JSON Schemas, which course/tests/sarif_schema.py checks this file against.
#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "finding_place.hpp"
#include "grader/outputs/distinct_findings.hpp"
#include "grader/outputs/outputs.hpp"

namespace grader {

namespace {

// Keys in the order SARIF's specification and GitHub's examples write them
// ($schema, version, runs; a result's ruleId, level, message, locations).
using json = nlohmann::ordered_json;

// Each safety check, as a rule's descriptions say it (GitHub shows them
// beside the alert): what it is, and how it is scored.
struct Check {
    const char* kind;
    const char* what;
    const char* help;
};
const Check kChecks[] = {
    {"race",
     "A data race: threads of one launch accessed the same memory, at least one of them writing, with no barrier or "
     "atomic between them, so the values depend on the order the GPU happens to run the threads in.",
     "Costs the safety component's race quarter. Separate the step that writes from the step that reads with a "
     "__syncthreads() that every thread of the block reaches, or give the steps different buffers."},
    {"barrier",
     "A barrier that not every thread of the block reaches (a __syncthreads() in divergent code or after an early "
     "return), a deadlock or a loop that never ends: on a GPU the kernel may hang or compute other values.",
     "Costs the safety component's barrier quarter, and, as undefined behaviour, the correctness of the dataset it "
     "happened on. Keep __syncthreads() out of branches that depend on the thread: guard the work, not the barrier."},
    {"memory",
     "A memory error: an access outside an allocation or an array, a kernel's access to host memory, or a read of "
     "memory that nothing wrote.",
     "Costs the safety component's memory quarter; an out-of-bounds or host access is undefined behaviour and also "
     "costs the correctness of the dataset it happened on. Check each index against the array's size before the "
     "access."},
    {"leak", "Device memory still allocated after the lab function returned.",
     "Costs the safety component's leak quarter; the values stay right, so it is a warning. cudaFree every "
     "temporary the function allocates, on every path out of it."},
};

const Check& check_of(const std::string& kind) {
    for (const Check& c : kChecks)
        if (kind == c.kind) return c;
    return kChecks[2];  // an unknown kind: the catch-all, as score::emulator_category's
}

// "data race on shared memory" -> "data-race-on-shared-memory".
std::string slug(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c)) out += static_cast<char>(std::tolower(c));
        else if (!out.empty() && out.back() != '-') out += '-';
    }
    while (!out.empty() && out.back() == '-') out.pop_back();
    return out.empty() ? "finding" : out;
}

// A hidden dataset's finding before grades are published names its kind alone.
std::string check_name(const Finding& f) {
    return f.source == finding::Source::Withheld ? f.kind + " finding on a hidden dataset" : f.check;
}

std::string rule_id(const Finding& f) { return f.kind + "/" + slug(check_name(f)); }

json rule(const Finding& f) {
    const Check& c = check_of(f.kind);
    const char* level = finding::name(finding::severity(f));
    return {{"id", rule_id(f)},
            {"name", clean_text(check_name(f))},
            {"shortDescription", {{"text", clean_text(check_name(f))}}},
            {"fullDescription", {{"text", c.what}}},
            {"help", {{"text", c.help}}},
            {"defaultConfiguration", {{"level", level}}},
            // The checks watch the student's code run, they do not guess: precision very high.
            {"properties", {{"tags", {"cuda", "safety", f.kind}}, {"precision", "very-high"}, {"problem.severity", level}}}};
}

// Line `line` (1-based) of `source`, "" past its end.
std::string source_line(const std::string& source, unsigned line) {
    std::size_t at = 0;
    for (unsigned k = 1; k < line && at != std::string::npos; ++k) {
        at = source.find('\n', at);
        if (at != std::string::npos) ++at;
    }
    if (at == std::string::npos || at >= source.size()) return "";
    return source.substr(at, source.find('\n', at) - at);
}

// The student repository holds lab `lab`'s files in labs/<lab>/; line 0: the
// file alone. A line of scan.cu carries its text (region.snippet, SARIF
// 3.30.13): the class report (class_report.hpp) groups findings by it.
json physical(const LabResult& lab, const std::string& file, unsigned line, unsigned column = 0) {
    json out = {{"artifactLocation", {{"uri", "labs/" + uri_segment(lab.lab) + "/" + uri_segment(file)}, {"uriBaseId", "%SRCROOT%"}}}};
    if (line == 0) return out;
    json region = {{"startLine", line}};
    if (column) region["startColumn"] = column;  // where the emulator read one (1-based, as SARIF's default)
    if (const std::string text = file == "scan.cu" ? source_line(lab.source, line) : ""; !text.empty())
        region["snippet"] = {{"text", clean_text(text)}};
    out["region"] = region;
    return out;
}

json result(const LabResult& lab, const DistinctFinding& d) {
    const Finding& f = d.finding;
    const std::vector<finding::Place> at = finding::places(f);
    json location = {{"physicalLocation", at.empty() ? physical(lab, "scan.cu", 0)
                                                     : physical(lab, at.front().file, at.front().line, at.front().column)}};
    if (at.empty()) location["message"] = {{"text", "scan.cu as a whole: this finding names no line"}};
    json related = json::array();
    for (std::size_t i = 1; i < at.size(); ++i)
        related.push_back({{"id", i},
                           {"physicalLocation", physical(lab, at[i].file, at[i].line, at[i].column)},
                           {"message", {{"text", at[i].launch ? "the kernel was launched here" : "a line this finding involves"}}}});
    const std::string found = sizes_text(d);
    json r = {{"ruleId", rule_id(f)},
              {"ruleIndex", -1},  // set by the caller
              {"level", finding::name(finding::severity(f))},
              {"message", {{"text", clean_text(finding::sentence(f) + (found.empty() ? "" : "; " + found))}}},
              {"locations", json::array({location})}};
    if (!related.empty()) r["relatedLocations"] = related;
    r["properties"] = {{"lab", lab.lab}, {"undefinedBehavior", f.undefined}};
    return r;
}

}  // namespace

std::string sarif_json(const Report& report) {
    // The worst first, the order to read them in and the one annotations
    // keep within GitHub's limits: errors before warnings, undefined
    // behaviour first; else the labs' order and each lab's. Each bug once
    // (distinct_findings.hpp), its first finding speaking for the rest.
    struct Entry {
        const LabResult* lab;
        DistinctFinding finding;
    };
    std::vector<Entry> entries;
    for (const LabResult& lab : report.labs)
        for (DistinctFinding& d : distinct_findings(lab.findings)) entries.push_back({&lab, std::move(d)});
    const auto rank = [](const Finding& f) {
        return finding::severity(f) == finding::Severity::error ? (f.undefined ? 0 : 1) : 2;
    };
    std::stable_sort(entries.begin(), entries.end(),
                     [&](const Entry& a, const Entry& b) { return rank(a.finding.finding) < rank(b.finding.finding); });
    json rules = json::array(), results = json::array();
    for (const Entry& e : entries) {
        json r = result(*e.lab, e.finding);
        const auto known = std::find_if(rules.begin(), rules.end(), [&](const json& x) { return x["id"] == r["ruleId"]; });
        r["ruleIndex"] = known - rules.begin();
        if (known == rules.end()) rules.push_back(rule(e.finding.finding));
        results.push_back(std::move(r));
    }
    json run = {{"tool", {{"driver", {{"name", "scan-grade"}, {"rules", rules}}}}},
                {"originalUriBaseIds",
                 {{"%SRCROOT%", {{"description", {{"text", "The student repository's root, the folder holding labs/."}}}}}}},
                {"results", results}};
    const json log = {{"$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"},
                      {"version", "2.1.0"},
                      {"runs", json::array({run})}};
    return log.dump(2, ' ', false, json::error_handler_t::replace) + "\n";  // as dump() (outputs_detail.hpp)
}

}  // namespace grader
