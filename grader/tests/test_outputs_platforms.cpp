// The results formats' platform extras: Gradescope's leaderboard, Classroom
// 50's result.json and identity, PrairieLearn's divergence-map images.
#include <doctest/doctest.h>
#include <stdlib.h>  // setenv, unsetenv

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "grader/outputs/classroom50.hpp"
#include "grader/outputs/divergence_svg.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/outputs/report_html.hpp"
#include "grader/tests/outputs_sample.hpp"

using namespace grader;
using namespace grader::testing;
using nlohmann::json;

namespace {

// Lab 02 graded on a GPU: timing at `ratio` the reference's time.
LabResult timed_lab(const std::string& id, std::vector<double> ratios) {
    LabResult lab;
    lab.lab = id;
    lab.submitted = lab.built = true;
    add(lab, "correctness", 60, 60, Status::Passed);
    add(lab, "timing", 5, 10, Status::Failed, false, "2x the reference's time");
    for (double ratio : ratios) {
        Timed t;
        t.median = ratio, t.mine_ms = ratio, t.ref_ms = 1, t.rounds = 31;
        lab.timing.push_back({"scan", "walk4 n=16777216", t});
    }
    return lab;
}

// A kernel of `warps` warps over `steps` steps, every cell a different colour.
harness::KernelDivergence big_kernel(const std::string& name, unsigned steps, unsigned warps) {
    harness::KernelDivergence k{name, 64, warps, {}, {}};
    for (unsigned i = 0; i < steps; ++i) {
        auto& row = k.cells.emplace_back();
        for (unsigned w = 0; w < warps; ++w) row.push_back({(i * 7 + w) % 33 * 2, 2, (i + w) % 5 == 0 ? 1u : 0u});
    }
    return k;
}

Classroom50Identity identity() {
    return {"cuda-fall", "scan-labs", "jdoe", "individual", "submit/2026-09-01T12-00-00Z-abc1234",
            "https://github.com/org/cuda-fall-scan-labs-jdoe/commit/abc1234",
            "https://github.com/org/cuda-fall-scan-labs-jdoe/releases/tag/submit%2F2026-09-01T12-00-00Z-abc1234",
            "https://github.com/org/cuda-fall-scan-labs-jdoe/commit/abc1234", "2026-09-01T12:00:05Z", "2026-09-03T08:00:00Z"};
}

bool whole(const json& v) { return v.is_number_integer() && v.get<long long>() >= 0; }

}  // namespace

TEST_CASE("Gradescope leaderboard: the timing ratio of each lab whose timing was graded") {
    Report r = sample();
    CHECK(!json::parse(gradescope_json(r)).contains("leaderboard"));  // no GPU: timing not gradable, no entry
    r.labs.push_back(timed_lab("02-brent-kung", {2.5734}));
    r.labs.push_back(timed_lab("03-exclusive", {2.0, 8.0}));  // two functions: their geometric mean, 4
    LabResult untimed = timed_lab("04-hierarchical", {});      // graded, but no function was timed
    r.labs.push_back(untimed);
    const json board = json::parse(gradescope_json(r)).at("leaderboard");
    REQUIRE(board.size() == 2);
    CHECK(board[0] == json{{"name", "lab 02 time over reference"}, {"value", 2.573}, {"order", "asc"}});
    CHECK(board[1].at("name") == "lab 03 time over reference");
    CHECK(board[1].at("value").get<double>() == doctest::Approx(4.0));
}

TEST_CASE("Classroom 50 result.json: the schema's fields, whole points that add up") {
    const Report r = sample();
    const json j = json::parse(classroom50_json(r, identity()));
    // schemas/result-v1.schema.json: these keys and no others at the top.
    const std::set<std::string> required{"schema", "classroom", "assignment", "assignment_type", "owner", "submission",
                                         "commit", "release", "review", "datetime", "graded_at", "score", "max-score", "tests"};
    std::set<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.insert(key);
    CHECK(keys == required);
    CHECK(j.at("schema") == "classroom50/result/v1");
    for (const char* key : {"classroom", "assignment", "owner", "commit", "release", "review"})
        CHECK((j.at(key).is_string() && !j[key].get<std::string>().empty()));
    CHECK(j.at("owner") == "jdoe");
    CHECK(j.at("submission").get<std::string>().rfind("submit/", 0) == 0);
    CHECK(j.at("datetime") == "2026-09-01T12:00:05Z");  // the submission's
    CHECK(j.at("graded_at") == "2026-09-03T08:00:00Z");
    REQUIRE(whole(j.at("score")));
    REQUIRE(whole(j.at("max-score")));
    REQUIRE(j.at("tests").size() == 12);  // 3 labs x 4 components
    long long score = 0, max = 0;
    for (const json& t : j["tests"]) {
        CHECK((t.at("test-name").is_string() && !t["test-name"].get<std::string>().empty()));
        CHECK(t.at("passed").is_boolean());
        REQUIRE(whole(t.at("score")));
        REQUIRE(whole(t.at("max-score")));
        CHECK(t["score"].get<long long>() <= t["max-score"].get<long long>());
        score += t["score"].get<long long>();
        max += t["max-score"].get<long long>();
    }
    CHECK(score == j["score"].get<long long>());
    CHECK(max == j["max-score"].get<long long>());
    CHECK(score == 145);  // the report's points, whole already
    CHECK(max == 270);    // timing, not gradable, adds 0
    const json& timing = j["tests"][3];
    CHECK(timing.at("test-name") == "01-kogge-stone timing (not gradable here)");
    CHECK(timing == json{{"test-name", "01-kogge-stone timing (not gradable here)"}, {"lab", "01-kogge-stone"},
                         {"component", "timing"}, {"passed", true}, {"score", 0}, {"max-score", 0},
                         {"message", "not gradable here"}});
    CHECK(j["tests"][6].at("test-name") == "02-brent-kung divergence");
    CHECK(j["tests"][6].at("passed") == false);
    CHECK(j["tests"][6].at("score") == 5);
    CHECK(!contains(j.dump(), "got <"));  // no test output, hidden or not
}

TEST_CASE("Classroom 50 result.json: fractions round to whole points, never up to unearned full marks") {
    Report r;
    LabResult& lab = r.labs.emplace_back();
    lab.lab = "02-brent-kung";
    lab.components = {{"correctness", 59.6, 60, true, "54 of 55 datasets right"},
                      {"safety", 12.5, 20, true, ""},
                      {"divergence", 0.4, 10, true, ""},
                      {"timing", 7.5, 7.5, true, ""}};
    const json j = json::parse(classroom50_json(r, identity()));
    std::vector<long long> scores, maxes;
    for (const json& t : j["tests"]) scores.push_back(t["score"]), maxes.push_back(t["max-score"]);
    CHECK(scores == std::vector<long long>{59, 13, 0, 8});
    CHECK(maxes == std::vector<long long>{60, 20, 10, 8});
    CHECK(j["tests"][0]["message"] == "59.6/60: 54 of 55 datasets right");
    CHECK(j["tests"][3]["passed"] == true);
    CHECK(j["score"] == 80);
    CHECK(j["max-score"] == 98);
}

TEST_CASE("Classroom 50 identity: Classroom 50's environment variables, else 'local'") {
    const char* const names[] = {"CLASSROOM", "ASSIGNMENT", "OWNER", "ASSIGNMENT_TYPE", "SUBMISSION_TAG",
                                 "COMMIT_URL", "RELEASE_URL", "REVIEW_URL"};
    for (const char* name : names) unsetenv(name);
    Classroom50Identity who = classroom50_identity(sample());
    CHECK(who.classroom == "local");
    CHECK(who.owner == "Doe, Jane");
    CHECK(who.assignment_type == "individual");
    CHECK(who.submission == "submit/local");
    CHECK(who.review == "local");
    CHECK(std::regex_match(who.graded_at, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
    CHECK(who.datetime == who.graded_at);  // no submission instant known: the grading time
    Report submitted = sample();
    submitted.submitted_at = "2026-09-01T12:00:05Z";
    const Classroom50Identity regraded = classroom50_identity(submitted);
    CHECK(regraded.datetime == "2026-09-01T12:00:05Z");  // the same on every regrade
    CHECK(regraded.graded_at != regraded.datetime);
    setenv("CLASSROOM", "cuda-fall", 1);
    setenv("OWNER", "jdoe", 1);
    setenv("SUBMISSION_TAG", "submit/x", 1);
    setenv("COMMIT_URL", "https://example/commit/1", 1);
    who = classroom50_identity(sample());
    CHECK(who.classroom == "cuda-fall");
    CHECK(who.owner == "jdoe");
    CHECK(who.submission == "submit/x");
    CHECK(who.review == "https://example/commit/1");  // no REVIEW_URL: the commit's
    for (const char* name : names) unsetenv(name);
}

TEST_CASE("utc_instant: git's %cI and other ISO 8601 instants, in UTC") {
    CHECK(utc_instant("2026-09-01T14:00:05+02:00") == "2026-09-01T12:00:05Z");
    CHECK(utc_instant("2026-09-01T12:00:05Z") == "2026-09-01T12:00:05Z");
    CHECK(utc_instant("2026-08-31T20:30:05-0530") == "2026-09-01T02:00:05Z");  // over midnight
    CHECK(utc_instant("2026-12-31T23:59:59.250-01:00") == "2027-01-01T00:59:59Z");
    CHECK(utc_instant("2026-09-01T12:00:05").empty());  // no offset: which zone?
    CHECK(utc_instant("2026-09-01 12:00:05Z").empty());
    CHECK(utc_instant("2026-13-01T12:00:05Z").empty());
    CHECK(utc_instant("yesterday").empty());
}

TEST_CASE("PrairieLearn images: each kernel's divergence map, as report.html draws it") {
    Report r = sample();
    LabResult& lab = r.labs[1];
    lab.divergence = {{"brent_kung_scan", "walk4 n=8192", {big_kernel("bk_kernel", 3, 2), big_kernel("bk_kernel", 3, 2)},
                       {big_kernel("bk_kernel", 3, 2)}, ""}};
    const json j = json::parse(prairielearn_json(r));
    REQUIRE(j.at("images").size() == 1);  // the colour scale
    CHECK(j["images"][0].at("url") == svg_data_uri(legend_svg(true)));
    const json* divergence = nullptr;
    for (const json& t : j["tests"])
        if (t.contains("images")) divergence = &t;
    REQUIRE(divergence != nullptr);
    CHECK(divergence->at("name") == "02 divergence: public");
    REQUIRE(divergence->at("images").size() == 2);  // yours (two launches summed), the reference's
    const json& mine = (*divergence)["images"][0];
    CHECK(mine.at("label") == "02-brent-kung brent_kung_scan: bk_kernel, yours (SIMT efficiency " +
                                  fixed(100 * by_kernel(lab.divergence[0].mine)[0].total().active_fraction(), 1) + "%)");
    const std::string url = mine.at("url");
    CHECK(url == svg_data_uri(divergence_map_svg(by_kernel(lab.divergence[0].mine)[0], true)));
    CHECK(url.rfind("data:image/svg+xml;base64,", 0) == 0);
    // The same cells as report.html's map: its picture, the tooltips taken out and the namespace declared.
    const std::string inline_svg = divergence_map_svg(by_kernel(lab.divergence[0].mine)[0], false);
    const std::string standalone = divergence_map_svg(by_kernel(lab.divergence[0].mine)[0], true);
    const std::regex tooltip(R"( data-step="\d+" data-warp="\d+" data-fraction="[0-9.]*"><title>[^<]*</title></rect>)");
    CHECK(std::regex_replace(inline_svg, tooltip, "/>") ==
          std::regex_replace(standalone, std::regex(" xmlns=\"http://www.w3.org/2000/svg\""), ""));
    CHECK(contains(report_html(r), inline_svg));
    CHECK(contains((*divergence)["images"][1].at("label"), "the reference's"));
}

TEST_CASE("a function the grader did not score shows n/a, not its kernel's efficiency") {
    // A stub that computes nothing: one launch whose every warp ran all lanes (100%).
    const harness::KernelDivergence idle{"bk_kernel", 1, 1, {{{32, 1, 0}}}, {}};
    Report r = sample();
    LabResult& lab = r.labs[1];
    lab.divergence = {{"brent_kung_scan", "walk4 n=8192", {idle}, {idle}, "not scored: wrong or no outputs on walk4 n=8192"},
                      {"other_scan", "walk4 n=8192", {}, {idle}, "not scored: no kernel ran on walk4 n=8192"}};
    const std::string html = report_html(r);
    CHECK(contains(html, "Yours: SIMT efficiency n/a (not scored: wrong or no outputs on walk4 n=8192)</figcaption>"));
    CHECK(contains(html, "Yours: not scored: no kernel ran on walk4 n=8192</figcaption>"));
    CHECK(contains(html, "Reference: SIMT efficiency 100.0%</figcaption>"));
    CHECK(!contains(html, "Yours: SIMT efficiency 100.0%"));
    CHECK(contains(html, "bk_kernel: 1 block(s) of 1 warp(s), 1 step</div>"));  // yours: no efficiency
    const json j = json::parse(prairielearn_json(r));
    std::vector<std::string> labels;
    for (const json& t : j["tests"])
        for (const json& image : t.value("images", json::array())) labels.push_back(image.at("label"));
    REQUIRE(labels.size() == 3);  // yours of the first; the reference's of both
    CHECK(labels[0] == "02-brent-kung brent_kung_scan: bk_kernel, yours (SIMT efficiency n/a (not scored: wrong or no "
                       "outputs on walk4 n=8192))");
    CHECK(contains(labels[1], "the reference's (SIMT efficiency 100.0%)"));
}

TEST_CASE("PrairieLearn images keep the file within 1 MB, saying which maps were left out") {
    Report r = sample();
    for (LabResult& lab : r.labs) {
        lab.divergence.clear();
        for (int f = 0; f < 4; ++f) {
            DivergenceMaps d{"scan" + std::to_string(f), "walk4 n=8192", {}, {}, ""};
            for (int k = 0; k < 8; ++k) {
                d.mine.push_back(big_kernel("k" + std::to_string(k), 128, 32));
                d.reference.push_back(big_kernel("k" + std::to_string(k), 128, 32));
            }
            lab.divergence.push_back(d);
        }
    }
    const std::string text = prairielearn_json(r);
    CHECK(text.size() <= 1000 * 1000);
    const json j = json::parse(text);
    std::size_t shown = 0;
    for (const json& t : j["tests"]) shown += t.value("images", json::array()).size();
    const std::size_t all = 3 * 4 * 8 * 2;
    CHECK(shown > 0);
    CHECK(shown < all);
    const std::string output = j.at("output");
    CHECK(contains(output, std::to_string(all - shown) + " divergence map(s) left out to keep this file within PrairieLearn's 1 MB"));
    for (const json& t : j["tests"])  // the student's maps go in first
        for (const json& image : t.value("images", json::array())) CHECK(contains(image.at("label"), "yours"));
    CHECK(contains(output, "more lines)"));       // a long list is cut
    // Each picture is a map of 128 x 32 cells: drawn whole, not cut.
    const std::string first = j["tests"][3]["images"][0]["url"];
    CHECK(first == svg_data_uri(divergence_map_svg(big_kernel("k0", 128, 32), true)));
}
