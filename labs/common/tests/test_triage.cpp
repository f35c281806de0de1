// The short report of a failing lab suite (triage.hpp): a problem is shown in
// full once however many datasets show it, its key ignores what changes with
// the dataset (blocks, threads, counts, indices) and nothing else, and the
// summary puts undefined behaviour first, then wrong results, then notes.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "compare.hpp"
#include "observation.hpp"
#include "triage.hpp"

using namespace harness;

namespace {

const datasets::ScanSpec kLab01{datasets::ScanKind::Inclusive, 1024, 1024};

// One of the emulator's findings, as device_emu.cpp makes it.
finding::Finding emulated(const std::string& check, const std::string& kernel, const std::string& block,
                          const std::string& message, std::vector<std::string> lines, const std::string& launch,
                          unsigned long long blocks = 1) {
    finding::Finding f;
    f.source = finding::Source::Emulator;
    f.kind = check.rfind("data race", 0) == 0 ? "race" : "barrier";
    f.undefined = f.kind == "barrier";
    f.check = check;
    f.kernel = kernel;
    f.block = block;
    f.message = "block " + block + ": " + message;
    f.lines = std::move(lines);
    f.launch = launch;
    f.blocks = blocks;
    return f;
}

// Lab 01's stub as the emulator reports it on a tiny dataset and on a large one.
const std::string kBarrierWords =
    "thread 0 exited while threads 1-1023 waited at __syncthreads() at scan.cu:23 (a barrier every thread of the "
    "block must reach: is it inside a loop or branch whose trip count depends on threadIdx?)";
const finding::Finding kBarrierTiny =
    emulated("barrier divergence", "kogge_stone_kernel", "(0,0,0)", kBarrierWords, {"scan.cu:23"}, "scan.cu:32");
const finding::Finding kBarrierLarge =
    emulated("barrier divergence", "kogge_stone_kernel", "(417,0,0)", kBarrierWords, {"scan.cu:23"}, "scan.cu:32", 1024);
const finding::Finding kRaceTiny =
    emulated("data race on shared memory", "kogge_stone_kernel", "(0,0,0)",
             "partial[1] written by thread 1 at scan.cu:24 and read by thread 2 at scan.cu:24 between the same two "
             "barriers",
             {"scan.cu:24"}, "scan.cu:32");
const finding::Finding kRaceLarge =
    emulated("data race on shared memory", "kogge_stone_kernel", "(417,0,0)",
             "partial[5] written by thread 5 at scan.cu:24 and read by thread 7 at scan.cu:24 between the same two "
             "barriers",
             {"scan.cu:24"}, "scan.cu:32", 4097);

// One run on `input` that wrote `out` (the rest poisoned) with these findings.
Observation run_of(const std::vector<float>& input, std::vector<float> out,
                   std::vector<finding::Finding> findings = {}) {
    Observation seen;
    seen.n = input.size();
    seen.in_after = guarded(input);
    out.resize(input.size() + kGuard, compare::poison());
    seen.out = out;
    seen.findings = std::move(findings);
    return seen;
}

std::vector<Problem> problems(const std::vector<float>& input, const Observation& seen) {
    return problems_of(judge(input, seen, kLab01, true, "kogge_stone_scan"), seen, "kogge_stone_scan",
                       "labs/01-kogge-stone");
}

std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("the emulator's findings read as the emulator wrote them") {
    CHECK(finding::sentence(kBarrierTiny) ==
          "barrier divergence in kernel kogge_stone_kernel: block (0,0,0): thread 0 exited while threads 1-1023 waited "
          "at __syncthreads() at scan.cu:23 (a barrier every thread of the block must reach: is it inside a loop or "
          "branch whose trip count depends on threadIdx?); launched at scan.cu:32");
    CHECK(finding::sentence(kRaceLarge) ==
          "data race on shared memory in kernel kogge_stone_kernel: block (417,0,0): partial[5] written by thread 5 at "
          "scan.cu:24 and read by thread 7 at scan.cu:24 between the same two barriers (and 4096 more blocks); "
          "launched at scan.cu:32");
    finding::Finding two = kRaceTiny;
    two.blocks = 2;
    CHECK(finding::sentence(two).find("barriers (and 1 more block); launched at scan.cu:32") != std::string::npos);
}

TEST_CASE("a finding's key is its kind, kernel and source lines, not its blocks, threads or counts") {
    CHECK(finding::problem_key(kBarrierTiny) == finding::problem_key(kBarrierLarge));
    CHECK(finding::problem_key(kRaceTiny) == finding::problem_key(kRaceLarge));
    CHECK(finding::problem_key(kRaceTiny) != finding::problem_key(kBarrierTiny));
    finding::Finding other_line = kRaceTiny;
    other_line.lines.push_back("scan.cu:25");
    CHECK(finding::problem_key(other_line) != finding::problem_key(kRaceTiny));
    finding::Finding other_kernel = kRaceTiny;
    other_kernel.kernel = "brent_kung_kernel";
    CHECK(finding::problem_key(other_kernel) != finding::problem_key(kRaceTiny));
    finding::Finding other_launch = kRaceTiny;
    other_launch.launch = "scan.cu:40";
    CHECK(finding::problem_key(other_launch) != finding::problem_key(kRaceTiny));
    // One race between global memory's writer and reader, seen from either side: one problem.
    CHECK(finding::problem_key(emulated("data race on global memory", "k<true>", "(0,0,0)", "the word at byte 16 ...",
                               {"scan.cu:41", "scan.cu:63"}, "scan.cu:173")) ==
          finding::problem_key(emulated("data race on global memory", "k<true>", "(3,0,0)", "the word at byte 48 ...",
                               {"scan.cu:63", "scan.cu:41"}, "scan.cu:173")));
    // A withheld one names only its kind and dataset: one problem per dataset.
    CHECK(finding::problem_key(finding::withheld(kRaceTiny, "hidden dataset 1 of lab 01")) ==
          finding::problem_key(finding::withheld(kRaceLarge, "hidden dataset 1 of lab 01")));
    CHECK(finding::problem_key(finding::withheld(kRaceTiny, "hidden dataset 1 of lab 01")) !=
          finding::problem_key(finding::withheld(kRaceTiny, "hidden dataset 2 of lab 01")));
    CHECK(finding::title(kRaceLarge) == "data race on shared memory in kernel kogge_stone_kernel at scan.cu:24");
    // Lines sort by number, not as text.
    CHECK(finding::problem_key(emulated("data race on shared memory", "k", "(0,0,0)", "", {"scan.cu:100", "scan.cu:9"}, "scan.cu:1"))
              .find("|scan.cu:9,scan.cu:100|") != std::string::npos);
}

TEST_CASE("a problem shown on one dataset is not shown again on the next; the summary counts them") {
    Triage triage;
    // tiny: the two findings, values right (n = 1).
    const std::vector<float> one{5};
    const auto first = triage.add("kogge_stone_scan", "tiny dataset walk1 n=1 seed=102",
                                  problems(one, run_of(one, {5}, {kBarrierTiny, kRaceTiny})));
    REQUIRE(first.size() == 2);
    // In full, each as an editor's diagnostic: the line it names, then its launch.
    CHECK(first[0].full == "labs/01-kogge-stone/scan.cu:23: error: " + finding::sentence(kBarrierTiny) +
                               "\n  labs/01-kogge-stone/scan.cu:32: note: the kernel was launched here");
    CHECK(first[1].full == "labs/01-kogge-stone/scan.cu:24: error: " + finding::sentence(kRaceTiny) +
                               "\n  labs/01-kogge-stone/scan.cu:32: note: the kernel was launched here");
    // Wrong values on two datasets: same hint, other counts and indices.
    const std::vector<float> five{1, 1, 1, 1, 1}, six{2, 2, 2, 2, 2, 2};
    const auto second = triage.add("kogge_stone_scan", "tiny dataset walk4 n=5 seed=103",
                                   problems(five, run_of(five, {1, 2, 3, 1, 2}, {kBarrierTiny, kRaceTiny})));
    REQUIRE(second.size() == 1);  // only the wrong values are new
    CHECK(second[0].rule == "outputs_match");
    const auto five_problems = problems(five, run_of(five, {1, 2, 3, 1, 2}, {kBarrierTiny, kRaceTiny}));
    CHECK(fail_line("kogge_stone_scan on tiny dataset walk4 n=5 seed=103", five_problems) ==
          "kogge_stone_scan on tiny dataset walk4 n=5 seed=103: barrier divergence at scan.cu:23; data race on shared "
          "memory at scan.cu:24; values: first wrong output at index 3 (2 of 5 wrong)");
    const auto third = triage.add("kogge_stone_scan", "large dataset walk4 n=6 seed=131",
                                  problems(six, run_of(six, {2, 4, 6, 8, 2, 4}, {kBarrierLarge, kRaceLarge})));
    CHECK(third.empty());
    CHECK(triage.add("kogge_stone_scan", "tiny dataset walk1 n=0 seed=101", {}).empty());  // passed
    CHECK(triage.distinct() == 3);
    REQUIRE(triage.failed());

    const std::string summary = triage.summary("Every finding of every dataset: run again with --details");
    MESSAGE(summary);
    CHECK(count(summary, "barrier divergence in kernel kogge_stone_kernel at scan.cu:23\n") == 1);
    CHECK(count(summary, "data race on shared memory in kernel kogge_stone_kernel at scan.cu:24\n") == 1);
    CHECK(count(summary,
                "first seen: kogge_stone_scan on tiny dataset walk1 n=1 seed=102; same finding on 2 more datasets") ==
          2);
    CHECK(count(summary,
                "first seen: kogge_stone_scan on tiny dataset walk4 n=5 seed=103; same finding on 1 more dataset\n") ==
          1);
    CHECK(count(summary, "3 distinct problems (on 3 of 4 datasets)") == 1);
    CHECK(summary.find("Every finding of every dataset: run again with --details\n") != std::string::npos);
}

TEST_CASE("the summary lists undefined behaviour first, then wrong results, then notes, whatever came first") {
    Triage triage;
    const std::vector<float> five{1, 1, 1, 1, 1};
    triage.add("f", "a", problems(five, run_of(five, {1, 1, 1, 1, 1})));  // never scanned: wrong values only
    Observation leaky = run_of(five, {1, 2, 3, 4, 5});
    leaky.leaked_bytes = 8;
    leaky.leaked_allocations = 1;
    const auto leaked = problems(five, leaky);
    REQUIRE(leaked.size() == 1);
    // The harness's leak in full: the rule's words, then the leak as a warning on the lab's scan.cu.
    CHECK(leaked[0].full == "device memory leaked:\n  labs/01-kogge-stone/scan.cu: warning: 8 bytes in 1 allocation(s) "
                            "still live after kogge_stone_scan returned (cudaFree every temporary)");
    triage.add("f", "b", leaked);
    triage.add("f", "c", problems(five, run_of(five, {1, 2, 3, 4, 5}, {kRaceTiny})));
    Observation wrote_past = run_of(five, {1, 2, 3, 4, 5, 9});
    triage.add("f", "d", problems(five, wrote_past));
    triage.add_divergence("f", "c", {{"kogge_stone_kernel", 1, 1, {{{16, 1, 1}}}, {}}});
    triage.add_divergence("f", "d", {{"kogge_stone_kernel", 1, 1, {{{8, 1, 1}}}, {}}});
    triage.add_divergence("f", "d", {{"even_kernel", 1, 1, {{{32, 1, 0}}}, {}}});  // never diverged: no note
    const std::string s = triage.summary("");
    MESSAGE(s);
    const std::size_t
        race = s.find("1. undefined behaviour: data race on shared memory"),
        past = s.find("2. undefined behaviour: kogge_stone_scan: nothing_written_past_n"),
        values = s.find("3. wrong result: kogge_stone_scan computes wrong values; hint: the outputs equal the inputs"),
        leak = s.find("4. wrong result: kogge_stone_scan: temporaries_freed: device memory leaked: 8 bytes"),
        note = s.find("5. note: kernel kogge_stone_kernel diverges: SIMT efficiency 25.0% at the lowest, on f on d");
    CHECK(race != std::string::npos);
    CHECK(past > race);
    CHECK(values > past);
    CHECK(leak > values);
    CHECK(note > leak);
    CHECK(note != std::string::npos);
    CHECK(s.find("even_kernel") == std::string::npos);
    CHECK(s.find("Undefined behaviour first") != std::string::npos);
}

TEST_CASE("other hints, rules and functions are other problems; a passing run has no summary") {
    Triage triage;
    const std::vector<float> five{1, 1, 1, 1, 1};
    CHECK(triage.add("f", "a", problems(five, run_of(five, {1, 2, 3, 4, 5}))).empty());
    CHECK(triage.summary("details").empty());
    CHECK_FALSE(triage.failed());
    const auto never_scanned = problems(five, run_of(five, {1, 1, 1, 1, 1}));
    const auto unwritten = problems(five, run_of(five, {}));
    REQUIRE(never_scanned.size() == 1);
    REQUIRE(unwritten.size() == 1);
    CHECK(never_scanned[0].key != unwritten[0].key);
    CHECK(triage.add("f", "b", never_scanned).size() == 1);
    CHECK(triage.add("f", "c", unwritten).size() == 1);
    auto other_function = never_scanned;
    other_function[0] = problems_of(judge(five, run_of(five, {1, 1, 1, 1, 1}), kLab01, true, "g"),
                                    run_of(five, {1, 1, 1, 1, 1}), "g", "labs/01-kogge-stone")[0];
    CHECK(triage.add("g", "b", other_function).size() == 1);
    CHECK(triage.distinct() == 3);
    CHECK(triage.summary("").find("3 distinct problems (f on 2 of 3 datasets, g on 1 of 1 dataset)") !=
          std::string::npos);
}

TEST_CASE("a run that gave nothing to judge is one problem on every dataset, whatever its numbers") {
    const Problem a = failed_run("kogge_stone_scan", "timed out after 12 s"), b = failed_run("kogge_stone_scan", "timed out after 30 s");
    CHECK(a.key == b.key);
    CHECK(a.key != failed_run("brent_kung_scan", "timed out after 12 s").key);
    CHECK(a.severity == Severity::WrongResult);
    CHECK(a.title == "kogge_stone_scan: timed out after 12 s");
}
