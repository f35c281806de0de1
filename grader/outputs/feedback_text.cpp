// table.txt and feedback.txt: the terminal table (colours for a terminal)
// and the feedback per test under it.
#include <algorithm>
#include <string>

#include "grader/outputs/outputs.hpp"
#include "grader/outputs/outputs_detail.hpp"

namespace grader {

namespace {

const char* const kGreen = "\x1b[32m";
const char* const kYellow = "\x1b[33m";
const char* const kRed = "\x1b[31m";
const char* const kDim = "\x1b[2m";
const char* const kReset = "\x1b[0m";

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

const char* colour_of(Mark mark) {
    const char* const colours[] = {"", kGreen, kYellow, kRed, kDim};  // in Mark's order
    return colours[static_cast<int>(mark)];
}

}  // namespace

std::string aligned_table(const std::vector<std::vector<ScoreCell>>& rows, bool colour) {
    std::vector<std::size_t> width(rows[0].size());
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].text.size());
    std::size_t line = 0;
    for (std::size_t w : width) line += w + 2;
    const bool total = rows.size() > 2 && rows.back()[0].text == "TOTAL";
    std::string out;
    for (std::size_t k = 0; k < rows.size(); ++k) {
        for (std::size_t i = 0; i < rows[k].size(); ++i) {
            const ScoreCell& cell = rows[k][i];
            const std::string pad(width[i] - cell.text.size(), ' ');
            const std::string text = colour && *colour_of(cell.mark) ? colour_of(cell.mark) + cell.text + kReset : cell.text;
            out += i == 0 ? text + pad : "  " + pad + text;  // labs left-aligned, points right
        }
        out += "\n";
        if (k == 0 || (total && k + 2 == rows.size())) out += std::string(line - 2, '-') + "\n";
    }
    return out;
}

std::string terminal_table(const Report& r, bool colour) {
    std::string out = r.submission + " (" + environment(r) + ")\n\n" + aligned_table(score_rows(r), colour);
    const auto notes = all_notes(r);
    if (!notes.empty()) out += "\n";
    for (const std::string& note : notes) out += note + "\n";
    return out;
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

}  // namespace grader
