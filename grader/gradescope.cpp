// results.json: Gradescope's results format, with its leaderboard.
#include <cmath>

#include <nlohmann/json.hpp>

#include "outputs.hpp"
#include "outputs_detail.hpp"

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

}  // namespace grader
