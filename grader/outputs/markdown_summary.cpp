// summary.md: the Markdown job summary ($GITHUB_STEP_SUMMARY).
#include <algorithm>
#include <string_view>

#include "grader/outputs/outputs.hpp"
#include "grader/outputs/outputs_detail.hpp"

namespace grader {

namespace {

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

}  // namespace

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

}  // namespace grader
