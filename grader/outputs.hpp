// The files a graded submission is reported in, each written from its Report:
// a terminal table, a feedback text, Gradescope's and PrairieLearn's results
// JSON, JUnit XML for CI, a Markdown job summary, and a gradebook CSV.
//
// Test output comes from processes that ran student code: every format but
// the terminal table (which shows none) strips ANSI escapes and control
// characters from it and replaces invalid UTF-8.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"

namespace grader {

// Points with at most 2 decimals and no trailing zeros: "12", "12.5", "12.33".
std::string format_points(double points);

// One row per lab (correctness, safety, divergence, timing, total; "n/a" where
// not gradable), a TOTAL row with the percentage, then the notes one per line.
// colour: ANSI colours (green full marks, yellow partial, red zero, dim n/a).
std::string terminal_table(const Report& report, bool colour);
// The table, then every test of every lab with its score, status and output.
std::string feedback_text(const Report& report);

// Gradescope's results.json. A not-gradable test is "passed" at 0 of 0 points.
std::string gradescope_json(const Report& report);
// PrairieLearn's external grader results. Hidden tests' output is withheld:
// PrairieLearn shows everything at once, and hidden datasets are shown only
// after grades are published.
std::string prairielearn_json(const Report& report);
// One testsuite per lab, one testcase per test; not gradable = skipped.
std::string junit_xml(const Report& report);
// For $GITHUB_STEP_SUMMARY: total, table, notes, failed tests per lab (their
// output cut to 60 lines; a hidden test's withheld, as for PrairieLearn).
std::string markdown_summary(const Report& report);
// student, one column per lab of the first report, total, max, percent, notes.
std::string gradebook_csv(const std::vector<Report>& reports);

// Writes results.json (Gradescope), prairielearn.json, junit.xml, summary.md,
// feedback.txt and table.txt into `directory`, creating it if missing.
// Throws std::runtime_error naming the path on any I/O failure.
void write_all(const Report& report, const std::string& directory);

// The invariants the outputs rely on (Gradescope totals the tests, the others
// the components): each gradable component's score and maximum are the sums
// over its graded tests, and a graded test outside any gradable component
// scores 0 of 0. One line per violation; empty when consistent.
std::vector<std::string> check_report(const Report& report);

}  // namespace grader
