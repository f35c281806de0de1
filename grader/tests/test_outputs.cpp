#include <doctest/doctest.h>
#include <stdlib.h>  // mkdtemp

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "classroom50.hpp"
#include "divergence_svg.hpp"
#include "outputs.hpp"
#include "report_html.hpp"
#include "result_cache.hpp"

using namespace grader;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kNasty = "got <&\"x\"> at 7 \x1b[31mwrong\x1b[0m\x01";

// Appends a test and adds its points to its component (the build step has none).
void add(LabResult& lab, const std::string& component, double score, double max, Status status,
         bool hidden = false, const std::string& output = "") {
    const std::string name = lab.lab.substr(0, 2) + " " + component + (hidden ? ": hidden" : ": public");
    lab.tests.push_back({name, lab.lab, component, score, max, status, hidden, output, 0.25});
    if (component == "build") return;
    auto c = std::find_if(lab.components.begin(), lab.components.end(),
                          [&](const Component& x) { return x.name == component; });
    if (c == lab.components.end()) c = lab.components.insert(c, {component, 0, 0, status != Status::NotGradable, ""});
    c->score += score;
    c->max_score += max;
}

// Full marks; a failed hidden test and partial divergence; a build failure.
// Timing is never gradable (no GPU). Total 145/270; 16 tests, 7 failed, 3 skipped.
Report sample(const std::string& student = "Doe, Jane") {
    Report r{student, "emu", "CPU emulator", true, {"sandbox: bubblewrap"}, {}};
    std::string long_output;
    for (int i = 0; i < 100; ++i) long_output += "line " + std::to_string(i) + "\n";
    for (const char* id : {"01-kogge-stone", "02-brent-kung", "04-hierarchical"}) {
        LabResult& lab = r.labs.emplace_back();
        lab.lab = id;
        lab.submitted = true;
        lab.built = lab.lab != "04-hierarchical";
        if (!lab.built) {
            lab.note = "build failed: scan.cu:12: expected ';'";
            add(lab, "build", 0, 0, Status::Failed, false, "scan.cu:12: error: expected ';'");
        }
        const bool first = lab.lab == "01-kogge-stone";
        const Status ok = lab.built ? Status::Passed : Status::Failed;
        add(lab, "correctness", lab.built ? 30 : 0, 30, ok);
        add(lab, "correctness", first ? 30 : 0, 30, first ? Status::Passed : Status::Failed, true, kNasty);
        add(lab, "safety", lab.built ? 20 : 0, 20, ok);
        add(lab, "divergence", first ? 10 : lab.built ? 5 : 0, 10, first ? Status::Passed : Status::Failed, false,
            long_output);
        add(lab, "timing", 0, 10, Status::NotGradable, false, "no GPU on this machine");
    }
    r.phases = {{"build emu", 3.25}, {"datasets emu", 8.5}, {"divergence", 0.75}};
    r.seconds = 12.5;
    return r;
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
    return n;
}

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace

TEST_CASE("golden files: each results format of the sample report, byte for byte") {
    // The files a platform reads, as the sample report gives them, kept in
    // grader/tests/golden/ (this test's working folder): a change of format
    // is reviewed as their diff. SCAN_GRADE_UPDATE_GOLDEN=1 writes them anew.
    Report r = sample();
    Classroom50Identity who{"scan-course", "scan-labs", "Doe, Jane", "individual", "submit/local",
                            "local", "local", "local", "2026-11-27T00:00:00Z"};
    const std::pair<const char*, std::string> files[] = {
        {"results.json", gradescope_json(r)},    {"prairielearn.json", prairielearn_json(r)},
        {"junit.xml", junit_xml(r)},             {"summary.md", markdown_summary(r)},
        {"result.json", classroom50_json(r, who)}, {"feedback.txt", feedback_text(r)},
        {"table.txt", terminal_table(r, false)}, {"gradebook.csv", gradebook_csv({r, sample("O\"Neil")})}};
    const char* update = std::getenv("SCAN_GRADE_UPDATE_GOLDEN");
    for (const auto& [name, text] : files) {
        CAPTURE(name);
        if (update && *update) {
            std::ofstream(name, std::ios::binary) << text;
            continue;
        }
        std::ifstream in(name, std::ios::binary);
        REQUIRE_MESSAGE(in, "no golden file " << name << ": SCAN_GRADE_UPDATE_GOLDEN=1 writes it");
        const std::string golden((std::istreambuf_iterator<char>(in)), {});
        CHECK_MESSAGE(text == golden, name << " differs from grader/tests/golden/" << name
                                           << " (SCAN_GRADE_UPDATE_GOLDEN=1 meson test outputs writes it anew)");
    }
}

TEST_CASE("scores total the gradable components; check_report finds inconsistencies") {
    Report r = sample();
    CHECK(r.score() == 145);
    CHECK(r.max_score() == 270);
    CHECK(r.labs[0].max_score() == 90);  // timing's 10 points are out of the denominator
    CHECK(check_report(r).empty());
    r.labs[1].components[0].score += 1;
    r.labs[1].tests.push_back({"extra", "02-brent-kung", "build", 1, 1, Status::Passed, false, "", 0});
    CHECK(check_report(r).size() == 2);
}

TEST_CASE("phase times: a line for people, JSON for benchmarks, absent when nothing was timed") {
    Report r = sample();
    CHECK(phases_text(r) == "graded in 12.5 s: build emu 3.2 s, datasets emu 8.5 s, divergence 0.8 s");
    const json j = json::parse(phases_json(r));
    CHECK(j.at("total_s").get<double>() == doctest::Approx(12.5));
    REQUIRE(j.at("phases").size() == 3);
    CHECK(j["phases"][1].at("name") == "datasets emu");
    CHECK(j["phases"][1].at("s").get<double>() == doctest::Approx(8.5));
    CHECK(contains(feedback_text(r), "\ngraded in 12.5 s: build emu"));
    r.seconds = 0;
    r.phases.clear();
    CHECK(phases_text(r).empty());
    CHECK(!contains(feedback_text(r), "graded in"));
}

TEST_CASE("points have at most two decimals") {
    CHECK(format_points(12) == "12");
    CHECK(format_points(12.5) == "12.5");
    CHECK(format_points(37.0 / 3) == "12.33");
    CHECK(format_points(59.999) == "60");
    CHECK(format_points(-0.001) == "0");
}

TEST_CASE("Gradescope results") {
    const Report r = sample();
    const json j = json::parse(gradescope_json(r));
    REQUIRE(j.at("score").is_number());
    CHECK(j.at("output").is_string());
    CHECK(contains(j["output"], "sandbox: bubblewrap"));
    CHECK(j.at("visibility") == "visible");
    CHECK(j.at("stdout_visibility") == "hidden");
    CHECK(j.at("execution_time").get<double>() == doctest::Approx(12.5));  // the whole grading's
    REQUIRE(j.at("tests").is_array());
    REQUIRE(j["tests"].size() == 16);
    const std::set<std::string> visibilities{"visible", "hidden", "after_due_date", "after_published"};
    double sum = 0, sum_max = 0;
    std::size_t i = 0;
    for (const LabResult& lab : r.labs)
        for (const TestResult& t : lab.tests) {
            const json& g = j["tests"][i++];
            REQUIRE(g.at("name").is_string());
            REQUIRE(g.at("score").is_number());
            REQUIRE(g.at("max_score").is_number());
            REQUIRE(g.at("output").is_string());
            CHECK((g.at("status") == "passed" || g.at("status") == "failed"));
            CHECK(visibilities.count(g.at("visibility").get<std::string>()) == 1);
            CHECK(g.at("tags") == json::array({t.lab, t.component}));
            CHECK((g["visibility"] == "after_published") == t.hidden);
            if (t.status == Status::NotGradable) {
                CHECK(g["max_score"] == 0);
                CHECK(g["status"] == "passed");
                CHECK(contains(g["output"], "no GPU"));
            }
            sum += g["score"].get<double>();
            sum_max += g["max_score"].get<double>();
        }
    CHECK(j["score"].get<double>() == doctest::Approx(sum));
    CHECK(sum == doctest::Approx(r.score()));
    CHECK(sum_max == doctest::Approx(r.max_score()));
    CHECK(!contains(j.dump(), "\\u001b"));
}

TEST_CASE("PrairieLearn results") {
    const json j = json::parse(prairielearn_json(sample()));
    CHECK(j.at("gradable") == true);
    CHECK(j.at("score").get<double>() == doctest::Approx(145.0 / 270));
    CHECK(j.at("message").is_string());
    CHECK(j.at("output").is_string());
    REQUIRE(j.at("tests").size() == 16);
    for (const json& t : j["tests"]) {
        for (const char* key : {"name", "description", "output", "message"}) CHECK(t.at(key).is_string());
        CHECK(t.at("points").is_number());
        CHECK(t.at("max_points").is_number());
        CHECK(!contains(t["output"], "got <"));  // hidden output withheld
    }
    CHECK(json::parse(prairielearn_json(Report{})).at("score") == 0);
}

TEST_CASE("JUnit XML") {
    const std::string x = junit_xml(sample());
    CHECK(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0) == 0);
    CHECK(contains(x, "<testsuites name=\"scan-labs: Doe, Jane\" tests=\"16\" failures=\"7\" skipped=\"3\""));
    CHECK(contains(x, "<testsuite name=\"02-brent-kung\" tests=\"5\" failures=\"2\" skipped=\"1\""));
    CHECK(count(x, "<testsuite ") == 3);
    CHECK(count(x, "<testcase ") == 16);
    CHECK(count(x, "<failure ") == 7);
    CHECK(count(x, "<skipped ") == 3);
    CHECK(contains(x, "<failure message=\"score 0/30\">got &lt;&amp;&quot;x&quot;&gt; at 7 wrong</failure>"));
    CHECK(x.find('\x1b') == std::string::npos);
    CHECK(x.find('\x01') == std::string::npos);
    // Invalid UTF-8 is replaced, XML-forbidden characters dropped.
    Report r = sample();
    r.labs[0].tests[0].output = "a\xff\x02z";
    CHECK(contains(junit_xml(r), "<system-out>a\xef\xbf\xbdz</system-out>"));
}

TEST_CASE("Markdown summary") {
    const std::string m = markdown_summary(sample());
    CHECK(m.rfind("## Doe, Jane: 145/270 (53.7%)\n", 0) == 0);
    CHECK(contains(m, "| 01-kogge-stone | 60/60 | 20/20 | 10/10 | n/a | 90/90 |"));
    CHECK(contains(m, "- 04-hierarchical: build failed: scan.cu:12: expected ';'"));
    CHECK(count(m, "<details>") == 2);  // the labs with failed tests
    CHECK(contains(m, "line 59\n... (40 more lines)\n```"));
    CHECK(!contains(m, "line 60"));
    CHECK(!contains(m, "got <"));  // hidden output withheld
}

TEST_CASE("gradebook CSV") {
    Report other = sample("O\"Neil");
    other.labs.pop_back();
    const std::string c = gradebook_csv({sample(), other});
    CHECK(c.rfind("student,01-kogge-stone,02-brent-kung,04-hierarchical,total,max,percent,flags,notes\r\n", 0) == 0);
    CHECK(contains(c, "\r\n\"Doe, Jane\",90,55,0,145,270,53.7,,sandbox: bubblewrap; 04-hierarchical: build"));
    CHECK(contains(c, "\r\n\"O\"\"Neil\",90,55,,145,180,80.56,,sandbox: bubblewrap\r\n"));
    CHECK(count(c, "\r\n") == 3);
}

TEST_CASE("gradebook CSV flags a lab the emulator cannot run") {
    Report r = sample();
    // 01 graded on the GPU alone (a component gradable), 02 without a GPU (none).
    r.labs[0].emulator_limits = {{"inline PTX", "asm", 41}};
    r.labs[1].emulator_limits = {{"CUB", "cub::", 3}};
    for (Component& c : r.labs[1].components) c.gradable = false;
    const std::string c = gradebook_csv({r});
    CHECK(contains(c, ",01-kogge-stone: graded on the GPU only (emulator limit); 02-brent-kung: needs a GPU to grade (emulator limit),"));
    CHECK(contains(c, "\"Doe, Jane\",90,n/a,0,"));  // not a zero
    // The flags survive a grade.json's and the result cache's round trip.
    const LabResult back = lab_from_json(lab_to_json(r.labs[0]));
    REQUIRE(back.emulator_limits.size() == 1);
    CHECK(back.emulator_limits[0].construct == "inline PTX");
    CHECK(back.emulator_limits[0].line == 41);
}

TEST_CASE("terminal table and feedback text") {
    const Report r = sample();
    const std::string plain = terminal_table(r, false);
    CHECK(plain.find('\x1b') == std::string::npos);
    CHECK(contains(plain, "n/a"));
    CHECK(contains(plain, "145/270 (53.7%)"));
    CHECK(contains(plain, "\nsandbox: bubblewrap\n"));
    const std::string coloured = terminal_table(r, true);
    for (const char* sgr : {"\x1b[32m", "\x1b[33m", "\x1b[31m", "\x1b[2m"}) CHECK(contains(coloured, sgr));
    const std::string feedback = feedback_text(r);
    CHECK(contains(feedback, "  [failed] 02 correctness: hidden: 0/30 (hidden)\n      got <&\"x\"> at 7 wrong\n"));
    CHECK(contains(feedback, "[not graded] 01 timing: public: n/a\n      Not graded: no GPU on this machine\n"));
    CHECK(feedback.find('\x1b') == std::string::npos);
}

TEST_CASE("write_all writes nine files and throws naming what failed") {
    char tmp[] = "/tmp/test-outputs-XXXXXX";
    REQUIRE(mkdtemp(tmp) != nullptr);
    const Report r = sample();
    const fs::path dir = fs::path(tmp) / "out";  // missing: write_all creates it
    write_all(r, dir.string());
    for (const char* name :
         {"results.json", "result.json", "prairielearn.json", "junit.xml", "summary.md", "feedback.txt", "table.txt",
          "phases.json", "report.html"})
        CHECK(fs::file_size(dir / name) > 0);
    std::ostringstream json_file;
    json_file << std::ifstream(dir / "results.json").rdbuf();
    CHECK(json_file.str() == gradescope_json(r));
    CHECK_THROWS_WITH_AS(write_all(r, (dir / "table.txt" / "sub").string()), doctest::Contains("table.txt/sub"),
                         std::runtime_error);
    fs::create_directories(fs::path(tmp) / "blocked" / "junit.xml");
    CHECK_THROWS_WITH_AS(write_all(r, (fs::path(tmp) / "blocked").string()), doctest::Contains("junit.xml"),
                         std::runtime_error);
    fs::remove_all(tmp);
}

TEST_CASE("the result cache gives back a lab whose every results file is the same") {
    Report r = sample();
    LabResult& lab = r.labs[1];
    lab.source = "__global__ void k() {}\n" + kNasty;
    lab.findings = {{"race", "data race on shared memory in kernel k at scan.cu:1"}, {"leak", kNasty}};
    harness::KernelDivergence mine{"brent_kung_kernel", 4, 2, {{{64, 2, 0}, {40, 2, 3}}, {{0, 0, 0}, {32, 1, 1}}}, "a report"};
    lab.divergence = {{"brent_kung_scan", "walk4 n=8192", {mine, mine}, {mine}, ""},
                      {"another_scan", "walk4 n=8192", {mine}, {mine}, "not scored: wrong or no outputs"}};

    char tmp[] = "/tmp/test-cache-XXXXXX";
    REQUIRE(mkdtemp(tmp) != nullptr);
    const ResultCache cache(tmp, "salt"), other(tmp, "another salt");
    const std::string key = cache.key(lab.lab, lab.source);
    CHECK(key != cache.key(lab.lab, lab.source + " "));
    CHECK(key != cache.key("01-kogge-stone", lab.source));
    CHECK(key != other.key(lab.lab, lab.source));
    CHECK(!cache.find(key));
    Report again = r;
    for (LabResult& l : again.labs) {
        const std::string k = cache.key(l.lab, l.source);
        cache.store(k, l);
        const auto hit = cache.find(k);
        REQUIRE(hit);
        l = *hit;
    }
    for (const auto& write : {feedback_text, gradescope_json, prairielearn_json, junit_xml, markdown_summary, report_html})
        CHECK(write(again) == write(r));
    CHECK(lab_to_json(again.labs[1]) == lab_to_json(lab));

    // A damaged entry is a miss; text that is not UTF-8 is not kept; nor is a GPU's timing.
    std::ofstream(std::string(tmp) + "/" + key + ".json") << "{\"format\": 1, \"key\": ";
    CHECK(!cache.find(key));
    lab.source += "\xff";
    cache.store(cache.key(lab.lab, lab.source), lab);
    CHECK(!cache.find(cache.key(lab.lab, lab.source)));
    lab.source = "ok";
    lab.timing.push_back({});
    cache.store(cache.key(lab.lab, lab.source), lab);
    CHECK(!cache.find(cache.key(lab.lab, lab.source)));
    CHECK(!ResultCache().on());
    fs::remove_all(tmp);
}

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
    harness::KernelDivergence k{name, 64, warps, {}, ""};
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
            "https://github.com/org/cuda-fall-scan-labs-jdoe/commit/abc1234", "2026-09-01T12:00:05Z"};
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
                                         "commit", "release", "review", "datetime", "score", "max-score", "tests"};
    std::set<std::string> keys;
    for (const auto& [key, value] : j.items()) keys.insert(key);
    CHECK(keys == required);
    CHECK(j.at("schema") == "classroom50/result/v1");
    for (const char* key : {"classroom", "assignment", "owner", "commit", "release", "review"})
        CHECK((j.at(key).is_string() && !j[key].get<std::string>().empty()));
    CHECK(j.at("owner") == "jdoe");
    CHECK(j.at("submission").get<std::string>().rfind("submit/", 0) == 0);
    CHECK(j.at("datetime") == "2026-09-01T12:00:05Z");
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
    CHECK(std::regex_match(who.datetime, std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
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
    const harness::KernelDivergence idle{"bk_kernel", 1, 1, {{{32, 1, 0}}}, ""};
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
