// The files a graded submission is reported in, each written from its Report:
// a terminal table, a feedback text, Gradescope's, Classroom 50's and
// PrairieLearn's results JSON, JUnit XML for CI, a Markdown job summary, SARIF for
// GitHub code scanning, and a gradebook CSV.
// Each format is written by a source of its own (write_all.cpp names them).
//
// Test output comes from processes that ran student code: every format but
// the terminal table (which shows none) strips ANSI escapes and control
// characters from it and replaces invalid UTF-8.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "grader/core/report.hpp"

namespace grader {

// Points with at most 2 decimals and no trailing zeros: "12", "12.5", "12.33".
std::string format_points(double points);
// v with exactly `digits` decimals: fixed(2.5734, 3) is "2.573".
std::string fixed(double v, int digits);

// ---- Pieces every format shares (report_html.cpp too)

const Component* find_component(const LabResult& lab, const std::string& name);  // nullptr when absent
std::string fraction(double score, double max);  // "12.5/20"
std::string total_text(const Report& report);    // "312.5/400 (78.13%)"
std::string environment(const Report& report);   // "emu on the CPU emulator, sandboxed"
std::vector<std::string> all_notes(const Report& report);  // the run's notes, the report's, then each lab's own
std::string status_name(Status status);                    // "passed", "failed", "not graded"
// Student output made safe for every format: ANSI escapes removed, invalid
// UTF-8 replaced by U+FFFD, and only characters XML 1.0 allows kept, less
// the control characters DEL and C1 (tab, newline and CR stay).
std::string clean_text(std::string_view s);
// A URI reference's path segment: what is not unreserved (RFC 3986) as %XX
// (SARIF's file names, class.html's links).
std::string uri_segment(const std::string& s);
// clean_text, then & < > " ' as entities: for XML and HTML text and attributes.
std::string xml_escape(std::string_view s);
// What a student reads for a test; for a not-gradable one, why.
std::string test_output(const TestResult& test);
// Where everything is shown at once (PrairieLearn, a CI job summary, the HTML
// report), a hidden dataset's output is withheld: it is shown only after grades are published.
std::string immediate_output(const TestResult& test);

// The score table: a header row, one row per lab, then TOTAL (summed per
// column over the labs where that component is gradable, and the report's
// total with its percentage). Each cell says how it reads.
enum class Mark { Label, Full, Partial, Zero, None };  // None: not applicable or absent
struct ScoreCell {
    std::string text;
    Mark mark;
};
std::vector<std::vector<ScoreCell>> score_rows(const Report& report);
ScoreCell score_cell(double score, double max, bool gradable);  // "12.5/20", marked; "n/a" where not gradable
// Rows in aligned columns (the first left-aligned, the others right), a rule
// under the header and, where the last row is TOTAL, above it; colour as terminal_table's.
std::string aligned_table(const std::vector<std::vector<ScoreCell>>& rows, bool colour);

// "graded in 41.5 s: build emu 8.1 s, ..., timing 12 s" (the phases overlap);
// "" when the report has no times (a submission that could not be read).
std::string phases_text(const Report& report);
// The same as JSON, for benchmarks: {"total_s": 41.5, "phases": [{"name": "build emu", "s": 8.1}, ...]}.
std::string phases_json(const Report& report);

// One row per lab (correctness, safety, divergence, timing, total; "n/a" where
// not gradable), a TOTAL row with the percentage, then the notes one per line.
// colour: ANSI colours (green full marks, yellow partial, red zero, dim n/a).
std::string terminal_table(const Report& report, bool colour);
// The table, then every test of every lab with its score, status and output.
std::string feedback_text(const Report& report);

// Gradescope's results.json. A not-gradable test is "passed" at 0 of 0 points.
// Where timing was graded, a leaderboard entry per lab: its time over the reference's.
std::string gradescope_json(const Report& report);
// PrairieLearn's external grader results. Hidden tests' output is withheld:
// PrairieLearn shows everything at once, and hidden datasets are shown only
// after grades are published. Each kernel's divergence map as an image, as
// many as its 1 MB limit holds.
std::string prairielearn_json(const Report& report);
// One testsuite per lab, one testcase per test; not gradable = skipped.
std::string junit_xml(const Report& report);
// For $GITHUB_STEP_SUMMARY: total, table, notes, failed tests per lab (their
// output cut to 60 lines; a hidden test's withheld, as for PrairieLearn).
std::string markdown_summary(const Report& report);
// SARIF 2.1.0 for GitHub code scanning (sarif.cpp): one run of the tool
// "scan-grade", a rule per finding check, a result per distinct finding of
// every lab (distinct_findings.hpp: the same found again in other blocks or
// datasets is one, its message giving the sizes it showed at), error or, for a leak,
// warning, at labs/<lab>/<file> (uriBaseId %SRCROOT%, the student
// repository's root) and its line (none for a finding that names no line:
// the file alone), its other places as relatedLocations; the worst first:
// errors before warnings, undefined behaviour first.
std::string sarif_json(const Report& report);
// student, one column per lab of the first report, total, max, percent,
// flags, notes: each student's own, less the run notes every graded one
// shares (gradebook.hpp, which writes it at a batch's end).
std::string gradebook_csv(const std::vector<Report>& reports);

// Writes results.json (Gradescope), result.json (Classroom 50, classroom50.hpp),
// prairielearn.json, junit.xml, summary.md, results.sarif, feedback.txt, table.txt,
// phases.json and report.html (report_html.hpp) into `directory`, creating it if missing.
// Throws std::runtime_error naming the path on any I/O failure.
void write_all(const Report& report, const std::string& directory);

// The invariants the outputs rely on (Gradescope totals the tests, the others
// the components): each gradable component's score and maximum are the sums
// over its graded tests, and a graded test outside any gradable component
// scores 0 of 0. One line per violation; empty when consistent.
std::vector<std::string> check_report(const Report& report);

}  // namespace grader
