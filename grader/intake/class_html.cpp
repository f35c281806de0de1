// class.html (class_report.hpp): the class at a glance, drawn from class.json's data.
#include <algorithm>
#include <cmath>
#include <string>

#include "grader/intake/class_report.hpp"
#include "grader/outputs/outputs.hpp"

using json = nlohmann::json;

namespace grader {

namespace {

std::string esc(const std::string& s) { return xml_escape(s); }
std::string num(double v) { return format_points(v); }

// A histogram of d's 10 bins over [lo, hi], with the quartiles' box and the median under it.
std::string histogram_svg(const json& d, const std::string& unit) {
    const double w = 300, h = 70, left = 4, bar_w = w / 10;
    const auto& counts = d["histogram"];
    int most = 1;
    for (const auto& c : counts) most = std::max(most, c.get<int>());
    const double lo = d["lo"], hi = d["hi"];
    const auto x = [&](double v) { return left + (hi > lo ? (v - lo) / (hi - lo) : 0) * w; };
    std::string svg = "<svg class=\"hist\" width=\"310\" height=\"112\" viewBox=\"0 0 310 112\" role=\"img\"><title>" +
                      esc(num(d["count"]) + " values; median " + num(d["median"]) + unit + ", quartiles " + num(d["q1"]) +
                          unit + " and " + num(d["q3"]) + unit) + "</title>";
    for (std::size_t b = 0; b < counts.size(); ++b) {
        const int c = counts[b];
        const double bh = h * c / most;
        svg += "<rect x=\"" + num(left + b * bar_w + 1) + "\" y=\"" + num(h - bh + 12) + "\" width=\"" + num(bar_w - 2) +
               "\" height=\"" + num(bh) + "\" fill=\"#4a78b5\"/>";
        if (c) svg += "<text x=\"" + num(left + b * bar_w + bar_w / 2) + "\" y=\"" + num(h - bh + 10) + "\" class=\"n\">" +
                      std::to_string(c) + "</text>";
    }
    svg += "<line x1=\"" + num(left) + "\" y1=\"82\" x2=\"" + num(left + w) + "\" y2=\"82\" stroke=\"#888\"/>";
    if (d["count"].get<int>() > 0) {
        svg += "<rect x=\"" + num(x(d["q1"])) + "\" y=\"86\" width=\"" + num(std::max(1.0, x(d["q3"]) - x(d["q1"]))) +
               "\" height=\"8\" fill=\"#cfd9e8\" stroke=\"#333\"/>";
        svg += "<line x1=\"" + num(x(d["median"])) + "\" y1=\"84\" x2=\"" + num(x(d["median"])) +
               "\" y2=\"96\" stroke=\"#c0392b\" stroke-width=\"2\"/>";
    }
    svg += "<text x=\"" + num(left) + "\" y=\"108\" class=\"a\">" + esc(num(lo) + unit) + "</text><text x=\"" + num(left + w) +
           "\" y=\"108\" class=\"a\" text-anchor=\"end\">" + esc(num(hi) + unit) + "</text></svg>";
    return svg;
}

std::string stats_cell(const json& d, const std::string& unit) {
    return "median <b>" + esc(num(d["median"]) + unit) + "</b><br>quartiles " + esc(num(d["q1"]) + unit) + " – " +
           esc(num(d["q3"]) + unit) + "<br>range " + esc(num(d["min"]) + unit) + " – " + esc(num(d["max"]) + unit) + "<br>" +
           std::to_string(d["count"].get<int>()) + (d["count"].get<int>() == 1 ? " student" : " students");
}

std::string distributions(const json& list, const std::string& first, const std::string& unit) {
    std::string html = "<table class=\"dist\"><tr><th>" + first + "</th><th>distribution</th><th></th></tr>";
    for (const json& d : list) {
        std::string label = esc(d["lab"].get<std::string>());
        if (d.contains("component"))
            label += "<br>" + esc(d["component"].get<std::string>()) + " (of " + num(d["max_score"]) + ")";
        html += "<tr><td>" + label + "</td><td>" + histogram_svg(d, unit) + "</td><td class=\"s\">" + stats_cell(d, unit) + "</td></tr>";
    }
    return html + "</table>";
}

std::string names(const json& students) {
    std::string list;
    for (const json& s : students) list += (list.empty() ? "" : ", ") + esc(s.get<std::string>());
    return list;
}

// The lines of `text` in `ranges` ([[first, last], ...], 1-based) marked,
// each with kContext lines around it; the lines between left out ("...").
std::string shared_lines(const std::string& text, const json& ranges) {
    constexpr int kContext = 2;
    std::vector<std::string> lines;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        lines.push_back(text.substr(at, end - at));
        at = end + 1;
    }
    std::vector<char> marked(lines.size() + 1, 0), shown(lines.size() + 1, 0);
    for (const json& r : ranges)
        for (int l = r[0].get<int>(); l <= r[1].get<int>() && l <= static_cast<int>(lines.size()); ++l) {
            marked[l] = 1;
            for (int c = std::max(1, l - kContext); c <= std::min<int>(lines.size(), l + kContext); ++c) shown[c] = 1;
        }
    std::string out;
    bool gap = false;
    for (std::size_t l = 1; l <= lines.size(); ++l) {
        if (!shown[l]) {
            gap = true;
            continue;
        }
        if (gap || (out.empty() && l > 1)) out += "<span class=\"gap\">...</span>\n";
        gap = false;
        const std::string number = std::to_string(l);
        out += "<span class=\"ln\">" + std::string(number.size() < 4 ? 4 - number.size() : 0, ' ') + number + "</span> " +
               (marked[l] ? "<mark>" + esc(lines[l - 1]) + "</mark>" : esc(lines[l - 1])) + "\n";
    }
    return out;
}

// The similarity check's section: its settings, then per lab the identical
// files, the pairs most alike (each pair's shared lines side by side) and
// the files too short to compare.
std::string similarity_html(const json& sim, const CodeReader& code) {
    std::string h = "\n<h2 id=\"similarity\">Code alike</h2>\n";
    if (sim.value("status", "") != "on") return h + "<p>The similarity check is off: " + esc(sim.value("why", "")) + ".</p>\n";
    h += "<p>Compared with " + esc(sim.value("tool", "")) +
         " per lab, the lab's stub and the kit's reference taken out of every file as base code, names replaced "
         "(renamed variables match) and code fingerprinted in short runs (reordered functions match). A pair's share is "
         "the part of one file's own code found in the other; a pair is flagged at " + whole_percent(sim.value("threshold", 0.0)) +
         " or more with at least " + std::to_string(sim.value("min_tokens", 0)) + " tokens shared. Flagged is a reason to "
         "look, not a verdict: two students who both follow the handout closely write alike code.</p>\n";
    for (const json& lab : sim.value("labs", json::array())) {
        const std::string id = lab.value("lab", "");
        h += "<h3>Lab " + esc(id) + ": " + std::to_string(lab.value("flagged", 0)) + " flagged</h3>\n<p class=\"ex\">" +
             std::to_string(lab.value("compared", 0)) + " of " + std::to_string(lab.value("files", 0)) + " files compared";
        if (!lab.value("too_little", json::array()).empty())
            h += "; too little code of their own beyond the base to compare: " + names(lab["too_little"]);
        if (!lab.value("unread", json::array()).empty()) h += "; not readable as UTF-8 text: " + names(lab["unread"]);
        h += ".</p>\n";
        for (const json& group : lab.value("identical", json::array()))
            h += "<p class=\"bad\">Identical files: " + names(group["students"]) + ".</p>\n";
        if (lab.value("pairs", json::array()).empty()) continue;
        h += "<table><tr><th></th><th>students</th><th>similarity</th><th>shares</th><th>tokens shared</th></tr>";
        int k = 0;
        for (const json& p : lab["pairs"]) {
            const std::string anchor = "similar-" + id + "-" + std::to_string(++k);
            const bool flagged = p.value("flagged", false);
            h += "<tr" + std::string(flagged ? " class=\"bad\"" : "") + "><td>" + std::to_string(k) + "</td><td><a href=\"#" +
                 esc(anchor) + "\">" + names(p["a"]) + " and " + names(p["b"]) + "</a></td><td>" + whole_percent(p.value("similarity", 0.0)) +
                 (flagged ? " flagged" : "") + "</td><td>" + whole_percent(p.value("share_a", 0.0)) + " / " + whole_percent(p.value("share_b", 0.0)) +
                 "</td><td>" + std::to_string(p.value("tokens", 0)) + "</td></tr>";
        }
        h += "</table>\n";
        if (!code) continue;
        k = 0;
        for (const json& p : lab["pairs"]) {
            const std::string anchor = "similar-" + id + "-" + std::to_string(++k);
            const std::string a = p["a"][0], b = p["b"][0];
            h += "<details id=\"" + esc(anchor) + "\"" + (k == 1 ? " open" : "") + "><summary>" + std::to_string(k) + ". " + names(p["a"]) +
                 " and " + names(p["b"]) + ": " + whole_percent(p.value("similarity", 0.0)) + ", the shared code marked</summary>"
                 "<div class=\"sbs\"><div><b><a href=\"" + esc(uri_segment(a) + "/report.html") + "\">" + esc(a) + "</a></b><pre>" +
                 shared_lines(code(a, id), p.value("lines_a", json::array())) + "</pre></div><div><b><a href=\"" +
                 esc(uri_segment(b) + "/report.html") + "\">" + esc(b) + "</a></b><pre>" +
                 shared_lines(code(b, id), p.value("lines_b", json::array())) + "</pre></div></div></details>\n";
        }
    }
    return h;
}

}  // namespace

std::string class_html(const json& data, const CodeReader& code) {
    std::string h =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>The class at a glance</title><style>"
        "body{font:15px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1100px;padding:0 16px;color:#222}"
        "h1{font-size:24px}h2{font-size:19px;margin-top:32px;border-bottom:1px solid #ddd}"
        "table{border-collapse:collapse;margin:8px 0}td,th{border-bottom:1px solid #e4e4e4;padding:5px 10px;text-align:left;vertical-align:top}"
        "td.s{font-size:13px;white-space:nowrap}svg text{font:10px sans-serif;fill:#333}svg text.n{text-anchor:middle}"
        ".bar{display:inline-block;height:10px;background:#4a78b5;vertical-align:middle}.bad{color:#b03a2e}"
        "code{background:#f3f3f3;padding:1px 4px;border-radius:3px}.ex{font-size:13px;color:#555}"
        "h3{font-size:16px;margin:20px 0 4px}details{margin:6px 0}summary{cursor:pointer}"
        ".sbs{display:grid;grid-template-columns:1fr 1fr;gap:10px}.sbs>div{min-width:0}"
        "pre{font-size:12px;background:#f8f8f8;padding:6px;overflow-x:auto;margin:4px 0}mark{background:#ffe08a}"
        ".ln{color:#999}.gap{color:#999}"
        // A phone: the distributions' cells one under another, the histogram
        // scaled to the width, a wide table scrolled rather than cut off.
        "@media (max-width:700px){.sbs{grid-template-columns:1fr}table.dist tr:first-child{display:none}"
        "table.dist td{display:block;border:0}table.dist tr{display:block;border-bottom:1px solid #e4e4e4}"
        "svg.hist{width:100%;max-width:310px;height:auto}table{display:block;overflow-x:auto;max-width:100%}}"
        "</style></head><body>\n<h1>The class at a glance</h1>\n<p>" +
        std::to_string(data["students"].get<int>()) + " students: " + std::to_string(data["graded"].get<int>()) +
        " graded, " + std::to_string(data["refused"].get<int>()) +
        " refused. Quartiles are linear between the sorted scores; the box under each histogram spans them, the red line is the median.</p>\n";

    h += "<h2>Scores per lab and component</h2>\n" + distributions(data["scores"], "lab, component", "");

    h += "\n<h2>Datasets passed, worst first</h2>\n";
    if (data["datasets"].empty()) h += "<p>No dataset's test in the results.</p>\n";
    else h += "<table><tr><th>lab</th><th>dataset</th><th>passed</th><th></th></tr>";
    for (const json& d : data["datasets"]) {
        const double share = d["share"];
        h += "<tr><td>" + esc(d["lab"]) + "</td><td>" + esc(d["dataset"]) + "</td><td" + (share < 0.5 ? " class=\"bad\"" : "") +
             ">" + num(std::round(share * 1000) / 10) + "% (" + std::to_string(d["passed"].get<int>()) + " of " +
             std::to_string(d["graded"].get<int>()) + ")</td><td><span class=\"bar\" style=\"width:" +
             num(std::round(share * 150)) + "px\"></span></td></tr>";
    }
    if (!data["datasets"].empty()) h += "</table>\n";

    h += "<h2>Most common findings</h2>\n";
    if (data["findings"].empty()) h += "<p>No findings.</p>\n";
    else h += "<table><tr><th>students</th><th>finding</th></tr>";
    for (const json& f : data["findings"]) {
        const std::string line = f["line"];
        h += "<tr><td>" + std::to_string(f["students"].get<int>()) + "</td><td><b>" + esc(f["kind"]) + "</b> in lab " + esc(f["lab"]) +
             (line.empty() ? "" : " at the line <code>" + esc(line) + "</code>");
        for (const json& e : f["examples"])
            h += "<div class=\"ex\">" + esc(e["student"]) + ", " + esc(e["file"]) + " line " + std::to_string(e["line"].get<int>()) +
                 ": " + esc(e["message"]) + "</div>";
        h += "</td></tr>";
    }
    if (!data["findings"].empty()) h += "</table>\n";

    h += "<h2>Timing: the time over the reference's</h2>\n";
    if (!data["timing"]["gpu"].get<bool>()) h += "<p>No GPU: timing was not graded.</p>\n";
    else if (data["timing"]["labs"].empty()) h += "<p>No lab was timed.</p>\n";
    else h += distributions(data["timing"]["labs"], "lab", "x");

    h += "\n<h2>Divergence: SIMT efficiency against the reference's</h2>\n";
    if (data["divergence"].empty()) h += "<p>No divergence was measured.</p>\n";
    else h += distributions(data["divergence"], "lab", "%");

    h += "\n<h2>Flagged</h2>\n";
    if (data["flagged"].empty()) h += "<p>Nothing flagged.</p>\n";
    else h += "<table><tr><th>student</th><th>why</th></tr>";
    for (const json& f : data["flagged"]) {
        std::string why;
        for (const json& w : f["why"]) why += (why.empty() ? "" : "<br>") + esc(w);
        h += "<tr><td><a href=\"" + esc(uri_segment(f["folder"]) + "/report.html") + "\">" + esc(f["student"]) + "</a></td><td>" + why + "</td></tr>";
    }
    if (!data["flagged"].empty()) h += "</table>\n";
    if (data.contains("similarity")) h += similarity_html(data["similarity"], code);
    return h + "</body></html>\n";
}

}  // namespace grader
