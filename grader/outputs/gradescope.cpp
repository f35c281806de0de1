// results.json: Gradescope's results format, with its leaderboard. What a
// student sees and when follows Gradescope's "Autograder Specifications"
// (gradescope-autograders.readthedocs.io/en/latest/specs/): a test's
// visibility, and "If test cases are hidden, students will not be able to
// see their total score"; the top-level output is rendered as
// output_format says, "simple_format" (HTML) by default.
#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "grader/outputs/outputs.hpp"
#include "grader/outputs/outputs_detail.hpp"

namespace grader {

namespace {

using nlohmann::json;

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

// Whether a test is withheld until grades are published: the hidden
// datasets' own, and in a lab that has them the components the grader
// scales by correctness on every dataset (scorers.hpp), whose points would
// tell how the hidden ones went. A not-gradable one (0 of 0) tells nothing.
bool withheld(const LabResult& lab, const TestResult& t) {
    if (t.hidden) return true;
    const bool scaled = t.component == "safety" || t.component == "divergence" || t.component == "timing";
    return scaled && graded(t) && std::any_of(lab.tests.begin(), lab.tests.end(), [](const TestResult& u) { return u.hidden; });
}

// The score table as students see it before grades are published: per lab
// and component, the points of the tests shown; no total, which Gradescope
// hides while a test is withheld.
std::vector<std::vector<ScoreCell>> shown_rows(const Report& r) {
    const char* const columns[] = {"correctness", "safety", "divergence", "timing"};
    std::vector<std::vector<ScoreCell>> rows{{{"lab", Mark::Label}}};
    for (const char* name : columns) rows[0].push_back({name, Mark::Label});
    for (const LabResult& lab : r.labs) {
        std::vector<ScoreCell>& row = rows.emplace_back(std::vector<ScoreCell>{{lab.lab, Mark::Label}});
        for (const char* name : columns) {
            double score = 0, max = 0;
            bool any = false, gradable = false, hidden = false;
            for (const TestResult& t : lab.tests) {
                if (t.component != name) continue;
                any = true;
                if (withheld(lab, t)) {
                    hidden = hidden || name != std::string("correctness");
                    continue;
                }
                gradable = gradable || graded(t);
                if (graded(t)) score += t.score, max += t.max_score;
            }
            row.push_back(!any ? ScoreCell{"-", Mark::None}
                          : hidden ? ScoreCell{"when published", Mark::None}
                                   : score_cell(score, max, gradable));
        }
    }
    return rows;
}

// The top-level output: the table in a Markdown code block, which keeps its
// columns (simple_format and HTML collapse runs of spaces), then the notes.
std::string shown_output(const Report& r) {
    std::string text = r.submission + " (" + environment(r) + ")\n\n" + aligned_table(shown_rows(r), false);
    bool any_withheld = false;
    for (const LabResult& lab : r.labs)
        for (const TestResult& t : lab.tests) any_withheld = any_withheld || withheld(lab, t);
    if (any_withheld)
        text += "\ncorrectness: the public datasets' tests. The hidden datasets' tests, and safety, divergence and timing,\n"
                "which scale with correctness on every dataset, show with the total when grades are published.\n";
    const auto notes = all_notes(r);
    if (!notes.empty()) text += "\n";
    for (const std::string& note : notes) text += note + "\n";
    std::string fence = "```";
    while (text.find(fence) != std::string::npos) fence += '`';
    return fence + "\n" + clean_text(text) + fence + "\n";
}

}  // namespace

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
                             {"visibility", withheld(lab, t) ? "after_published" : "visible"},
                             {"tags", json::array({t.lab, t.component})}});
        }
    json doc = {{"score", r.score()},
                {"output", shown_output(r)},
                {"output_format", "md"},
                {"visibility", "visible"},
                {"stdout_visibility", "hidden"},
                {"execution_time", r.seconds},
                {"tests", tests}};
    if (const json board = leaderboard(r); !board.empty()) doc["leaderboard"] = board;
    return dump(doc);
}

}  // namespace grader
