#include "outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "classroom50.hpp"
#include "divergence_svg.hpp"
#include "files.hpp"
#include "report_html.hpp"

namespace grader {

namespace {

using nlohmann::json;

const char* const kColumns[] = {"correctness", "safety", "divergence", "timing"};
const char* const kGreen = "\x1b[32m";
const char* const kYellow = "\x1b[33m";
const char* const kRed = "\x1b[31m";
const char* const kDim = "\x1b[2m";
const char* const kReset = "\x1b[0m";

double percent(double score, double max) { return max > 0 ? 100 * score / max : 0; }

bool graded(const TestResult& t) { return t.status != Status::NotGradable; }

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

// Each line of `text` after `prefix`.
std::string indent(const std::string& text, const std::string& prefix) {
    std::string out;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t end = std::min(text.find('\n', pos), text.size());
        out += prefix + text.substr(pos, end - pos) + "\n";
        pos = end + 1;
    }
    return out;
}

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

ScoreCell score_cell(double score, double max, bool gradable) {
    if (!gradable) return {"n/a", Mark::None};
    return {fraction(score, max), score >= max ? Mark::Full : score <= 0 ? Mark::Zero : Mark::Partial};
}

const char* colour_of(Mark mark) {
    const char* const colours[] = {"", kGreen, kYellow, kRed, kDim};  // in Mark's order
    return colours[static_cast<int>(mark)];
}

// ---- Per-format escaping

// Inline Markdown: a backslash before what would format text or end a table
// cell, and one line.
std::string md(std::string_view s) {
    std::string out;
    for (char c : clean_text(s)) {
        if (c == '\n' || c == '\r') c = ' ';
        if (std::string_view("\\`*_[]<>|#~").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

// A fenced code block whose fence is longer than any backtick run in `text`.
std::string md_code(const std::string& text) {
    std::size_t run = 0, longest = 0;
    for (char c : text) longest = std::max(longest, run = c == '`' ? run + 1 : 0);
    const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
    return fence + "\n" + text + (text.empty() || text.back() == '\n' ? "" : "\n") + fence + "\n";
}

// RFC 4180: a field holding a comma, quote or line break is quoted, its quotes doubled.
std::string csv(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) out += c == '"' ? "\"\"" : std::string(1, c);
    return out + "\"";
}

std::string time_attribute(double seconds) {
    char buf[48];
    std::snprintf(buf, sizeof buf, " time=\"%.3f\"", seconds);
    return buf;
}

// ---- Gradescope's leaderboard

// One entry per lab whose timing was graded: the student's time over the
// reference's (the geometric mean of its functions' median ratios), lower
// first. None where timing was not gradable or not measured: no GPU, no
// entry (Gradescope shows a leaderboard column per entry name).
json leaderboard(const Report& r) {
    json board = json::array();
    for (const LabResult& lab : r.labs) {
        const Component* timing = find_component(lab, "timing");
        if (!timing || !timing->gradable || lab.timing.empty()) continue;
        double log_sum = 0;
        for (const FunctionTiming& f : lab.timing) log_sum += std::log(f.timed.median);
        const double ratio = std::exp(log_sum / static_cast<double>(lab.timing.size()));
        if (!std::isfinite(ratio)) continue;
        board.push_back({{"name", "lab " + lab.lab.substr(0, 2) + " time over reference"},
                         {"value", std::round(ratio * 1000) / 1000},
                         {"order", "asc"}});
    }
    return board;
}

// ---- PrairieLearn's images

// PrairieLearn takes a results file of up to 1 MB (docs/externalGrading.md);
// the pictures get what the rest leaves, less a margin for the notes.
constexpr std::size_t kPrairieLearnLimit = 1000 * 1000, kNoteMargin = 4096;
constexpr std::size_t kMaxKernelImages = 8;  // per function and side, as report.html draws

struct Picture {
    std::size_t lab;  // index into the report's labs
    json image;       // {"label", "url"}
};

// Each kernel's divergence map, the student's of every lab before the
// reference's (whose maps a student can do without first).
std::vector<Picture> divergence_pictures(const Report& r) {
    std::vector<Picture> mine, reference;
    for (std::size_t i = 0; i < r.labs.size(); ++i)
        for (const DivergenceMaps& d : r.labs[i].divergence)
            for (auto [side, who] : {std::pair{&d.mine, "yours"}, std::pair{&d.reference, "the reference's"}}) {
                const auto kernels = by_kernel(*side);
                for (std::size_t k = 0; k < std::min(kernels.size(), kMaxKernelImages); ++k) {
                    const std::string cut = map_cut_note(kernels[k]);
                    const std::string label = r.labs[i].lab + " " + d.function + ": " + kernels[k].kernel + ", " + who +
                                              " (" + efficiency_label(kernels[k].total().active_fraction(),
                                                                      side == &d.mine ? d.not_scored : "") +
                                              ")" + (cut.empty() ? "" : ". " + cut);
                    (side == &d.mine ? mine : reference)
                        .push_back({i, {{"label", label}, {"url", svg_data_uri(divergence_map_svg(kernels[k], true))}}});
                }
            }
    mine.insert(mine.end(), reference.begin(), reference.end());
    return mine;
}

}  // namespace

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
    std::vector<std::string> notes = r.notes;
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

std::string terminal_table(const Report& r, bool colour) {
    const auto rows = score_rows(r);
    std::vector<std::size_t> width(rows[0].size());
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].text.size());
    std::size_t line = 0;
    for (std::size_t w : width) line += w + 2;
    std::string out = r.submission + " (" + environment(r) + ")\n\n";
    for (std::size_t k = 0; k < rows.size(); ++k) {
        for (std::size_t i = 0; i < rows[k].size(); ++i) {
            const ScoreCell& cell = rows[k][i];
            const std::string pad(width[i] - cell.text.size(), ' ');
            const std::string text = colour && *colour_of(cell.mark) ? colour_of(cell.mark) + cell.text + kReset : cell.text;
            out += i == 0 ? text + pad : "  " + pad + text;  // labs left-aligned, points right
        }
        out += "\n";
        if (k == 0 || k + 2 == rows.size()) out += std::string(line - 2, '-') + "\n";
    }
    const auto notes = all_notes(r);
    if (!notes.empty()) out += "\n";
    for (const std::string& note : notes) out += note + "\n";
    return out;
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

std::string feedback_text(const Report& r) {
    std::string out = terminal_table(r, false);
    for (const LabResult& lab : r.labs) {
        out += "\n" + lab.lab + ": " + fraction(lab.score(), lab.max_score()) + "\n";
        for (const TestResult& t : lab.tests) {
            const std::string points = graded(t) ? fraction(t.score, t.max_score) : "n/a";
            out += "  [" + status_name(t.status) + "] " + t.name + ": " + points + (t.hidden ? " (hidden)" : "") + "\n";
            out += indent(test_output(t), "      ");
        }
    }
    const std::string times = phases_text(r);
    return times.empty() ? out : out + "\n" + times + "\n";
}

std::string gradescope_json(const Report& r) {
    json tests = json::array();
    for (const LabResult& lab : r.labs)
        for (const TestResult& t : lab.tests) {
            // Gradescope knows only passed and failed: a test that cannot run
            // here is no failure of the student's, and at 0/0 moves no total.
            tests.push_back({{"name", t.name},
                             {"score", graded(t) ? t.score : 0.0},
                             {"max_score", graded(t) ? t.max_score : 0.0},
                             {"status", t.status == Status::Failed ? "failed" : "passed"},
                             {"output", test_output(t)},
                             {"visibility", t.hidden ? "after_published" : "visible"},
                             {"tags", json::array({t.lab, t.component})}});
        }
    json doc = {{"score", r.score()},
                {"output", terminal_table(r, false)},
                {"visibility", "visible"},
                {"stdout_visibility", "hidden"},
                {"execution_time", r.seconds},
                {"tests", tests}};
    if (const json board = leaderboard(r); !board.empty()) doc["leaderboard"] = board;
    return dump(doc);
}

std::string prairielearn_json(const Report& r) {
    json tests = json::array();
    std::vector<std::size_t> divergence_test(r.labs.size(), SIZE_MAX);  // each lab's first divergence test
    for (std::size_t i = 0; i < r.labs.size(); ++i)
        for (const TestResult& t : r.labs[i].tests) {
            if (t.component == "divergence" && divergence_test[i] == SIZE_MAX) divergence_test[i] = tests.size();
            tests.push_back({{"name", t.name},
                             {"description", t.lab + " " + t.component + (t.hidden ? " (hidden dataset)" : "")},
                             {"points", graded(t) ? t.score : 0.0},
                             {"max_points", graded(t) ? t.max_score : 0.0},
                             {"output", immediate_output(t)},
                             {"message", status_name(t.status)}});
        }
    const double max = r.max_score();
    json doc = {{"gradable", true},
                {"score", max > 0 ? std::clamp(r.score() / max, 0.0, 1.0) : 0.0},
                {"message", "Total " + total_text(r)},
                {"output", terminal_table(r, false)},
                {"tests", tests}};
    // The maps go with each lab's divergence test (the result's own images
    // where a lab has none), the colour scale with the result; those that
    // would take the file past the limit are left out, and the file says so.
    std::vector<Picture> pictures = divergence_pictures(r);
    if (pictures.empty()) return dump(doc);
    pictures.insert(pictures.begin(), {SIZE_MAX, {{"label", "colour scale: active lanes per warp"}, {"url", svg_data_uri(legend_svg(true))}}});
    std::size_t size = dump(doc).size() + kNoteMargin;
    std::vector<std::string> left_out;
    for (const Picture& p : pictures) {
        const std::size_t bytes = p.image.dump().size() + 64;  // the entry, its indentation and the images key
        const bool fits = size + bytes <= kPrairieLearnLimit;
        json& holder = p.lab != SIZE_MAX && divergence_test[p.lab] != SIZE_MAX ? doc["tests"][divergence_test[p.lab]] : doc;
        if (fits) holder["images"].push_back(p.image), size += bytes;
        else left_out.push_back(p.image["label"]);
    }
    if (!left_out.empty()) {
        std::string note = "\n" + std::to_string(left_out.size()) + " divergence map(s) left out to keep this file within "
                           "PrairieLearn's 1 MB; report.html has them all:";
        for (const std::string& label : left_out) note += "\n  " + label;
        doc["output"] = doc["output"].get<std::string>() + truncate_lines(note, 20);
    }
    return dump(doc);
}

std::string junit_xml(const Report& r) {
    struct Counts {
        std::size_t tests = 0, failures = 0, skipped = 0;
        double seconds = 0;
        std::string attributes() const {
            return " tests=\"" + std::to_string(tests) + "\" failures=\"" + std::to_string(failures) +
                   "\" skipped=\"" + std::to_string(skipped) + "\"" + time_attribute(seconds);
        }
        void add(const Counts& c) {
            tests += c.tests, failures += c.failures, skipped += c.skipped, seconds += c.seconds;
        }
    };
    Counts all;
    std::string suites;
    for (const LabResult& lab : r.labs) {
        Counts suite;
        std::string cases;
        for (const TestResult& t : lab.tests) {
            std::string body;
            if (t.status == Status::Failed)
                body = "<failure message=\"score " + fraction(t.score, t.max_score) + "\">" + xml_escape(t.output) +
                       "</failure>";
            else if (!graded(t))
                body = "<skipped message=\"" + xml_escape(test_output(t)) + "\"/>";
            else if (!t.output.empty())
                body = "<system-out>" + xml_escape(t.output) + "</system-out>";
            cases += "    <testcase classname=\"" + xml_escape(lab.lab) + "\" name=\"" + xml_escape(t.name) + "\"" +
                     time_attribute(t.seconds) + (body.empty() ? "/>\n" : ">" + body + "</testcase>\n");
            suite.add({1, t.status == Status::Failed, !graded(t), t.seconds});
        }
        suites += "  <testsuite name=\"" + xml_escape(lab.lab) + "\"" + suite.attributes() + ">\n" + cases +
                  "  </testsuite>\n";
        all.add(suite);
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + xml_escape("scan-labs: " + r.submission) +
           "\"" + all.attributes() + ">\n" + suites + "</testsuites>\n";
}

std::string markdown_summary(const Report& r) {
    std::string out =
        "## " + md(r.submission) + ": " + total_text(r) + "\n\nGraded with " + md(environment(r)) + ".\n\n";
    const auto rows = score_rows(r);
    for (std::size_t k = 0; k < rows.size(); ++k) {
        out += "|";
        for (const ScoreCell& cell : rows[k]) out += " " + md(cell.text) + " |";
        out += "\n";
        if (k == 0) {  // labs left-aligned, points right
            out += "|:--|";
            for (std::size_t i = 1; i < rows[k].size(); ++i) out += "--:|";
            out += "\n";
        }
    }
    const auto notes = all_notes(r);
    if (!notes.empty()) out += "\n";
    for (const std::string& note : notes) out += "- " + md(note) + "\n";
    for (const LabResult& lab : r.labs) {
        std::string failed;
        std::size_t count = 0;
        for (const TestResult& t : lab.tests) {
            if (t.status != Status::Failed) continue;
            ++count;
            failed += "**" + md(t.name) + "**: " + fraction(t.score, t.max_score) + (t.hidden ? " (hidden)" : "") +
                      "\n\n" + md_code(truncate_lines(immediate_output(t), 60)) + "\n";
        }
        // Only labs with a failed test: the table already says the rest passed.
        if (count > 0)
            out += "\n<details><summary>" + lab.lab + ": " + std::to_string(count) + " failed test" +
                   (count == 1 ? "" : "s") + "</summary>\n\n" + failed + "</details>\n";
    }
    return out;
}

std::string gradebook_csv(const std::vector<Report>& reports) {
    std::vector<std::string> labs;
    if (!reports.empty())
        for (const LabResult& lab : reports[0].labs) labs.push_back(lab.lab);
    const auto line = [](const std::vector<std::string>& fields) {
        std::string out;
        for (const std::string& f : fields) out += (out.empty() ? "" : ",") + csv(f);
        return out + "\r\n";
    };
    std::vector<std::string> header{"student"};
    header.insert(header.end(), labs.begin(), labs.end());
    header.insert(header.end(), {"total", "max", "percent", "flags", "notes"});
    std::string out = line(header);
    for (const Report& r : reports) {
        std::vector<std::string> row{r.submission};
        for (const std::string& id : labs) {
            const auto lab =
                std::find_if(r.labs.begin(), r.labs.end(), [&](const LabResult& l) { return l.lab == id; });
            // A lab with nothing gradable here (one that needs a GPU) scored no zero.
            row.push_back(lab == r.labs.end() ? "" : lab->gradable() ? format_points(lab->score()) : "n/a");
        }
        std::string notes, flags = r.refused.empty() ? "" : "not graded: " + r.refused;
        for (const std::string& note : all_notes(r)) notes += (notes.empty() ? "" : "; ") + note;
        for (const std::string& flag : r.flags) flags += (flags.empty() ? "" : "; ") + flag;
        for (const LabResult& lab : r.labs)
            if (!lab.emulator_limits.empty())
                flags += (flags.empty() ? "" : "; ") + lab.lab +
                         (lab.gradable() ? ": graded on the GPU only (emulator limit)" : ": needs a GPU to grade (emulator limit)");
        row.insert(row.end(), {format_points(r.score()), format_points(r.max_score()),
                               format_points(percent(r.score(), r.max_score())), flags, notes});
        out += line(row);
    }
    return out;
}

std::string write_gradebook(const std::vector<Report>& reports, const std::string& out) {
    write_file(out + "/gradebook.csv", gradebook_csv(reports));
    std::string lines;
    char line[256];
    for (const Report& r : reports) {
        std::snprintf(line, sizeof line, "%-32s %7.2f / %.2f\n", r.submission.c_str(), r.score(), r.max_score());
        lines += line;
    }
    return lines;
}

void write_all(const Report& r, const std::string& directory) {
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) throw std::runtime_error("cannot create directory " + directory + ": " + error.message());
    const std::pair<const char*, std::string> files[] = {
        {"results.json", gradescope_json(r)}, {"prairielearn.json", prairielearn_json(r)},
        {"junit.xml", junit_xml(r)},          {"summary.md", markdown_summary(r)},
        {"feedback.txt", feedback_text(r)},   {"table.txt", terminal_table(r, false)},
        {"phases.json", phases_json(r)},      {"report.html", report_html(r)},
        {"result.json", classroom50_json(r, classroom50_identity(r))}};
    for (const auto& [name, text] : files) write_file((std::filesystem::path(directory) / name).string(), text);
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
