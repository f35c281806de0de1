// The class at a glance (class_report.hpp) from a results folder whose
// answers are known: each student's folder written by the grader's own
// writers (write_all, write_record: what --batch writes), with the test
// outputs in the grader's words (lab_state.cpp's "ok    "/"FAIL  " lines,
// score.cpp's divergence_line, scorer_timing.cpp's ratio line). Then the
// numbers of class.json and class.html; `scan-grade report` on a folder
// without results; and a class of 200 timed (the issue asks for 10 s).
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "grader/cli/resume.hpp"
#include "grader/core/files.hpp"
#include "grader/intake/class_report.hpp"
#include "grader/intake/similarity.hpp"
#include "grader/outputs/outputs.hpp"

using namespace grader;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const char* kLab = "02-brent-kung";
const char* kSource = "__global__ void k(float* XY) {\n"
                      "  unsigned stride = 1;\n"
                      "    XY[threadIdx.x] += XY[threadIdx.x - stride];\n"
                      "  // nothing\n"
                      "  XY[threadIdx.x]  +=  XY[threadIdx.x - stride];\n"
                      "}\n";

TestResult test(const std::string& component, const std::string& name, double score, double max, const std::string& output,
                bool hidden = false) {
    TestResult t;
    t.lab = kLab;
    t.component = component;
    t.name = "lab02 " + name;
    t.score = score;
    t.max_score = max;
    t.status = score >= max ? Status::Passed : Status::Failed;
    t.output = output;
    t.hidden = hidden;
    return t;
}

finding::Finding race_at(int line) {
    finding::Finding f;
    f.kind = "race";
    f.check = "data race on shared memory";
    f.kernel = "k";
    f.lines = {"scan.cu:" + std::to_string(line)};
    f.launch = "scan.cu:6";
    f.message = "XY[4] written by thread 3 and read by thread 4 between the same two barriers";
    f.blocks = 1;
    return f;
}

// A graded student of lab 02: correctness points, the public class passed,
// each hidden dataset passed or not, divergence got/reference (percent).
Report student(const std::string& name, double correctness, bool section, std::vector<bool> hidden, double got, double ref) {
    Report r;
    r.submission = name;
    r.backend = "emu";
    r.device = "CPU emulator";
    LabResult& lab = r.labs.emplace_back();
    lab.lab = kLab;
    lab.submitted = lab.built = true;
    lab.source = kSource;
    lab.components = {{"correctness", correctness, 60, true, ""}, {"safety", 20, 20, true, ""},
                      {"divergence", 10 * got / ref, 10, true, ""}, {"timing", 0, 10, false, "no GPU"}};
    lab.tests.push_back(test("correctness", "correctness: section", section ? 30 : 0, 30,
                             section ? "ok    section of 2048 elements\n" : "FAIL  section of 2048 elements: wrong\n"));
    std::string text;
    bool all = true;
    for (std::size_t k = 0; k < hidden.size(); ++k) {
        const std::string what = "hidden dataset " + std::to_string(k + 1) + " of lab 02";
        text += hidden[k] ? "ok    " + what + "\n" : "FAIL  " + what + " on the emulator: output[3] is 2, expected 3\n";
        all = all && hidden[k];
    }
    lab.tests.push_back(test("correctness", "correctness: hidden", all ? 30 : 0, 30, text, true));
    char line[200];
    std::snprintf(line, sizeof line,
                  "brent_kung_scan: SIMT efficiency %.1f%% against the reference's %.1f%% on walk4 of 8192 elements "
                  "(full points from 48.0%%, none below 25.0%%)\n",
                  got, ref);
    lab.tests.push_back(test("divergence", "control divergence", 10 * got / ref, 10, line));
    return r;
}

void write_student(const std::string& out, const Report& r) {
    const std::string dir = out + "/" + r.submission;
    fs::create_directories(dir);
    write_all(r, dir);
    write_graded_code(r, dir);  // as grade_entry (main.cpp) writes a student's folder
    write_record(r, {}, dir);
}

const ClassReportSettings kSettings{KIT, {}};

// The class: four graded, one refused. Correctness 60, 30, 45, 60; the
// public class passed by 3 of 4; hidden dataset 1 by 2, dataset 2 by 3; one
// race at one line in two students (lines 3 and 5, spaced otherwise); one
// student with a misnamed file and a lab graded on the GPU only, one timed on a GPU.
void write_class(const std::string& out) {
    fs::remove_all(out);
    write_student(out, student("alice", 60, true, {true, true}, 45, 50));
    Report bob = student("bob", 30, false, {false, true}, 25, 50);
    bob.labs[0].findings.push_back(race_at(3));
    write_student(out, bob);
    Report carol = student("carol", 45, true, {false, false}, 50, 50);
    carol.labs[0].findings.push_back(race_at(5));
    carol.backend = "cuda";
    carol.labs[0].tests.push_back(test("timing", "timing", 7.5, 10,
                                       "brent_kung_scan: 1.500x the reference's time (0.5 ms against 0.3333 ms), "
                                       "median of 30 alternated rounds\n"));
    write_student(out, carol);
    Report erin = student("erin", 60, true, {true, true}, 40, 50);
    erin.flags = {"misnamed: lab02/scan.cu taken as 02-brent-kung"};
    erin.labs[0].emulator_limits = {{"inline PTX", "asm", 3}};
    write_student(out, erin);
    Report dave;
    dave.submission = "dave smith";  // a name a link escapes
    dave.refused = "not a submission";
    dave.notes = {"dave.txt: not a folder, an archive or a .cu file"};
    // As ungradable() records it: each lab at 0 of its points, which are no score of the class's.
    dave.labs.push_back({kLab, false, false, "", {{"correctness", 0, 60, true, ""}}});
    write_student(out, dave);
}

const json& find(const json& list, const std::string& key, const std::string& value) {
    for (const json& x : list)
        if (x.value(key, "") == value) return x;
    FAIL("no " << key << " " << value);
    static json none;
    return none;
}

}  // namespace

TEST_CASE("class.json: scores' quartiles, pass shares worst first, finding groups, flags") {
    const std::string out = "class-report-test";
    write_class(out);
    ClassReportSettings no_similarity = kSettings;  // its students share kSource: the check's own tests are below
    no_similarity.similarity.on = false;
    REQUIRE(write_class_report(out, no_similarity) == out + "/class.json, " + out + "/class.html");
    const json c = json::parse(read_file(out + "/class.json"));
    CHECK(c["students"] == 5);
    CHECK(c["graded"] == 4);
    CHECK(c["refused"] == 1);

    json score;
    for (const json& s : c["scores"])
        if (s["lab"] == kLab && s["component"] == "correctness") score = s;
    REQUIRE(score.is_object());
    CHECK(score["count"] == 4);  // the refused student has no score
    CHECK(score["min"] == 30.0);
    CHECK(score["q1"] == doctest::Approx(41.25));
    CHECK(score["median"] == doctest::Approx(52.5));
    CHECK(score["q3"] == doctest::Approx(60));
    CHECK(score["histogram"] == json({0, 0, 0, 0, 0, 1, 0, 1, 0, 2}));  // 30, 45, 60 and 60 of 60
    for (const json& s : c["scores"]) CHECK(s["component"] != "timing");  // not gradable: no distribution

    const json& d = c["datasets"];
    REQUIRE(d.size() == 3);
    CHECK(d[0]["dataset"] == "hidden dataset 1 of lab 02");  // the worst first
    CHECK(d[0]["passed"] == 2);
    CHECK(d[0]["graded"] == 4);
    CHECK(find(d, "dataset", "hidden dataset 2 of lab 02")["passed"] == 3);
    CHECK(find(d, "dataset", "public: section")["passed"] == 3);

    const json& f = c["findings"];
    REQUIRE(f.size() == 1);
    CHECK(f[0]["kind"] == "data race on shared memory");
    CHECK(f[0]["line"] == "XY[threadIdx.x] += XY[threadIdx.x - stride];");
    CHECK(f[0]["students"] == 2);
    REQUIRE(f[0]["examples"].size() == 2);
    CHECK(f[0]["examples"][0]["student"] == "student A");
    CHECK(f[0]["examples"][1]["student"] == "student B");
    CHECK(f[0]["examples"][0]["line"] == 3);
    CHECK(f[0]["examples"].dump().find("bob") == std::string::npos);
    CHECK(f[0]["examples"].dump().find("carol") == std::string::npos);

    CHECK(c["timing"]["gpu"] == true);
    REQUIRE(c["timing"]["labs"].size() == 1);
    CHECK(c["timing"]["labs"][0]["median"] == doctest::Approx(1.5));
    REQUIRE(c["divergence"].size() == 1);
    CHECK(c["divergence"][0]["median"] == doctest::Approx(85));  // 50%, 80%, 90%, 100% of the reference's
    CHECK(c["divergence"][0]["q1"] == doctest::Approx(72.5));

    const json& flagged = c["flagged"];
    REQUIRE(flagged.size() == 2);
    CHECK(find(flagged, "student", "dave smith")["why"][0] ==
          "refused: not a submission (dave.txt: not a folder, an archive or a .cu file)");
    CHECK(find(flagged, "student", "erin")["report"] == "erin/report.html");
    CHECK(find(flagged, "student", "erin")["why"] ==
          json({"lab 02-brent-kung: graded on the GPU only", "misnamed: lab02/scan.cu taken as 02-brent-kung"}));

    const std::string html = read_file(out + "/class.html");
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("http") == std::string::npos);  // nothing from the network
    CHECK(html.find("hidden dataset 1 of lab 02</td><td>50% (2 of 4)") != std::string::npos);
    CHECK(html.find("median <b>52.5</b><br>quartiles 41.25 – 60") != std::string::npos);
    CHECK(html.find("<code>XY[threadIdx.x] += XY[threadIdx.x - stride];</code>") != std::string::npos);
    CHECK(html.find("<td>2</td><td><b>data race on shared memory</b>") != std::string::npos);
    CHECK(html.find("<a href=\"erin/report.html\">erin</a>") != std::string::npos);
    CHECK(html.find("<a href=\"dave%20smith/report.html\">dave smith</a>") != std::string::npos);
    CHECK(html.find("student A, labs/02-brent-kung/scan.cu line 3") != std::string::npos);
    for (const char* name : {"alice", "bob", "carol"}) CHECK(html.find(name) == std::string::npos);
}

TEST_CASE("class.json: two uploads of one student, both graded, are flagged") {
    const std::string out = "class-report-duplicates";
    fs::remove_all(out);
    // Named by their whole file names, as batch.hpp names both (intake.duplicates "grade").
    write_student(out, student("frank.zip", 60, true, {true}, 50, 50));
    write_student(out, student("Frank.tar.gz", 60, true, {true}, 50, 50));
    write_student(out, student("alice", 60, true, {true}, 50, 50));
    const json flagged = class_data(out)["flagged"];
    REQUIRE(flagged.size() == 2);
    CHECK(flagged[0]["student"] == "Frank.tar.gz");
    CHECK(flagged[0]["why"] == json({"one of 2 uploads of one student, each graded: Frank.tar.gz, frank.zip"}));
    CHECK(flagged[1]["report"] == "frank.zip/report.html");
}

TEST_CASE("class.html without a GPU says so") {
    const std::string out = "class-report-no-gpu";
    fs::remove_all(out);
    write_student(out, student("alice", 60, true, {true}, 45, 50));
    const json c = class_data(out);
    CHECK(c["timing"]["gpu"] == false);
    CHECK(class_html(c).find("No GPU: timing was not graded.") != std::string::npos);
}

TEST_CASE("scan-grade report: a missing or empty folder is refused with why") {
    fs::remove_all("class-report-empty");
    fs::create_directories("class-report-empty/not-a-student");
    CHECK(report_main({"class-report-missing"}, KIT) == 2);
    CHECK(report_main({"class-report-empty"}, KIT) == 1);
    CHECK(report_main({}, KIT) == 2);
    CHECK(report_main({"a", "b"}, KIT) == 2);
    CHECK_THROWS_WITH(class_data("class-report-empty"),
                      doctest::Contains("no student results in class-report-empty (no class-report-empty/<student>/grade.json)"));
    CHECK(class_report_after_batch("class-report-empty", kSettings).empty());  // a warning: the batch's gradebook stands
    CHECK(!fs::exists("class-report-empty/class.json"));
}

namespace {

// A student of tests/similarity/ (its README: six honest, two planted copies),
// labs 03 and 04 graded from its files.
Report coder(const std::string& name) {
    Report r;
    r.submission = name;
    r.backend = "emu";
    for (const char* id : {"03-exclusive", "04-hierarchical"}) {
        LabResult& lab = r.labs.emplace_back();
        lab.lab = id;
        lab.submitted = lab.built = true;
        lab.source = read_file(std::string(KIT) + "/grader/tests/similarity/class/" + name + "/labs/" + id + "/scan.cu");
        lab.components = {{"correctness", 60, 60, true, ""}};
    }
    return r;
}

void write_coders(const std::string& out) {
    fs::remove_all(out);
    for (const char* name : {"ada", "bea", "cai", "dev", "eun", "fin", "gil", "hal"}) write_student(out, coder(name));
}

// Runs with `name` set to `value` in the environment, as it was after.
template <class F>
void with_env(const char* name, const std::string& value, F f) {
    const char* was = std::getenv(name);
    const std::string old = was ? was : "";
    setenv(name, value.c_str(), 1);
    f();
    if (was) setenv(name, old.c_str(), 1);
    else unsetenv(name);
}

}  // namespace

TEST_CASE("similarity: the planted copies flagged in class.json, their shared lines side by side in class.html") {
    const std::string out = "class-report-similarity";
    write_coders(out);
    CHECK(read_file(out + "/gil/code/04-hierarchical/scan.cu") == coder("gil").labs[1].source);
    write_class_report(out, kSettings);
    const json c = json::parse(read_file(out + "/class.json"));
    const json& sim = c["similarity"];
    if (sim["status"] == "off") {  // similarity_check.py, a skip there, holds the numbers
        MESSAGE("the similarity check is off here: " << sim["why"].get<std::string>());
        CHECK(sim["why"].get<std::string>().find("copydetect is not installed") != std::string::npos);
        return;
    }
    REQUIRE(sim["labs"].size() == 2);
    for (const json& lab : sim["labs"]) {
        CHECK(lab["flagged"] == 2);
        CHECK(lab["compared"] == 8);
    }
    const auto why = [&](const std::string& student) {
        for (const json& f : c["flagged"])
            if (f["student"] == student) return f["why"].dump();
        return std::string();
    };
    for (const auto& [copy, of] : {std::pair{"gil", "cai"}, {"hal", "eun"}, {"cai", "gil"}, {"eun", "hal"}}) {
        CHECK(why(copy).find("code alike in lab 03-exclusive: ") != std::string::npos);
        CHECK(why(copy).find("code alike in lab 04-hierarchical: ") != std::string::npos);
        CHECK(why(copy).find(std::string("tokens) with ") + of) != std::string::npos);
    }
    for (const char* honest : {"ada", "bea", "dev", "fin"}) CHECK(why(honest).empty());
    const std::string html = read_file(out + "/class.html");
    CHECK(html.find("<h2 id=\"similarity\">Code alike</h2>") != std::string::npos);
    CHECK(html.find("<h3>Lab 04-hierarchical: 2 flagged</h3>") != std::string::npos);
    CHECK(html.find("<details id=\"similar-04-hierarchical-1\" open>") != std::string::npos);
    CHECK(html.find("<mark>") != std::string::npos);
    CHECK(html.find("<a href=\"gil/report.html\">gil</a>") != std::string::npos);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(fs::is_regular_file(out + "/similarity.json"));
    CHECK(!fs::exists(out + "/.similarity-job.json"));
}

TEST_CASE("similarity off: the rubric, copydetect missing, no interpreter, no code; each says why") {
    const std::string out = "class-report-similarity-off";
    write_coders(out);
    ClassReportSettings off = kSettings;
    off.similarity.on = false;
    CHECK(similarity_check(out, KIT, off.similarity)["why"] == "turned off in the rubric (\"similarity\": {\"check\": \"off\"})");

    // A python3 whose copydetect cannot be imported.
    fs::create_directories(out + "-fake");
    write_file(out + "-fake/copydetect.py", "raise ImportError('not here')\n");
    with_env("PYTHONPATH", fs::absolute(out + "-fake").string(), [&] {
        const json sim = similarity_check(out, KIT, kSettings.similarity);
        CHECK(sim["status"] == "off");
        CHECK(sim["why"].get<std::string>().find("copydetect is not installed for python3: python3 -m pip install copydetect") == 0);
    });
    with_env("SCAN_GRADE_PYTHON", "no-such-python3", [&] {
        CHECK(similarity_check(out, KIT, kSettings.similarity)["why"].get<std::string>().find(
                  "no-such-python3 could not run grader/similarity.py") == 0);
    });
    for (const auto& entry : fs::directory_iterator(out)) fs::remove_all(entry.path() / "code");
    CHECK(similarity_check(out, KIT, kSettings.similarity)["why"].get<std::string>().find("no student's code in ") == 0);
    // The class report stands: its other sections, the check's why.
    write_class_report(out, kSettings);
    CHECK(read_file(out + "/class.html").find("The similarity check is off: no student&apos;s code in") != std::string::npos);
}

TEST_CASE("a class of 200: the report in under 10 s") {
    const std::string out = "class-report-200";
    fs::remove_all(out);
    // Their code as bench/grade-speed's class draws it: lab 02's from the
    // corpus's files of it, cycling; labs 03 and 04 from tests/similarity's.
    std::vector<std::string> lab02;
    for (const auto& entry : fs::directory_iterator(std::string(KIT) + "/grader/tests/corpus"))
        if (fs::is_regular_file(entry.path() / "labs" / kLab / "scan.cu"))
            lab02.push_back(read_file((entry.path() / "labs" / kLab / "scan.cu").string()));
    REQUIRE(lab02.size() > 10);
    const char* coders[] = {"ada", "bea", "cai", "dev", "eun", "fin", "gil", "hal"};
    for (int k = 0; k < 200; ++k) {
        Report r = student("s" + std::to_string(k), 30 + k % 31, k % 3 != 0, {k % 2 == 0, k % 5 != 0, true}, 30 + k % 20, 50);
        if (k % 4 == 0) r.labs[0].findings.push_back(race_at(3 + 2 * (k % 2)));
        r.labs[0].source += lab02[static_cast<std::size_t>(k) % lab02.size()];  // kSource's lines first: the findings' lines
        for (LabResult& lab : coder(coders[k % 8]).labs) r.labs.push_back(lab);
        write_student(out, r);
    }
    const auto start = std::chrono::steady_clock::now();
    write_class_report(out, kSettings);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const json c0 = json::parse(read_file(out + "/class.json"));
    MESSAGE("a class of 200: class.json and class.html in " << seconds << " s, the similarity check "
            << c0["similarity"]["status"].get<std::string>() << " (" << c0["similarity"].value("seconds", 0.0) << " s in similarity.py)");
    CHECK(seconds < 10);
    const json c = json::parse(read_file(out + "/class.json"));
    CHECK(c["students"] == 200);
    CHECK(c["findings"][0]["students"] == 50);
}

TEST_CASE("the rubric's similarity: read, refused with the field named, no part of what a grade depends on") {
    const std::string path = "class-report-rubric.json";
    write_file(path, R"({"similarity": {"check": "off", "threshold": 0.7, "min_tokens": 80, "pairs": 5}})");
    const Rubric r = load_rubric(path);
    CHECK(!r.similarity.on);
    CHECK(r.similarity.threshold == 0.7);
    CHECK(r.similarity.min_tokens == 80);
    CHECK(r.similarity.pairs == 5);
    write_file(path, R"({"similarity": {"check": "moss"}})");
    CHECK_THROWS_WITH(load_rubric(path), doctest::Contains(".similarity.check must be \"copydetect\" or \"off\""));
    write_file(path, R"({"similarity": {"threshold": 1.5}})");
    CHECK_THROWS_WITH(load_rubric(path), doctest::Contains(".similarity.threshold must be above 0 and at most 1"));
    write_file(path, R"({"similarity": {"treshold": 0.5}})");
    CHECK_THROWS_WITH(load_rubric(path), doctest::Contains("treshold"));
    CHECK(grading_text(R"({"hidden_seed": 3, "similarity": {"threshold": 0.5}})") == R"({"hidden_seed":3})");
    fs::remove(path);
}
