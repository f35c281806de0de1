#include "grader/outputs/outputs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "grader/outputs/outputs_detail.hpp"

// The pieces every format shares and phases.json; write_all.cpp writes
// each format's file.

namespace grader {

namespace {

using nlohmann::json;

const char* const kColumns[] = {"correctness", "safety", "divergence", "timing"};

// Index just past the ANSI escape sequence at s[i] (an ESC): CSI "ESC [
// parameters final-byte", OSC "ESC ] ... BEL-or-ST", else ESC and one byte.
std::size_t skip_escape(std::string_view s, std::size_t i) {
    if (i + 1 >= s.size()) return s.size();
    std::size_t j = i + 2;
    if (s[i + 1] == '[') {
        while (j < s.size() && s[j] >= 0x20 && s[j] <= 0x3f) ++j;
        return j < s.size() && s[j] >= 0x40 && s[j] <= 0x7e ? j + 1 : j;
    }
    if (s[i + 1] == ']') {
        j = s.find_first_of("\a\x1b", j);
        if (j == std::string_view::npos) return s.size();
        return s[j] == '\a' ? j + 1 : std::min(j + 2, s.size());
    }
    return j;
}

// The code point at s[i] and its length in bytes; U+FFFD and 1 for a byte
// that does not start a valid, shortest UTF-8 sequence.
std::pair<char32_t, std::size_t> decode_utf8(std::string_view s, std::size_t i) {
    const unsigned char lead = s[i];
    if (lead < 0x80) return {lead, 1};
    const std::size_t len = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 0;
    if (len == 0 || lead > 0xf4 || i + len > s.size()) return {0xfffd, 1};
    char32_t cp = lead & (0x7f >> len);
    for (std::size_t k = 1; k < len; ++k) {
        const unsigned char next = s[i + k];
        if ((next & 0xc0) != 0x80) return {0xfffd, 1};
        cp = cp << 6 | (next & 0x3f);
    }
    const char32_t shortest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < shortest[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return {0xfffd, 1};
    return {cp, len};
}

}  // namespace

// The first `max_lines` lines, and how many more there were.
std::string truncate_lines(const std::string& text, std::size_t max_lines) {
    std::size_t pos = 0;
    for (std::size_t n = 0; n < max_lines && pos < text.size(); ++n) {
        pos = text.find('\n', pos);
        if (pos == std::string::npos) return text;
        ++pos;
    }
    if (pos >= text.size()) return text;
    const auto more = std::count(text.begin() + pos, text.end(), '\n') + (text.back() != '\n');
    return text.substr(0, pos) + "... (" + std::to_string(more) + " more lines)\n";
}

std::string dump(const json& j) {
    // Lab and test names are ours, but replace rather than throw on bad UTF-8.
    return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

// ---- Shared by the formats (declared in outputs.hpp)

const Component* find_component(const LabResult& lab, const std::string& name) {
    for (const Component& c : lab.components)
        if (c.name == name) return &c;
    return nullptr;
}

std::string fraction(double score, double max) { return format_points(score) + "/" + format_points(max); }

std::string total_text(const Report& r) {
    return fraction(r.score(), r.max_score()) + " (" + format_points(percent(r.score(), r.max_score())) + "%)";
}

std::string environment(const Report& r) {
    return r.backend + " on " + r.device + (r.sandboxed ? ", sandboxed" : "") + (r.hidden.empty() ? "" : "; " + r.hidden);
}

std::vector<std::string> all_notes(const Report& r) {
    std::vector<std::string> notes = r.run_notes;
    notes.insert(notes.end(), r.notes.begin(), r.notes.end());
    for (const LabResult& lab : r.labs)
        if (!lab.note.empty()) notes.push_back(lab.lab + ": " + lab.note);
    return notes;
}

std::string status_name(Status s) {
    return s == Status::Passed ? "passed" : s == Status::Failed ? "failed" : "not graded";
}

std::string clean_text(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        if (s[i] == '\x1b') {
            i = skip_escape(s, i);
            continue;
        }
        const auto [cp, len] = decode_utf8(s, i);
        const bool allowed = cp == '\t' || cp == '\n' || cp == '\r' || (cp >= 0x20 && cp < 0x7f) ||
                             (cp >= 0xa0 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000;
        if (allowed) out += cp == 0xfffd && len == 1 ? std::string_view("\xef\xbf\xbd") : s.substr(i, len);
        i += len;
    }
    return out;
}

std::string test_output(const TestResult& t) {
    if (graded(t)) return clean_text(t.output);
    return "Not graded" + (t.output.empty() ? std::string(".") : ": " + clean_text(t.output));
}

std::string immediate_output(const TestResult& t) {
    return t.hidden ? "Hidden dataset: output shown after grades are published." : test_output(t);
}

std::string uri_segment(const std::string& s) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') out += static_cast<char>(c);
        else out += std::string("%") + hex[c >> 4] + hex[c & 15];
    }
    return out;
}

std::string xml_escape(std::string_view s) {
    std::string out;
    for (char c : clean_text(s)) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&apos;"; break;
            default: out += c;
        }
    }
    return out;
}

ScoreCell score_cell(double score, double max, bool gradable) {
    if (!gradable) return {"n/a", Mark::None};
    return {fraction(score, max), score >= max ? Mark::Full : score <= 0 ? Mark::Zero : Mark::Partial};
}

std::vector<std::vector<ScoreCell>> score_rows(const Report& r) {
    std::vector<std::vector<ScoreCell>> rows{{{"lab", Mark::Label}}};
    for (const char* name : kColumns) rows[0].push_back({name, Mark::Label});
    rows[0].push_back({"total", Mark::Label});
    Component totals[std::size(kColumns)];
    for (Component& t : totals) t.gradable = false;
    for (const LabResult& lab : r.labs) {
        std::vector<ScoreCell>& row = rows.emplace_back(std::vector<ScoreCell>{{lab.lab, Mark::Label}});
        for (std::size_t i = 0; i < std::size(kColumns); ++i) {
            const Component* c = find_component(lab, kColumns[i]);
            row.push_back(c ? score_cell(c->score, c->max_score, c->gradable) : ScoreCell{"-", Mark::None});
            if (c && c->gradable) {
                totals[i].score += c->score;
                totals[i].max_score += c->max_score;
                totals[i].gradable = true;
            }
        }
        row.push_back(score_cell(lab.score(), lab.max_score(), true));
    }
    std::vector<ScoreCell>& total = rows.emplace_back(std::vector<ScoreCell>{{"TOTAL", Mark::Label}});
    for (const Component& t : totals) total.push_back(score_cell(t.score, t.max_score, t.gradable));
    total.push_back(score_cell(r.score(), r.max_score(), true));
    total.back().text = total_text(r);
    return rows;
}

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string format_points(double points) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", points);
    std::string s = buf;
    if (s.find('.') == std::string::npos) return s;  // inf, nan
    s.erase(s.find_last_not_of('0') + 1);
    if (s.back() == '.') s.pop_back();
    return s == "-0" ? "0" : s;
}

std::string phases_text(const Report& r) {
    if (r.seconds <= 0) return "";
    std::string out = "graded in " + fixed(r.seconds, 1) + " s";
    for (std::size_t i = 0; i < r.phases.size(); ++i)
        out += (i ? ", " : ": ") + r.phases[i].name + " " + fixed(r.phases[i].seconds, 1) + " s";
    for (std::size_t i = 0; i < r.cached.size(); ++i)
        out += (i ? ", " : "; from the result cache: ") + r.cached[i];
    return out;
}

std::string phases_json(const Report& r) {
    json phases = json::array();
    for (const Phase& p : r.phases) phases.push_back({{"name", p.name}, {"s", p.seconds}});
    return dump({{"total_s", r.seconds}, {"phases", phases}, {"cached", r.cached}});
}

std::vector<std::string> check_report(const Report& r) {
    const auto near = [](double a, double b) { return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b)); };
    std::vector<std::string> problems;
    for (const LabResult& lab : r.labs) {
        for (const TestResult& t : lab.tests) {
            const Component* c = find_component(lab, t.component);
            if (t.lab != lab.lab) problems.push_back(t.name + ": listed under " + lab.lab + " but names " + t.lab);
            if (graded(t) && (t.score < 0 || t.score > t.max_score))
                problems.push_back(t.name + ": scores " + fraction(t.score, t.max_score));
            if (graded(t) && !(c && c->gradable) && (t.score != 0 || t.max_score != 0))
                problems.push_back(t.name + ": " + fraction(t.score, t.max_score) + " outside a gradable component");
        }
        for (const Component& c : lab.components) {
            double score = 0, max = 0;
            for (const TestResult& t : lab.tests)
                if (t.component == c.name && graded(t)) score += t.score, max += t.max_score;
            if (c.gradable && !(near(score, c.score) && near(max, c.max_score)))
                problems.push_back(lab.lab + " " + c.name + ": tests sum to " + fraction(score, max) +
                                   ", component says " + fraction(c.score, c.max_score));
        }
    }
    return problems;
}

}  // namespace grader
