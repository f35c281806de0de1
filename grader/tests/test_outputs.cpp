#include <doctest/doctest.h>
#include <stdlib.h>  // mkdtemp

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "grader/core/result_cache.hpp"
#include "grader/outputs/classroom50.hpp"
#include "grader/outputs/divergence_svg.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/outputs/report_html.hpp"
#include "grader/tests/findings_sample.hpp"
#include "grader/tests/outputs_sample.hpp"

using namespace grader;
using namespace grader::testing;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("golden files: each results format of the sample report, byte for byte") {
    // The files a platform reads, as the sample report gives them (SARIF,
    // which holds findings alone, with findings_sample()'s), kept in
    // grader/tests/golden/ (this test's working folder): a change of format
    // is reviewed as their diff. SCAN_GRADE_UPDATE_GOLDEN=1 writes them anew.
    Report r = sample();
    Classroom50Identity who{"scan-course", "scan-labs", "Doe, Jane", "individual", "submit/local",
                            "local", "local", "local", "2026-11-27T00:00:00Z", "2026-11-28T09:30:00Z"};
    const std::pair<const char*, std::string> files[] = {
        {"results.json", gradescope_json(r)},    {"prairielearn.json", prairielearn_json(r)},
        {"junit.xml", junit_xml(r)},             {"summary.md", markdown_summary(r)},
        {"result.json", classroom50_json(r, who)}, {"feedback.txt", feedback_text(r)},
        {"table.txt", terminal_table(r, false)}, {"gradebook.csv", gradebook_csv({r, sample("O\"Neil")})},
        {"results.sarif", sarif_json(findings_sample())}};
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
            // Withheld until published: the hidden datasets' test, and (every sample lab has one) what
            // correctness on every dataset scales, where graded.
            const bool scaled = t.component == "safety" || t.component == "divergence" || t.component == "timing";
            CHECK((g["visibility"] == "after_published") == (t.hidden || (scaled && t.status != Status::NotGradable)));
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
    CHECK(j.at("output_format") == "md");  // the table in a code block keeps its columns
    CHECK(!contains(j["output"], "145/270"));  // the total, hidden by Gradescope while tests are withheld
}

TEST_CASE("Gradescope results: a lab without hidden datasets shows every test and its points") {
    Report r = sample();
    r.labs.resize(1);
    auto& tests = r.labs[0].tests;
    tests.erase(std::remove_if(tests.begin(), tests.end(), [](const TestResult& t) { return t.hidden; }), tests.end());
    const json j = json::parse(gradescope_json(r));
    for (const json& t : j.at("tests")) CHECK(t.at("visibility") == "visible");
    CHECK(contains(j["output"], "20/20"));  // safety's points
    CHECK(!contains(j["output"], "when published"));
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

// PrairieLearn shows a result's every field at once and has no "after grades
// are published" (docs/externalGrading.md, "Grading results"): a hidden test
// gives its points and nothing more, and promises no later detail.
TEST_CASE("PrairieLearn results: hidden datasets as points alone") {
    Report r = sample();
    r.hidden = "1 hidden dataset a lab" + std::string(kHiddenNamedLater);
    const json j = json::parse(prairielearn_json(r));
    CHECK(!contains(j.dump(), "published"));
    CHECK(contains(j.at("output"), "1 hidden dataset a lab, counted in the score without detail"));
    int hidden = 0;
    for (const json& t : j["tests"])
        if (contains(t.at("description"), "hidden")) {
            ++hidden;
            CHECK(t.at("output") == "Hidden datasets: their points count in the score; which of them failed is not shown.");
            CHECK(!contains(t.dump(), kNasty));
        }
    CHECK(hidden == 3);
}

// PrairieLearn's "not gradable" (no points, no attempt used; the docs: "if
// the input was missing"): an upload with no lab's file, or only labs the
// emulator cannot grade; format_errors says why.
TEST_CASE("PrairieLearn results: nothing submitted or nothing gradable is not gradable") {
    Report r = sample();
    r.labs.resize(1);
    r.labs[0].submitted = false;
    r.labs[0].note = "not submitted: no labs/01-kogge-stone/scan.cu";
    json j = json::parse(prairielearn_json(r));
    CHECK(j.at("gradable") == false);
    CHECK(j.at("format_errors") == json::array({"01-kogge-stone: not submitted: no labs/01-kogge-stone/scan.cu"}));
    r.labs[0].submitted = true;
    r.labs[0].note = "needs a GPU to grade";
    for (Component& c : r.labs[0].components) c.gradable = false;
    j = json::parse(prairielearn_json(r));
    CHECK(j.at("gradable") == false);
    CHECK(j.at("format_errors") == json::array({"01-kogge-stone: needs a GPU to grade"}));
    CHECK(json::parse(prairielearn_json(sample())).at("gradable") == true);
}

TEST_CASE("JUnit XML") {
    const std::string x = junit_xml(sample());
    CHECK(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0) == 0);
    // Jenkins' junit-10.xsd: errors on both, skipped on a testsuite only; the
    // whole grading's measured time on testsuites.
    CHECK(contains(x, "<testsuites name=\"scan-labs: Doe, Jane\" tests=\"16\" failures=\"7\" errors=\"0\" time=\"12.500\">"));
    CHECK(contains(x, "<testsuite name=\"02-brent-kung\" tests=\"5\" failures=\"2\" errors=\"0\" skipped=\"1\" time=\"1.250\">"));
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
    // A test whose time was not measured has no time, not a made-up 0.000.
    r.labs[0].tests[0].seconds = 0;
    CHECK(contains(junit_xml(r), "name=\"01 correctness: public\"><system-out>"));
    CHECK(!contains(junit_xml(r), "time=\"0.000\""));
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
    // The sandbox, which both share, is no row's note (gradebook.hpp: the batch's summary says it).
    CHECK(contains(c, "\r\n\"Doe, Jane\",90,55,0,145,270,53.7,,04-hierarchical: build failed: scan.cu:12: expected ';'\r\n"));
    CHECK(contains(c, "\r\n\"O\"\"Neil\",90,55,,145,180,80.56,,\r\n"));
    CHECK(!contains(c, "sandbox"));
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
    Finding race, nasty;
    race.kind = "race";
    race.check = "data race on shared memory";
    race.kernel = "k";
    race.lines = {"scan.cu:1", "scan.cu:2"};
    race.launch = "scan.cu:9";
    race.block = "(1,0,0)";
    race.thread = "3";
    race.blocks = 4;
    race.message = "a read at scan.cu:1 and a write at scan.cu:2";
    nasty.source = finding::Source::Sanitizer;
    nasty.tool = "memcheck";
    nasty.kind = "leak";
    nasty.check = "device memory leaked";
    nasty.bytes = 8;
    nasty.reports = 2;
    nasty.message = kNasty;
    lab.findings = {race, nasty};
    harness::KernelDivergence mine{"brent_kung_kernel", 4, 2, {{{64, 2, 0}, {40, 2, 3}}, {{0, 0, 0}, {32, 1, 1}}}, {"a report", {}, ""}};
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
