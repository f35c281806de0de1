#include "grader/outputs/report_html.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <string_view>

#include "finding_place.hpp"
#include "grader/outputs/distinct_findings.hpp"
#include "grader/outputs/divergence_svg.hpp"
#include "grader/outputs/outputs.hpp"

namespace grader {
namespace {

using harness::KernelDivergence;

// ---- Small text helpers

std::string esc(std::string_view s) { return xml_escape(s); }

// An id fragment from a lab id ("02-brent-kung"): letters, digits and '-' only.
std::string id_of(const std::string& lab) {
    std::string out = "lab-";
    for (char c : lab) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
    return out;
}

std::string mark_class(Mark m) {
    const char* const names[] = {"label", "full", "partial", "zero", "none"};  // in Mark's order
    return names[static_cast<int>(m)];
}

// ---- Divergence maps (divergence_svg.hpp draws them)

constexpr std::size_t kMaxKernels = 8;  // per side of a function

std::string side_html(const char* cls, const std::string& who, const std::vector<KernelDivergence>& launches,
                      const std::string& not_scored) {
    std::string out = std::string("<figure class=\"side ") + cls + "\">\n<figcaption>" + who;
    if (launches.empty())
        return out + ": " + esc(not_scored.empty() ? "no map (the run gave no valid result)" : not_scored) +
               "</figcaption>\n</figure>\n";
    out += ": " + esc(efficiency_label(harness::simt_efficiency(launches), not_scored)) + "</figcaption>\n";
    const std::vector<KernelDivergence> kernels = by_kernel(launches);
    for (std::size_t i = 0; i < std::min(kernels.size(), kMaxKernels); ++i) {
        const KernelDivergence& k = kernels[i];
        out += "<div class=\"kernel\">" + esc(k.kernel) + ": " + std::to_string(k.blocks) + " block(s) of " +
               std::to_string(k.warps_per_block) + " warp(s), " + std::to_string(k.cells.size()) + (k.cells.size() == 1 ? " step" : " steps") +
               (not_scored.empty() ? ", " + efficiency_label(k.total().active_fraction(), "") : "") + "</div>\n" +
               divergence_map_svg(k, false);
        if (const std::string cut = map_cut_note(k); !cut.empty()) out += "<p class=\"na\">" + cut + "</p>\n";
    }
    if (kernels.size() > kMaxKernels)
        out += "<p class=\"na\">" + std::to_string(kernels.size() - kMaxKernels) + " more kernels not drawn.</p>\n";
    return out + "</figure>\n";
}

// ---- Timing chart

std::string timing_svg(const FunctionTiming& f) {
    struct Bar {
        const char* label;
        double ms;
        const char* cls;
    };
    std::vector<Bar> bars = {{"yours", f.timed.mine_ms, "mine"}, {"reference", f.timed.ref_ms, "reference"}};
    if (f.timed.cub_ms > 0) bars.push_back({"CUB", f.timed.cub_ms, "cub"});
    double most = 1e-9;  // read_timing refuses times that are not positive; a Report made elsewhere may not
    for (const Bar& b : bars) most = std::max(most, b.ms);
    const int left = 80, span = 360, row = 24, height = static_cast<int>(bars.size()) * row + 8;
    std::string out = "<svg class=\"timing\" width=\"560\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 560 " +
                      std::to_string(height) + "\" role=\"img\" aria-label=\"median time per call\">\n";
    for (std::size_t i = 0; i < bars.size(); ++i) {
        const int y = 4 + static_cast<int>(i) * row;
        const int w = std::max(1, static_cast<int>(std::lround(span * bars[i].ms / most)));
        out += "<text class=\"tick\" x=\"" + std::to_string(left - 6) + "\" y=\"" + std::to_string(y + 14) +
               "\" text-anchor=\"end\">" + bars[i].label + "</text><rect class=\"bar " + bars[i].cls + "\" x=\"" +
               std::to_string(left) + "\" y=\"" + std::to_string(y) + "\" width=\"" + std::to_string(w) +
               "\" height=\"18\"/><text class=\"tick\" x=\"" + std::to_string(left + w + 6) + "\" y=\"" +
               std::to_string(y + 14) + "\">" + fixed(bars[i].ms, 4) + " ms</text>\n";
    }
    return out + "</svg>\n";
}

std::string timing_html(const LabResult& lab) {
    const Component* c = find_component(lab, "timing");
    std::string out = "<section class=\"timing\">\n<h3>Timing on the GPU</h3>\n";
    if (c && !c->gradable) {
        const std::string prefix = "not gradable here: ";
        const std::string why = c->note.rfind(prefix, 0) == 0 ? c->note.substr(prefix.size()) : c->note;
        return out + "<p class=\"na\">Timing was not gradable here: " + esc(why) + "</p>\n</section>\n";
    }
    if (lab.timing.empty())
        return out + "<p class=\"na\">No timing chart: " + esc(c ? c->note : "not timed") +
               "</p>\n</section>\n";
    for (const FunctionTiming& f : lab.timing) {
        const Timed& t = f.timed;
        out += "<div class=\"fn\">\n<h4>" + esc(f.function) + " on " + esc(f.dataset) + ": median time per call</h4>\n" +
               timing_svg(f) + "<p class=\"ratio\">Yours takes <b>" + fixed(t.median, 3) +
               "x</b> the reference's time (median of " + std::to_string(t.rounds) +
               " alternated rounds; 95% confidence interval of the median " + fixed(t.ci_low, 3) + "x to " +
               fixed(t.ci_high, 3) + "x; p10 to p90 " + fixed(t.p10, 3) + "x to " + fixed(t.p90, 3) + "x)" +
               (t.cub_ms > 0 ? "; " + fixed(t.mine_ms / t.cub_ms, 2) + "x CUB's" : "") + ".</p>\n</div>\n";
    }
    return out + "</section>\n";
}

// ---- Source and findings

constexpr std::size_t kMaxLines = 5000;  // a scan.cu is a page or two; keep a giant one from swamping the page

// Where a finding's sentence shows a line of scan.cu ("at scan.cu:24"), to link it.
const std::regex kLineRef(R"((^|[^A-Za-z0-9_.])(scan\.cu:([0-9]{1,7})))");

// The listed lines of scan.cu a finding names (its source lines and its
// launch), each once: from its fields (finding_place.hpp), not its words.
std::vector<std::size_t> named_lines(const Finding& f, std::size_t line_count) {
    std::vector<std::size_t> out;
    for (const finding::Place& at : finding::places(f))
        if (at.file == "scan.cu" && at.line <= line_count) out.push_back(at.line);
    return out;
}

// `text` escaped, each "scan.cu:N" it shows of a line in `lines` a link to that line.
std::string with_links(const std::string& text, const std::string& id, const std::vector<std::size_t>& lines) {
    std::string out;
    std::size_t done = 0;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kLineRef); it != std::sregex_iterator(); ++it) {
        const std::size_t at = static_cast<std::size_t>(it->position(2));
        const std::size_t line = std::stoul((*it)[3].str());
        if (std::find(lines.begin(), lines.end(), line) == lines.end()) continue;
        out += esc(text.substr(done, at - done)) + "<a href=\"#" + id + "-L" + std::to_string(line) + "\">" +
               esc((*it)[2].str()) + "</a>";
        done = at + static_cast<std::size_t>(it->length(2));
    }
    return out + esc(text.substr(done));
}

// A finding's sentence escaped, where it shows a line it names a link to it;
// `named` gets those lines, each once.
std::string linked(const Finding& finding, const std::string& id, std::size_t line_count,
                   std::vector<std::size_t>& named) {
    named = named_lines(finding, line_count);
    return with_links(clean_text(finding::sentence(finding)), id, named);
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        lines.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return lines;
}

std::string source_html(const LabResult& lab) {
    const std::string id = id_of(lab.lab);
    std::vector<std::string> lines = split_lines(lab.source);
    const std::size_t cut = lines.size() > kMaxLines ? lines.size() - kMaxLines : 0;
    lines.resize(std::min(lines.size(), kMaxLines));
    const std::vector<DistinctFinding> findings = distinct_findings(lab.findings);  // each bug once
    std::map<std::size_t, std::vector<std::size_t>> marks;  // line -> findings naming it (1-based)
    std::string out = "<section class=\"source\">\n<h3>scan.cu and the safety findings</h3>\n";
    if (findings.empty()) out += "<p class=\"clean\">No race, barrier, memory or leak findings.</p>\n";
    else out += "<ol class=\"findings\">\n";
    for (std::size_t f = 0; f < findings.size(); ++f) {
        std::vector<std::size_t> named;
        const std::string sizes = sizes_text(findings[f]);
        out += "<li class=\"finding\" id=\"" + id + "-f" + std::to_string(f + 1) + "\"><span class=\"cat\">" +
               esc(findings[f].finding.kind) + "</span> " + linked(findings[f].finding, id, lines.size(), named) +
               (sizes.empty() ? "" : " <span class=\"sizes\">" + esc(sizes) + "</span>") + "</li>\n";
        for (std::size_t line : named) marks[line].push_back(f + 1);
    }
    if (!findings.empty()) out += "</ol>\n";
    out += "<div class=\"scroll\"><table class=\"code\">\n";
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto m = marks.find(i + 1);
        std::string notes;
        if (m != marks.end())
            for (std::size_t f : m->second)
                notes += "<a href=\"#" + id + "-f" + std::to_string(f) + "\" title=\"" +
                         esc(finding::sentence(findings[f - 1].finding)) + "\">&#9664; " +
                         esc(findings[f - 1].finding.kind) + " #" + std::to_string(f) + "</a> ";
        out += "<tr id=\"" + id + "-L" + std::to_string(i + 1) + "\"" + (m != marks.end() ? " class=\"hit\"" : "") +
               "><td class=\"ln\">" + std::to_string(i + 1) + "</td><td class=\"src\">" + esc(lines[i]) +
               "</td><td class=\"marks\">" + notes + "</td></tr>\n";
    }
    out += "</table></div>\n";
    if (cut) out += "<p class=\"na\">" + std::to_string(cut) + " more lines not shown.</p>\n";
    return out + "</section>\n";
}

// ---- What to fix first (triage.hpp's list, as the lab suites print it)

// The hint of a wrong result ("hint: ..." to the end), as the harness words
// it and triage.cpp finds it; "" where there is none.
std::string hint_of(const std::string& text) {
    const std::size_t at = text.find("hint: ");
    return at == std::string::npos ? "" : text.substr(at);
}

// A fix-first title escaped, the lines of the problem's finding (its title
// names them, finding::title) links to the listing.
std::string title_html(const std::string& title, const LabResult& lab) {
    std::vector<std::size_t> lines(std::min(split_lines(lab.source).size(), kMaxLines));
    for (std::size_t i = 0; i < lines.size(); ++i) lines[i] = i + 1;
    return with_links(title, id_of(lab.lab), lines);
}

std::string fix_first_html(const Report& r, std::set<std::string>& hints) {
    const bool clean = std::all_of(r.labs.begin(), r.labs.end(), [](const LabResult& l) { return l.fix_first.empty(); });
    std::string out = std::string("<section class=\"fix-first") + (clean ? " clean" : "") + "\">\n<h2>What to fix first</h2>\n";
    for (const LabResult& lab : r.labs) {
        out += "<h3><a href=\"#" + id_of(lab.lab) + "\">" + esc(lab.lab) + "</a>: " + fraction(lab.score(), lab.max_score()) +
               "</h3>\n";
        if (lab.fix_first.empty()) {
            out += "<p class=\"na\">" +
                   esc(!lab.note.empty() ? lab.note : "Nothing to fix: every dataset came out right.") +
                   (lab.findings.empty() ? "" : " Its safety findings are below, on its source.") + "</p>\n";
            continue;
        }
        out += "<ol>\n";
        for (const harness::FixFirstItem& item : lab.fix_first) {
            std::string cls = harness::label(item.severity);
            std::replace(cls.begin(), cls.end(), ' ', '-');
            const std::string seen =
                item.key.empty()   ? ""
                : item.datasets > 1 ? "first seen: " + item.first + "; same on " + std::to_string(item.datasets - 1) +
                                         (item.datasets == 2 ? " more dataset" : " more datasets")
                                   : "seen once: " + item.first;
            out += "<li class=\"" + cls + "\"><b>" + harness::label(item.severity) + "</b>: " + title_html(item.title, lab) +
                   (seen.empty() ? "" : " <span class=\"seen\">" + esc(seen) + "</span>") + "</li>\n";
            if (const std::string hint = hint_of(item.title); !hint.empty()) hints.insert(hint);
        }
        out += "</ol>\n";
    }
    return out + "</section>\n";
}

// A test's output, each hint once on the page: a hint line the page shows
// already (in what to fix first, or an earlier dataset's) is left out.
std::string output_html(const std::string& output, std::set<std::string>& hints) {
    std::string out;
    for (const std::string& line : split_lines(output)) {
        const std::string hint = line.find_first_not_of(' ') == line.find("hint: ") ? hint_of(line) : "";
        if (!hint.empty() && !hints.insert(hint).second) {
            out += "<span class=\"na\">" + esc(line.substr(0, line.size() - hint.size())) + "hint: as above</span>\n";
            continue;
        }
        out += esc(line) + "\n";
    }
    return out;
}

// ---- Tests, labs, the page

std::string tests_html(const LabResult& lab, std::set<std::string>& hints) {
    std::vector<const TestResult*> tests;
    for (const TestResult& t : lab.tests) tests.push_back(&t);
    std::stable_partition(tests.begin(), tests.end(), [](const TestResult* t) { return t->status == Status::Failed; });
    std::string out = "<section class=\"tests\">\n<h3>Tests, dataset by dataset</h3>\n";
    for (const TestResult* t : tests) {
        const std::string status = status_name(t->status), cls = t->status == Status::Failed ? "failed"
                                                                  : t->status == Status::Passed ? "passed" : "na";
        const std::string points = t->status == Status::NotGradable ? "n/a" : fraction(t->score, t->max_score);
        out += "<details class=\"test " + cls + "\"><summary><span class=\"badge " + cls + "\">" + status + "</span> " +
               esc(t->name) + " <span class=\"pts\">" + points + (t->hidden ? " (hidden)" : "") + "</span></summary>\n<pre>" +
               output_html(immediate_output(*t), hints) + "</pre></details>\n";
    }
    return out + "</section>\n";
}

std::string divergence_html(const LabResult& lab) {
    std::string out = "<section class=\"divergence\">\n<h3>Control divergence (the emulator)</h3>\n";
    if (lab.divergence.empty()) {
        const Component* c = find_component(lab, "divergence");
        return out + "<p class=\"na\">No divergence maps: " + esc(c ? c->note : "not measured") +
               "</p>\n</section>\n";
    }
    out += "<p>Each cell is one warp of a block (columns) in one step between two <code>__syncthreads()</code> "
           "(rows), summed over the blocks: its active lanes per basic block it ran, out of 32 (hover a cell for "
           "the counts). A title's SIMT efficiency is the same over all its cells, as graded.</p>\n" +
           legend_svg(false);
    for (const DivergenceMaps& d : lab.divergence)
        out += "<div class=\"fn\">\n<h4>" + esc(d.function) + " on " + esc(d.dataset) + "</h4>\n<div class=\"pair\">\n" +
               side_html("mine", "Yours", d.mine, d.not_scored) + side_html("reference", "Reference", d.reference, "") + "</div>\n</div>\n";
    return out + "</section>\n";
}

// The source and its findings first (what the fixes are made in), then the
// tests dataset by dataset, folded, then the maps and the timing.
std::string lab_html(const LabResult& lab, std::set<std::string>& hints) {
    std::string out = "<section class=\"lab\" id=\"" + id_of(lab.lab) + "\">\n<h2>" + esc(lab.lab) + ": " +
                      fraction(lab.score(), lab.max_score()) + "</h2>\n";
    if (!lab.note.empty()) out += "<p class=\"note\">" + esc(lab.note) + "</p>\n";
    if (!lab.source.empty()) out += source_html(lab);
    out += tests_html(lab, hints);
    if (lab.built) out += divergence_html(lab) + timing_html(lab);
    return out + "</section>\n";
}

std::string table_html(const Report& r) {
    const auto rows = score_rows(r);
    std::string out = "<div class=\"scroll\"><table class=\"scores\">\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
        out += k == 0 ? "<thead><tr>" : k + 1 == rows.size() ? "<tfoot><tr>" : "<tr>";
        for (const ScoreCell& cell : rows[k]) {
            const char* tag = k == 0 || cell.mark == Mark::Label ? "th" : "td";
            out += std::string("<") + tag + " class=\"" + mark_class(cell.mark) + "\">" + esc(cell.text) + "</" + tag + ">";
        }
        out += k == 0 ? "</tr></thead>\n<tbody>\n" : k + 1 == rows.size() ? "</tr></tfoot>\n" : "</tr>\n";
        if (k + 2 == rows.size()) out += "</tbody>\n";
    }
    return out + "</table></div>\n";
}

const char* const kStyle = R"(
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1200px; }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { border-bottom: 2px solid #ccc; margin-top: 32px; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 8px 0; }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; }
.total { font-size: 18px; font-weight: 600; }
table.scores { border-collapse: collapse; margin: 12px 0; }
table.scores th, table.scores td { border: 1px solid #bbb; padding: 3px 10px; text-align: right; }
table.scores th.label { text-align: left; background: #f2f2f2; }
td.full { background: #d8f0d8; } td.partial { background: #fff1c2; } td.zero { background: #f7d4d4; } td.none { color: #888; }
details.test { border: 1px solid #ddd; border-left: 5px solid #aaa; margin: 4px 0; padding: 2px 8px; }
details.test.failed { border-left-color: #c62828; } details.test.passed { border-left-color: #2e7d32; }
.badge { display: inline-block; min-width: 72px; font-weight: 700; text-transform: uppercase; font-size: 12px; }
.badge.failed { color: #c62828; } .badge.passed { color: #2e7d32; } .badge.na { color: #777; }
.pts { color: #555; } pre { white-space: pre-wrap; margin: 4px 0; font-size: 12px; }
.pair { display: flex; flex-wrap: wrap; gap: 24px; } figure.side { margin: 0; } figcaption { font-weight: 600; }
.kernel { font-size: 12px; color: #444; margin-top: 6px; }
svg text { font: 10px system-ui, sans-serif; fill: #333; } circle.diverged { fill: #222; }
rect.bar.mine { fill: #3b6fb6; } rect.bar.reference { fill: #8c8c8c; } rect.bar.cub { fill: #6a3d9a; }
.na, .note { color: #666; font-style: italic; }
ol.findings li { margin: 4px 0; } .cat { font-weight: 700; text-transform: uppercase; font-size: 11px; color: #c62828; }
div.scroll { overflow-x: auto; } table.code { border-collapse: collapse; font: 12px/1.35 ui-monospace, monospace; }
table.code td { padding: 0 8px; vertical-align: top; } td.ln { color: #888; text-align: right; user-select: none; }
td.src { white-space: pre; } tr.hit { background: #ffe3e3; } tr.hit td.ln { color: #c62828; font-weight: 700; }
tr:target { outline: 2px solid #c62828; } td.marks a { color: #c62828; font-size: 11px; white-space: nowrap; }
section.fix-first { background: #fff8f0; border: 1px solid #f0c9a0; border-radius: 6px; padding: 2px 16px 8px; margin: 12px 0; }
section.fix-first h2 { border: 0; margin-top: 8px; } section.fix-first h3 { font-size: 15px; margin: 10px 0 2px; }
section.fix-first ol { padding-left: 24px; margin: 4px 0; } section.fix-first li { margin: 4px 0; }
li.undefined-behaviour b { color: #c62828; } li.wrong-result b { color: #a04a00; } li.note b { color: #555; }
.seen, .sizes { color: #666; font-size: 12px; } h3 { margin-bottom: 6px; } th.label { white-space: nowrap; }
section.fix-first.clean { background: #f0f8f0; border-color: #a8d5a8; }
@media (max-width: 600px) { body { margin: 10px; } table.scores th, table.scores td { padding: 2px 5px; } }
)";

}  // namespace

std::string report_html(const Report& r) {
    std::string out =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        // Nothing may be fetched: the page is read offline, and nothing in it should reach out.
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        "<title>scan-labs: " + esc(r.submission) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n" +
        "<header>\n<h1>scan-labs report: " + esc(r.submission) + "</h1>\n<p class=\"total\">Total " + esc(total_text(r)) +
        "</p>\n</header>\n";
    std::set<std::string> hints;  // the hints the page shows, each once
    out += fix_first_html(r, hints) + table_html(r) + "<dl class=\"meta\"><dt>backends</dt><dd>" + esc(r.backend) +
           "</dd><dt>device</dt><dd>" + esc(r.device) + "</dd><dt>sandbox</dt><dd>" + (r.sandboxed ? "bubblewrap" : "none") +
           "</dd></dl>\n";
    const auto notes = all_notes(r);
    if (!notes.empty()) {
        out += "<ul class=\"notes\">\n";
        for (const std::string& note : notes) out += "<li>" + esc(note) + "</li>\n";
        out += "</ul>\n";
    }
    for (const LabResult& lab : r.labs) out += lab_html(lab, hints);
    if (const std::string times = phases_text(r); !times.empty()) out += "<footer><p>" + esc(times) + "</p></footer>\n";
    return out + "</body>\n</html>\n";
}

}  // namespace grader
