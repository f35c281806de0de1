// compute-sanitizer's reports, as an H100 printed them (CUDA 13.0,
// 2026-11-22, on the kit's runners at n = 4096: the lab 01 stub, corpus
// entries, and planted errors in copies of the reference), read into findings.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "finding_place.hpp"
#include "grader/core/sanitizer.hpp"

using grader::parse_sanitizer;

namespace {

// FIXTURES: the folder of captured tool output, set by the build.
std::string fixture(const std::string& name) {
    std::ifstream in(std::string(FIXTURES) + "/" + name);
    REQUIRE_MESSAGE(in.good(), "missing fixture " << FIXTURES << "/" << name);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("racecheck: lab 01's stub races on its single buffer at scan.cu:24") {
    const auto f = parse_sanitizer("racecheck", fixture("racecheck-lab01-stub.log"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "race");
    CHECK(finding::sentence(f[0]) ==
          "data race on shared memory in kernel kogge_stone_kernel: a read at scan.cu:24 and a write at scan.cu:24 by "
          "threads of one block with no barrier between them, 22628 hazards (compute-sanitizer racecheck)");
    CHECK(f[0].lines == std::vector<std::string>{"scan.cu:24"});
    CHECK(f[0].kernel == "kogge_stone_kernel");
    CHECK(f[0].hazards == 22628);
    CHECK_FALSE(f[0].undefined);
}

TEST_CASE("racecheck: the reports of one pair of lines become one finding, hazards summed") {
    const auto f = parse_sanitizer("racecheck", fixture("racecheck-lab02-missing-barrier.log"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "race");
    CHECK(finding::sentence(f[0]) ==
          "data race on shared memory in kernel brent_kung_kernel: a read at scan.cu:25 and a write at scan.cu:25 by "
          "threads of one block with no barrier between them (14 access pairs at these lines), 5748 hazards (4 reports "
          "printed) (compute-sanitizer racecheck)");
}

TEST_CASE("memcheck: a leak names the allocating line of scan.cu, not the harness's wrapper") {
    const auto f = parse_sanitizer("memcheck", fixture("memcheck-lab04-leak.log"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "leak");
    CHECK(finding::sentence(f[0]) == "device memory leaked: 8 bytes allocated at scan.cu:51 and never freed (cudaFree every temporary) "
                       "(compute-sanitizer memcheck)");
    CHECK(f[0].lines == std::vector<std::string>{"scan.cu:51"});
    CHECK(f[0].kernel.empty());
    CHECK(f[0].bytes == 8);
}

TEST_CASE("memcheck: stores past the end of the output, one finding for the line") {
    const auto f = parse_sanitizer("memcheck", fixture("memcheck-lab02-store-past-n.log"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "memory");
    CHECK(finding::sentence(f[0]) ==
          "out-of-bounds write of 4 bytes to global memory in kernel brent_kung_kernel: block (2,0,0), thread (64,0,0), "
          "at scan.cu:19, 1 bytes past the end of an allocation of 16,640 bytes (8 reports printed) (compute-sanitizer "
          "memcheck)");
    CHECK(f[0].lines == std::vector<std::string>{"scan.cu:19"});
    CHECK(f[0].block == "(2,0,0)");
    CHECK(f[0].thread == "(64,0,0)");
    CHECK(f[0].allocation == "an allocation of 16,640 bytes");
    CHECK(f[0].reports == 8);
    CHECK(f[0].undefined);
}

TEST_CASE("initcheck: block sums read before anything wrote them") {
    const auto f = parse_sanitizer("initcheck", fixture("initcheck-lab04-sums-never-written.log"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "memory");
    CHECK(finding::sentence(f[0]) ==
          "uninitialized global memory read of 4 bytes in kernel add_block_sums_kernel: block (0,0,0), thread (32,0,0), "
          "at scan.cu:39, memory nothing wrote (cudaMalloc does not clear it) (8 reports printed) (compute-sanitizer "
          "initcheck)");
}

TEST_CASE("synccheck: a barrier inside a branch only some threads take") {
    const auto f = parse_sanitizer("synccheck", fixture("synccheck-lab02-divergent-barrier.log"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == "barrier");
    CHECK(finding::sentence(f[0]) ==
          "barrier divergence in kernel brent_kung_kernel: block (0,0,0), thread (0,0,0), at scan.cu:26: Divergent "
          "thread(s) in warp (a __syncthreads() that not every thread of the block reaches) (2 reports printed) "
          "(compute-sanitizer synccheck)");
}

TEST_CASE("a clean run and the summaries give no findings") {
    CHECK(parse_sanitizer("memcheck", fixture("memcheck-lab02-reference.log")).empty());
    CHECK(parse_sanitizer("racecheck", "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 hazards displayed\n").empty());
    CHECK(parse_sanitizer("memcheck", "").empty());
    CHECK(parse_sanitizer("memcheck", "some program output\n========= \n").empty());
}

TEST_CASE("each tool's finding as an editor's line: the students' VS Code matcher takes them to it") {
    // The matcher the student repository ships (course/student/vscode-tasks.json, from the kit's top),
    // its first: findings at a line; its regexp is JavaScript's, which std::regex's ECMAScript grammar
    // reads alike (course/tests/test_problem_matcher.py replays VS Code's own matching on all four).
    std::ifstream in(std::string(FIXTURES) + "/../../../course/student/vscode-tasks.json");
    REQUIRE(in.good());
    const nlohmann::json pattern = nlohmann::json::parse(in).at("tasks").at(0).at("problemMatcher").at(0).at("pattern");
    const std::regex matcher(pattern.at("regexp").get<std::string>(), std::regex::ECMAScript);
    const auto group = [&](const std::smatch& m, const char* name) { return m.str(pattern.at(name).get<std::size_t>()); };
    struct Canned {
        const char *tool, *log, *folder, *line, *severity;
    };
    for (const Canned& c : {Canned{"racecheck", "racecheck-lab02-missing-barrier.log", "labs/02-brent-kung", "25", "error"},
                            {"memcheck", "memcheck-lab02-store-past-n.log", "labs/02-brent-kung", "19", "error"},
                            {"memcheck", "memcheck-lab04-leak.log", "labs/04-hierarchical", "51", "warning"},
                            {"initcheck", "initcheck-lab04-sums-never-written.log", "labs/04-hierarchical", "39", "error"},
                            {"synccheck", "synccheck-lab02-divergent-barrier.log", "labs/02-brent-kung", "26", "error"}}) {
        const std::string log = c.log;
        CAPTURE(log);
        const auto f = parse_sanitizer(c.tool, fixture(c.log));
        REQUIRE(f.size() == 1);
        const std::vector<std::string> lines = finding::diagnostic(f[0], c.folder);
        REQUIRE(lines.size() == 1);  // no launch: the tools name none
        INFO(lines[0]);
        std::smatch m;
        REQUIRE(std::regex_search(lines[0], m, matcher));
        CHECK(group(m, "file") == std::string(c.folder) + "/scan.cu");
        CHECK(group(m, "line") == c.line);
        CHECK(group(m, "severity") == c.severity);
        CHECK(group(m, "message") == finding::sentence(f[0]));
    }
}

// One scan-run process under a tool running the six functions of a five-lab
// build whose lab 02 lacks a barrier and whose lab 04 leaks (the reference
// otherwise), as an H100 printed it (CUDA 13.0, 2026-11-27, n = 4096).
TEST_CASE("a plan's reports are told apart by run, each as its own process printed it") {
    const grader::SanitizerRuns race = grader::split_sanitizer_runs(fixture("racecheck-plan-lab02-missing-barrier.log"), 48, 8);
    REQUIRE(race.outputs.size() == 6);
    CHECK(race.complete == 6);
    CHECK(race.reports == std::vector<std::size_t>{0, 8, 0, 0, 0, 0});  // 5 errors and 3 warnings
    for (std::size_t k : {0, 2, 3, 4, 5}) CHECK(parse_sanitizer("racecheck", race.outputs[k]).empty());
    const auto found = parse_sanitizer("racecheck", race.outputs[1]);
    REQUIRE(found.size() == 1);
    CHECK(finding::sentence(found[0]) ==
          "data race on shared memory in kernel brent_kung_kernel: a read at scan.cu:25 and a write at scan.cu:25 by "
          "threads of one block with no barrier between them (27 access pairs at these lines), 5644 hazards (5 reports "
          "printed) (compute-sanitizer racecheck)");
    CHECK(race.outputs[1].rfind("========= COMPUTE-SANITIZER\n", 0) == 0);  // the banner, as a process of its own

    // Lab 04's leak, reported at the reset after its run, is its run's.
    const grader::SanitizerRuns leak = grader::split_sanitizer_runs(fixture("memcheck-plan-lab04-leak.log"), 48, 8);
    REQUIRE(leak.outputs.size() == 6);
    CHECK(leak.reports == std::vector<std::size_t>{0, 0, 0, 0, 1, 0});
    const auto leaked = parse_sanitizer("memcheck", leak.outputs[4]);
    REQUIRE(leaked.size() == 1);
    CHECK(finding::sentence(leaked[0]) == "device memory leaked: 8 bytes allocated at scan.cu:58 and never freed (cudaFree every "
                                         "temporary) (compute-sanitizer memcheck)");
    for (std::size_t k : {0, 1, 2, 3, 5}) CHECK(parse_sanitizer("memcheck", leak.outputs[k]).empty());
}

TEST_CASE("a plan's print limit: a run's reports past its own share are cut, and runs the limit cut short are not complete") {
    const auto report = [](int line) {
        return "========= Barrier error detected. Divergent thread(s) in block.\n"
               "=========     at k()+0x10 in scan.cu:" + std::to_string(line) + "\n=========     by thread (0,0,0) in block (0,0,0)\n========= \n";
    };
    const auto run = [](int k, const std::string& body) {
        return "scan-run: run " + std::to_string(k) + " begins\n" + body + "scan-run: run " + std::to_string(k) + " ended\n";
    };
    const std::string banner = "========= COMPUTE-SANITIZER\n";
    // Limit 4, 2 a run: run 0 prints 3 (2 shown, as --print-limit 2 alone
    // would), run 1 the 4th, then the tool prints no more: run 1 may have had
    // more, so only run 0 is complete.
    const grader::SanitizerRuns cut = grader::split_sanitizer_runs(
        banner + run(0, report(1) + report(2) + report(3)) + run(1, report(4)) + run(2, "") +
            "========= ERROR SUMMARY: 6 errors\n========= ERROR SUMMARY: 2 errors were not printed\n",
        4, 2);
    CHECK(cut.reports == std::vector<std::size_t>{3, 1, 0});
    CHECK(cut.complete == 1);
    CHECK(parse_sanitizer("synccheck", cut.outputs[0]).size() == 2);  // lines 1 and 2; line 3 was past its share
    // The run that reached the limit with its own share printed is complete.
    const grader::SanitizerRuns full =
        grader::split_sanitizer_runs(banner + run(0, report(1) + report(2) + report(3) + report(4)) + run(1, ""), 4, 2);
    CHECK(full.complete == 1);
    // Below the limit every run that began is complete; the exit code's line is no report.
    const grader::SanitizerRuns below = grader::split_sanitizer_runs(
        banner + run(0, report(1)) + "scan-run: run 1 begins\n========= Target application returned an error\n", 4, 2);
    CHECK(below.reports == std::vector<std::size_t>{1, 0});
    CHECK(below.complete == 2);
}
