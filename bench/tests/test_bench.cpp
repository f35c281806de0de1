// Host tests of scan-bench's measurement logic: statistics and the stopping
// rule, the alternating sampling loop (with fake timers), the textbook's
// addition counts, ncu's CSV as an H100 printed it, and the reports.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "bounds.hpp"
#include "counters.hpp"
#include "report.hpp"
#include "sampler.hpp"
#include "theory.hpp"

using namespace bench;

namespace {

// FIXTURES: the folder of captured tool output, set by the build.
std::string fixture(const std::string& name) {
    std::ifstream in(std::string(FIXTURES) + "/" + name);
    REQUIRE_MESSAGE(in.good(), "missing fixture " << FIXTURES << "/" << name);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("summaries: median, percentiles and a confidence interval that holds the median") {
    const Summary s = summarize({5, 1, 4, 2, 3});
    CHECK(s.count == 5);
    CHECK(s.median == 3);
    CHECK(s.min == 1);
    CHECK(s.max == 5);
    CHECK(s.p10 == doctest::Approx(1.4));
    CHECK(s.p90 == doctest::Approx(4.6));
    CHECK(s.ci_low <= s.median);
    CHECK(s.ci_high >= s.median);
    CHECK(summarize({1, 2, 3, 4}).median == 2.5);
    CHECK(summarize({}).count == 0);

    // The interval narrows as samples accumulate: 1 +- 1% noise, 20 against 400 samples.
    std::vector<double> few, many;
    for (int i = 0; i < 400; ++i) (i < 20 ? few : many).push_back(1.0 + 0.01 * ((i * 37 % 21) - 10) / 10.0);
    many.insert(many.end(), few.begin(), few.end());
    CHECK(summarize(many).rel_halfwidth() < summarize(few).rel_halfwidth());
    CHECK(summarize(many).rel_halfwidth() < 0.002);
}

TEST_CASE("the stopping rule: converged, round limit, time budget, never too early") {
    StopRule rule;
    rule.min_rounds = 20;
    rule.max_rounds = 100;
    rule.rel_ci = 0.01;
    rule.max_seconds = 5;
    const std::vector<Summary> tight = {summarize(std::vector<double>(30, 2.0))};
    const std::vector<Summary> loose = {summarize({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})};
    CHECK_FALSE(should_stop(rule, 10, 0, &tight));                 // before min_rounds
    CHECK(should_stop(rule, 20, 0, &tight) == Stopped::Converged);
    CHECK_FALSE(should_stop(rule, 20, 0, &loose));
    CHECK_FALSE(should_stop(rule, 25, 0, nullptr));                 // not looked at this round
    CHECK(should_stop(rule, 100, 0, &loose) == Stopped::MaxRounds);
    CHECK(should_stop(rule, 30, 6, &loose) == Stopped::TimeBudget);
    CHECK(should_stop(rule, 3, 6, nullptr) == Stopped::TimeBudget);  // a slow kernel still gets 3 rounds
    CHECK_FALSE(should_stop(rule, 2, 6, nullptr));
}

TEST_CASE("grading stops once the ratio's interval gets one score at both ends") {
    StopRule rule;
    rule.min_rounds = 20;
    rule.max_rounds = 400;
    rule.rel_ci = 0.0001;  // never converged: only the score can stop it early
    rule.max_seconds = 1e9;
    rule.decide = ScoreSteps{1.2, 3.0, 0.05};
    const auto spread = [](double low, double high) {  // 40 ratios evenly from low to high
        std::vector<double> v;
        for (int i = 0; i < 40; ++i) v.push_back(low + (high - low) * i / 39);
        return summarize(v);
    };
    const Summary full = spread(0.9, 1.15), zero = spread(3.1, 4.0), one_step = spread(1.49, 1.51),
                  straddles = spread(1.3, 1.7), edge = spread(1.1, 1.3);
    const std::vector<Summary> any = {full};
    CHECK(should_stop(rule, 20, 0, &any, &full) == Stopped::Decided);      // full points either way
    CHECK(should_stop(rule, 20, 0, &any, &zero) == Stopped::Decided);      // none either way
    CHECK(should_stop(rule, 20, 0, &any, &one_step) == Stopped::Decided);  // both ends round to 1.50
    CHECK_FALSE(should_stop(rule, 20, 0, &any, &straddles));               // 1.3x and 1.7x score apart
    CHECK_FALSE(should_stop(rule, 20, 0, &any, &edge));                   // full at one end, not at the other
    CHECK_FALSE(should_stop(rule, 10, 0, &any, &full));                    // never before min_rounds
    rule.decide.reset();
    CHECK_FALSE(should_stop(rule, 20, 0, &any, &full));                    // only when grading asks
    CHECK(describe(Stopped::Decided) == "score decided");

    // In the loop: a module 1.0x the reference is decided at the first look.
    double clock = 0;
    rule.decide = ScoreSteps{1.2, 3.0, 0.05};
    int calls = 0;
    const Sampling s = sample({[&] { return 1.0 + 0.01 * (++calls % 3); }, [&] { return 1.0; }}, rule,
                              std::make_pair(std::size_t{0}, std::size_t{1}), [&] { return clock; });
    CHECK(s.stopped == Stopped::Decided);
    CHECK(s.rounds == 20);
}

TEST_CASE("sampling alternates A B, B A and tracks the per-round ratio") {
    std::string order;
    double clock = 0;
    const std::vector<Measure> candidates = {[&] { order += 'A'; return 2.0; }, [&] { order += 'B'; return 1.0; }};
    StopRule rule;
    rule.min_rounds = 6;
    rule.max_rounds = 50;
    const Sampling s = sample(candidates, rule, std::make_pair(std::size_t{0}, std::size_t{1}), [&] { return clock; });
    CHECK(s.stopped == Stopped::Converged);
    CHECK(s.rounds == 6);
    CHECK(order == "ABBAABBAABBA");
    REQUIRE(s.ratios.size() == 6);
    CHECK(summarize(s.ratios).median == 2.0);
}

TEST_CASE("sampling stops on noise it cannot beat: the round limit, or the clock") {
    int calls = 0;
    double clock = 0;
    const std::vector<Measure> noisy = {[&] { return (++calls % 2) ? 1.0 : 3.0; }};
    StopRule rule;
    rule.min_rounds = 10;
    rule.max_rounds = 40;
    rule.max_seconds = 1e9;
    Sampling s = sample(noisy, rule, std::nullopt, [&] { return clock; });
    CHECK(s.stopped == Stopped::MaxRounds);
    CHECK(s.rounds == 40);

    rule.max_seconds = 5;
    s = sample({[&] { clock += 1; return (++calls % 2) ? 1.0 : 3.0; }}, rule, std::nullopt, [&] { return clock; });
    CHECK(s.stopped == Stopped::TimeBudget);
    CHECK(s.rounds == 5);
}

TEST_CASE("the textbook's addition counts (exercises 9.2, 9.3, 9.6)") {
    const Theory ks = additions("kogge_stone_scan", 1 << 20);
    CHECK(ks.per_section == 9217);  // 1024 * 10 - 1023
    CHECK(ks.additions == 1024.0 * 9217);
    CHECK(additions("kogge_stone_scan", 1025).additions == 2 * 9217);  // a partial section adds its padding too
    const Theory bk = additions("brent_kung_scan", 1 << 20);
    CHECK(bk.per_section == 4083);  // 2047 + 2036, exercise 9.2
    CHECK(bk.additions == 512.0 * 4083);
    CHECK(additions("brent_kung_exclusive_scan", 2048).additions == 4094);
    CHECK(additions("hierarchical_scan", 2048).additions == 4083);
    // 512 sections, their 512 totals in one more section, 2^20 - 2048 add-backs.
    const Theory h = additions("hierarchical_scan", 1 << 20);
    CHECK(h.additions == 512.0 * 4083 + 4083 + ((1 << 20) - 2048));
    CHECK(h.additions <= h.bound);
    CHECK(h.bound == 4.0 * (1 << 20) - 3);
    const Theory single = additions("single_pass_scan", 1 << 20);
    CHECK(single.additions == (449.0 / 128 + 1.0 / 32) * (1 << 20));  // 3.54 per element
    CHECK(single.bound == 0);  // no bound the textbook proves
    CHECK_THROWS_AS(additions("no_such_scan", 8), std::invalid_argument);
}

TEST_CASE("ncu's CSV from an H100: counters per kernel, against theory") {
    // Lab 01's reference on 2^20 elements (ncu 2025.3, CUDA 13.0, 2026-11-22).
    const Profile ks = parse_ncu(fixture("ncu-kogge-stone-1m.csv"));
    REQUIRE(ks.problem.empty());
    REQUIRE(ks.kernels.size() == 1);
    CHECK(ks.kernels[0].kernel == "kogge_stone_kernel");
    CHECK(ks.kernels[0].launches == 1);
    CHECK(ks.kernels[0].get("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum") == 9438208);
    CHECK(ks.kernels[0].get("smsp__inst_executed.sum") == 2654208);
    const std::string report = counters_report("kogge_stone_scan", 1 << 20, ks);
    INFO(report);
    CHECK(has(report, "9,438,208 FADD thread instructions = 9217.0 per 1024-element section; theory 9,217"));
    CHECK(has(report, "measured / theory: 1.0000"));
    CHECK(has(report, "lanes/inst"));

    // Lab 04's: the section scan twice (two levels) and the add-back.
    const Profile h = parse_ncu(fixture("ncu-hierarchical-1m.csv"));
    REQUIRE(h.kernels.size() == 2);
    CHECK(h.kernels[0].kernel == "scan_sections_kernel");
    CHECK(h.kernels[0].launches == 2);
    CHECK(h.kernels[1].kernel == "add_block_sums_kernel");
    const nlohmann::json j = counters_json("hierarchical_scan", 1 << 20, h);
    CHECK(j["fadd"] == 3141107.0);
    CHECK(j["theory_additions"] == 3141107.0);
    CHECK(j["bound_additions"] == 4.0 * (1 << 20) - 3);

    // Lanes active per warp instruction, every launch of every kernel summed:
    // (94,349,824 + 176,588 + 25,116,672) / (32 x (4,133,888 + 8,064 + 817,600)).
    CHECK(lane_share(h) == doctest::Approx(0.7538678).epsilon(1e-6));
    CHECK(lane_share(ks) == doctest::Approx(81790976.0 / (32 * 2654208.0)));
    CHECK(lane_share(Profile{}) == -1);

    // Set at the reference's work: the reference itself keeps its share; a
    // build that adds a uniform integer division per element (full warps)
    // keeps the reference's share, though its own lane_share rises; one
    // that leaves more lanes idle falls below it.
    const Lanes ref = lanes_of(h);
    CHECK(share_at_work(ref, ref) == doctest::Approx(lane_share(h)));
    const Lanes padded{ref.warp + 1e7, ref.thread + 32 * 1e7};
    CHECK(padded.thread / (32 * padded.warp) > lane_share(h));
    CHECK(share_at_work(padded, ref) == doctest::Approx(lane_share(h)));
    const Lanes divergent{ref.warp + 1e6, ref.thread + 4 * 1e6};
    CHECK(share_at_work(divergent, ref) < lane_share(h));
    CHECK(share_at_work(divergent, Lanes{}) == -1);
}

TEST_CASE("ncu without counters: the reason, never a crash") {
    const Profile denied = parse_ncu(
        "==PROF== Connected to process 1\n==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access "
        "NVIDIA GPU Performance Counters on the target device 0.\n");
    CHECK(has(denied.problem, "not permitted"));
    CHECK(has(counters_report("brent_kung_scan", 1024, denied), "no hardware counters: hardware counters are not permitted"));
    CHECK(has(parse_ncu("==ERROR== the application returned an error code (1)\n").problem, "ncu failed"));
    CHECK(has(parse_ncu("garbage\n\"ID\",\"x\"\n").problem, "no counter table"));
}

TEST_CASE("the table and the JSON carry every figure") {
    BenchResult r;
    r.device = "Test GPU";
    r.l2_bytes = 50 << 20;
    r.lab = "02-brent-kung";
    r.function = "brent_kung_scan";
    r.module = "a.so";
    r.against = "b.so";
    SizeResult size;
    size.n = 1 << 24;
    size.candidates = {{"cudaMemcpy device to device", "copy", summarize({0.05})},
                       {"CUB DeviceScan::InclusiveSum", "cub", summarize({0.06})},
                       {"brent_kung_scan (module)", "module", summarize({0.1})},
                       {"brent_kung_scan (against)", "against", summarize({0.08})}};
    size.ratio = summarize({1.25});
    size.rounds = 20;
    size.stopped = Stopped::Converged;
    r.sizes.push_back(size);
    CHECK(gbytes_per_s(1 << 24, 0.05) == doctest::Approx(2684.35).epsilon(0.001));
    const std::string t = table(r);
    INFO(t);
    CHECK(has(t, "brent_kung_scan (module)"));
    CHECK(has(t, "  50.0 "));   // % of copy: 0.05 / 0.1
    CHECK(has(t, "  60.0"));    // % of CUB
    CHECK(has(t, "module / against: 1.250x"));
    CHECK(has(t, "20 rounds, stopped: converged"));
    const nlohmann::json j = to_json(r);
    CHECK(j["sizes"][0]["ratio"]["median"] == 1.25);
    CHECK(j["sizes"][0]["candidates"][2]["percent_of_copy"] == doctest::Approx(50));
    CHECK(j["stop_rule"]["rel_ci"] == 0.005);
}

TEST_CASE("a graded time's bounds: the copy and the reference recorded alone, and the reference slowed beside it") {
    const Alone alone{0.060, 0.220};  // lab 04 at 2^24 on an H100: the copy, the reference
    // Believed: at the reference's speed, at twice the copy's, at the copy's itself.
    CHECK(doubt(alone, 0.221, 0.061, 0.222).empty());
    CHECK(doubt(alone, 0.120, 0.060, 0.219).empty());
    CHECK(doubt(alone, 0.060, 0.060, 0.220).empty());
    // Under the copy recorded alone, though the rounds' copy was slowed to match.
    CHECK(has(doubt(alone, 0.059, 0.050, 0.220), "faster than a device-to-device copy"));
    // Under a quarter of the reference's recorded time, where the copy is no floor.
    CHECK(has(doubt(Alone{0.010, 0.220}, 0.054, 0.010, 0.220), "under a quarter of the reference's time"));
    CHECK(doubt(Alone{0.010, 0.220}, 0.056, 0.010, 0.220).empty());
    // The reference or the copy slower beside the submission's process than alone.
    CHECK(has(doubt(alone, 0.300, 0.061, 0.280), "the reference's build took 1.27x as long beside"));
    CHECK(has(doubt(alone, 0.300, 0.080, 0.221), "the device-to-device copy took 1.33x"));
    CHECK(doubt(alone, 0.300, 0.074, 0.274).empty());  // within 1.25x: noise and clocks
    // Nothing recorded alone (timed outside grading): the copy of the rounds alone bounds it.
    CHECK(doubt(Alone{}, 0.300, 0.060, 0.900).empty());
    CHECK_FALSE(doubt(Alone{}, 0.050, 0.060, 0.900).empty());
}

TEST_CASE("a graded size records what was timed alone, in the table and the JSON") {
    BenchResult r;
    r.device = "a GPU";
    r.lab = "04-hierarchical";
    r.function = "hierarchical_scan";
    SizeResult size;
    size.n = 1 << 24;
    size.alone = Alone{0.0601, 0.2203};
    r.sizes.push_back(size);
    CHECK(has(table(r), "recorded alone first: the copy 0.0601 ms, the build timed against 0.2203 ms"));
    const auto j = to_json(r);
    CHECK(j["sizes"][0]["alone"]["copy_ms"].get<double>() == doctest::Approx(0.0601));
    CHECK(j["sizes"][0]["alone"]["against_ms"].get<double>() == doctest::Approx(0.2203));
}
