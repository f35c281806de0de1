// The timing component on the CPU: scan-bench's JSON as its report code
// writes it, read back by the grader, and the points a ratio earns.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <regex>

#include "../../bench/report.hpp"  // scan-bench's writer (grader/ has a report.hpp too)
#include "grader/core/timing.hpp"
#include "score.hpp"

using namespace grader;

namespace {

// A --against run as scan-bench writes it, in a file the test removes.
struct BenchFile {
    std::string path = "test-timing.json";
    explicit BenchFile(const std::string& text) { std::ofstream(path) << text; }
    ~BenchFile() { std::remove(path.c_str()); }
};

// cub_ms != 0: with the baselines (the copy and CUB) timed in the same rounds, as the grader runs it.
std::string against_run(double mine_ms, double ref_ms, double cub_ms = 0) {
    bench::BenchResult r;
    r.lab = "02-brent-kung";
    r.function = "brent_kung_scan";
    bench::SizeResult size;
    size.n = 1 << 24;
    if (cub_ms != 0)
        size.candidates = {{"cudaMemcpy device to device", "copy", bench::summarize({cub_ms / 2})},
                           {"CUB DeviceScan::InclusiveSum", "cub", bench::summarize({cub_ms})}};
    size.candidates.push_back({"brent_kung_scan (module)", "module", bench::summarize({mine_ms})});
    size.candidates.push_back({"brent_kung_scan (against)", "against", bench::summarize({ref_ms})});
    size.ratio = bench::summarize({mine_ms / ref_ms, mine_ms / ref_ms * 1.01, mine_ms / ref_ms * 0.99});
    size.rounds = 3;
    r.sizes.push_back(size);
    return bench::document("Test GPU", nlohmann::json::array({bench::to_json(r)}), nlohmann::json::array()).dump();
}

}  // namespace

TEST_CASE("the grader reads what scan-bench writes") {
    const BenchFile file(against_run(0.2938, 0.1141));
    const Timed t = read_timing(file.path);
    CHECK(t.median == doctest::Approx(0.2938 / 0.1141));
    CHECK(t.mine_ms == 0.2938);
    CHECK(t.ref_ms == 0.1141);
    CHECK(t.rounds == 3);
    CHECK(t.p10 < t.median);
    CHECK(t.p90 > t.median);
    CHECK(t.cub_ms == 0);  // not timed
    CHECK(t.copy_ms == 0);
}

TEST_CASE("with the baselines, CUB's and the copy's medians are read apart from the two builds'") {
    const BenchFile file(against_run(0.2938, 0.1141, 0.0521));
    const Timed t = read_timing(file.path);
    CHECK(t.mine_ms == 0.2938);
    CHECK(t.ref_ms == 0.1141);
    CHECK(t.cub_ms == 0.0521);
    CHECK(t.copy_ms == 0.0521 / 2);
    CHECK(t.median == doctest::Approx(0.2938 / 0.1141));
}

TEST_CASE("scan-bench's JSON of the grader's command on an H100: the modulo mapping against the reference") {
    // tests/timing/lab02-modulo-h100.json: lab02-modulo-mapping's module --against the reference's, 2^24
    // elements, the rubric's stopping rule, the copy and CUB in the same rounds (2026-11-22).
    const Timed t = read_timing(FIXTURES "/lab02-modulo-h100.json");
    CHECK(t.median == doctest::Approx(2.5739).epsilon(1e-4));
    CHECK(t.ci_low == doctest::Approx(2.5722).epsilon(1e-4));
    CHECK(t.ci_high == doctest::Approx(2.5750).epsilon(1e-4));
    CHECK(t.rounds == 315);
    CHECK(t.mine_ms == doctest::Approx(0.29606));
    CHECK(t.ref_ms == doctest::Approx(0.11504));
    CHECK(t.cub_ms == doctest::Approx(0.06368));
    CHECK(t.copy_ms == doctest::Approx(0.04886));
    CHECK(timing_part(Rubric{}, t.median) == doctest::Approx(0.25));  // 2.5 of 10, as graded on an H100 before
}

TEST_CASE("grading mode: a wrong timed output leaves no time to score, with why") {
    bench::BenchResult r;
    r.lab = "02-brent-kung";
    r.function = "brent_kung_scan";
    bench::SizeResult size;
    size.n = 1 << 24;
    size.checked_calls = 4;
    size.problem = "timed call 4 (each on a new input) left 16777216 of 16777216 outputs wrong, the first at index 0";
    r.sizes.push_back(size);  // no candidates: scan-bench shows no time of a wrong answer
    const BenchFile file(bench::document("Test GPU", nlohmann::json::array({bench::to_json(r)}), nlohmann::json::array()).dump());
    const Timed t = read_timing(file.path);
    CHECK(t.problem == size.problem);
    CHECK(t.checked_calls == 4);
}

TEST_CASE("the roofline floor: a time under the copy's of the same run is not scored") {
    // The copy timed at cub_ms / 2 in the same rounds: 0.0300 ms here.
    const BenchFile below(against_run(0.0299, 0.1141, 0.0600));
    const Timed t = read_timing(below.path);
    CHECK(t.problem.find("0.0299 ms is faster than a device-to-device copy of the same bytes in the same run (0.0300 ms)") == 0);
    const BenchFile at(against_run(0.0300, 0.1141, 0.0600));
    CHECK(read_timing(at.path).problem.empty());
    const BenchFile no_copy(against_run(0.0001, 0.1141));  // no baselines timed: nothing to hold it to
    CHECK(read_timing(no_copy.path).problem.empty());
    CHECK(score::impossible_time(0.05, 0.049).empty());
    CHECK_FALSE(score::impossible_time(0.048, 0.049).empty());
}

TEST_CASE("a timing file that is not scan-bench's is refused, not scored") {
    for (const std::string& text : {std::string("not json"), std::string("{}"), std::string(R"({"results": [{"sizes": [{}]}]})"),
                                   against_run(-1, 0.1), against_run(0.1, 0), against_run(0.2, 0.1, -1),
                                   std::regex_replace(against_run(0.2, 0.1, 0.05), std::regex("\"cub\""), "\"mystery\"")}) {
        const BenchFile file(text);
        CHECK_THROWS(read_timing(file.path));
    }
}

TEST_CASE("points: full within 1.2x, none from 3x, the ratio rounded to 0.05 first") {
    Rubric rubric;  // the defaults: full_within 1.2, zero_at 3.0, ratio_step 0.05
    CHECK(timing_part(rubric, 1.0) == 1);
    CHECK(timing_part(rubric, 1.22) == doctest::Approx(1));  // rounds to 1.20
    CHECK(timing_part(rubric, 1.305) == doctest::Approx((3.0 - 1.30) / 1.8));  // lab 02 without padding: 9.44 of 10
    CHECK(timing_part(rubric, 2.573) == doctest::Approx(0.25));  // the modulo mapping on an H100: 2.5 of 10
    CHECK(timing_part(rubric, 2.99) == 0);
    // Noise inside a step does not move the points (five gradings printed 2.572x to 2.575x and all
    // scored 2.55x); a ratio on a step's edge can still go either way: 2.575 exactly rounds up.
    for (double r : {2.572, 2.573, 2.574, 2.5749}) CHECK(timing_part(rubric, r) == doctest::Approx(0.25));
    CHECK(timing_part(rubric, 2.575) == doctest::Approx((3.0 - 2.60) / 1.8));
    rubric.timing_ratio_step = 0;
    CHECK(timing_part(rubric, 2.573) == doctest::Approx((3.0 - 2.573) / 1.8));
}

TEST_CASE("a timing plan that stopped is blamed on the line it stopped at") {
    // Three lines: outputs 0..2 are written first, then the JSON files 0..2.
    const auto stopped = [](std::size_t outputs, std::size_t jsons) {
        return plan_stopped_at(3, [&](std::size_t k, bool json) { return k < (json ? jsons : outputs); });
    };
    CHECK_FALSE(stopped(3, 3).has_value());  // every file: it ran to the end
    CHECK(stopped(0, 0) == 0u);              // it never wrote anything: the first line
    CHECK(stopped(1, 0) == 1u);              // line 1's outputs: its call on the dataset crashed or hung
    CHECK(stopped(3, 0) == 0u);              // all outputs, no timing: line 0's timing (or the wait for the GPU)
    CHECK(stopped(3, 2) == 2u);              // lines 0 and 1 timed, line 2's timing failed
    CHECK_FALSE(plan_stopped_at(0, [](std::size_t, bool) { return false; }).has_value());
}
