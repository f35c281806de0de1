// Findings as data (finding.hpp): every template of the sentence a person
// reads, and every message the emulator writes, reworded, and no verdict,
// de-duplication or triage changes. A reader that took the words apart
// (a regex for "(and N more blocks)", a search for "uninitialized", the
// kernel between " in kernel " and ": ") fails here.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "finding.hpp"
#include "finding_json.hpp"
#include "observation.hpp"
#include "score.hpp"
#include "triage.hpp"

using namespace harness;
using finding::Finding;
using finding::Source;

namespace {

const datasets::ScanSpec kLab01{datasets::ScanKind::Inclusive, 1024, 1024};

// The kind each check of the emulator sets when it fires (simt's report
// sites), for the findings these tests make.
std::string kind_of(const std::string& check) {
    static const std::map<std::string, std::string> kinds = {
        {"data race on shared memory", "race"}, {"data race on global memory", "race"},
        {"barrier divergence", "barrier"}, {"warp divergence", "barrier"}, {"possible deadlock", "barrier"},
        {"possible endless loop", "barrier"}, {"grid sync outside a cooperative launch", "barrier"},
        {"uninitialized shared memory read", "uninitialised"}, {"out-of-bounds access", "memory"},
        {"misaligned address", "memory"}, {"invalid address space", "memory"}, {"kernel access to host memory", "memory"},
        {"kernel launch from device code", "memory"}, {"cooperative groups error", "memory"}};
    return kinds.at(check);
}

// One of the emulator's findings, as device_emu.cpp makes it from simt::Finding.
Finding emulated(const std::string& check, const std::string& block, const std::string& message,
                 std::vector<std::string> lines, unsigned long long blocks = 1, const std::string& kernel = "scan_kernel") {
    Finding f;
    f.source = Source::Emulator;
    f.kind = score::emulator_category(kind_of(check));
    f.undefined = score::emulator_undefined(kind_of(check));
    f.check = check;
    f.kernel = kernel;
    f.block = block;
    f.thread = "5";
    f.lines = std::move(lines);
    f.launch = "scan.cu:80";
    f.blocks = blocks;
    f.message = "block " + block + ": " + message;
    return f;
}

Finding sanitized(const std::string& tool, const std::string& kind, bool undefined, const std::string& check,
                  const std::string& message, std::vector<std::string> lines, unsigned long long reports) {
    Finding f;
    f.source = Source::Sanitizer;
    f.tool = tool;
    f.kind = kind;
    f.undefined = undefined;
    f.check = check;
    f.kernel = "scan_kernel";
    f.lines = std::move(lines);
    f.reports = reports;
    f.message = message;
    return f;
}

// What one dataset's run found: every check of the emulator once, some twice
// (another block, or only another count of blocks), a leak, and
// compute-sanitizer's kinds of finding. `large`: as on a large dataset, where
// the same bugs show in other blocks and more of them.
std::vector<Finding> found(bool large) {
    const std::string b = large ? "(417,0,0)" : "(0,0,0)";
    const unsigned long long n = large ? 4096 : 1;
    return {
        emulated("data race on shared memory", b, "XY[1] written by thread 1 at scan.cu:24 and read by thread 2 at scan.cu:22",
                 {"scan.cu:24", "scan.cu:22"}, n),
        emulated("data race on shared memory", b, "XY[1] written by thread 1 at scan.cu:24 and read by thread 2 at scan.cu:22",
                 {"scan.cu:24", "scan.cu:22"}, n + 1),  // the same but for its count of blocks
        emulated("data race on global memory", b, "the word at byte 16, written by another block (serial 0) thread 0 at "
                 "scan.cu:41 and read by thread 0 at scan.cu:63", {"scan.cu:41", "scan.cu:63"}, n),
        emulated("uninitialized shared memory read", b, "thread 3 read XY[40] at scan.cu:30, which no thread of this "
                 "block has written", {"scan.cu:30"}),
        emulated("out-of-bounds access", b, "thread 5 read 4 bytes at offset 4096 of a 4096-byte device allocation "
                 "(past its end) at scan.cu:18", {"scan.cu:18"}, n),
        emulated("out-of-bounds access", "(1,0,0)", "thread 5 read 4 bytes at offset 4100 of a 4096-byte device "
                 "allocation (past its end) at scan.cu:18", {"scan.cu:18"}, n),  // another block: other words
        emulated("kernel access to host memory", b, "thread 0 wrote 4 bytes at scan.cu:19 outside every device "
                 "allocation and shared array", {"scan.cu:19"}),
        emulated("misaligned address", b, "thread 0 made a float4 load from byte offset 4 of XY, not a multiple of 16, "
                 "at scan.cu:27", {"scan.cu:27"}),
        emulated("invalid address space", b, "thread 0 read 4 bytes of XY[0] with __ldg at scan.cu:28", {"scan.cu:28"}),
        emulated("barrier divergence", b, "thread 0 exited while threads 1-1023 waited at __syncthreads() at scan.cu:23",
                 {"scan.cu:23"}, n),
        emulated("warp divergence", b, "threads 0-15 waited at a warp function at scan.cu:40 while threads 16-31, "
                 "named in its mask, did not arrive", {"scan.cu:40"}),
        emulated("grid sync outside a cooperative launch", b, "thread 0 called the grid group's sync() at scan.cu:50",
                 {"scan.cu:50"}),
        emulated("cooperative groups error", b, "thread 0 called thread_rank() at scan.cu:51", {"scan.cu:51"}),
        emulated("kernel launch from device code", b, "thread 0 launched child at scan.cu:52 from device code",
                 {"scan.cu:52"}),
        emulated("possible deadlock", b, "thread 0 waits at scan.cu:60 for a value that no running block changes",
                 {"scan.cu:60"}),
        emulated("possible endless loop", b, "threads 0-31 have run 100000000 basic blocks in the loop at "
                 "scan.cu:70-72; now threads 0-31 run at scan.cu:71", {"scan.cu:70", "scan.cu:71"}),
        finding::leak(large ? 8196 : 8, 1, "scan"),
        sanitized("racecheck", "race", false, "data race on shared memory", "a read at scan.cu:24 and a write at "
                  "scan.cu:24 by threads of one block with no barrier between them", {"scan.cu:24"}, large ? 4 : 1),
        sanitized("memcheck", "memory", true, "out-of-bounds write of 4 bytes to global memory",
                  "block (2,0,0), thread (64,0,0), at scan.cu:19", {"scan.cu:19"}, 8),
        sanitized("memcheck", "leak", false, "device memory leaked", "8 bytes allocated at scan.cu:51 and never freed",
                  {"scan.cu:51"}, 1),
        sanitized("initcheck", "memory", false, "uninitialized global memory read of 4 bytes",
                  "block (0,0,0), thread (32,0,0), at scan.cu:39", {"scan.cu:39"}, 8),
        sanitized("synccheck", "barrier", true, "barrier divergence", "block (0,0,0), thread (0,0,0), at scan.cu:26: "
                  "Divergent thread(s) in warp", {"scan.cu:26"}, 2),
    };
}

// Everything a reader decides from a run's findings, as text to compare.
std::string verdicts(const std::vector<Finding>& tiny, const std::vector<Finding>& large) {
    std::string out;
    // The grader's and ./scan-labs check's: each finding's category and
    // whether the run's values prove nothing; the safety checks left clean.
    std::map<std::string, std::vector<Finding>> noted;  // grade.cpp's note_finding: the first 3 of a kind
    for (const auto* run : {&tiny, &large})
        for (const Finding& f : *run) {
            out += f.kind + (f.undefined ? " undefined" : "") + "\n";
            finding::note(noted[f.kind], f, 3);
        }
    int clean = 0;
    for (const char* category : score::kCategories) clean += noted.count(category) == 0;
    out += "clean " + std::to_string(clean) + "\n";
    // De-duplication: which findings each kind keeps, by their position in the runs.
    for (const auto& [kind, list] : noted)
        for (const Finding& f : list)
            for (const auto* run : {&tiny, &large})
                for (std::size_t i = 0; i < run->size(); ++i)
                    if ((*run)[i] == f) out += "noted " + kind + " " + std::to_string(i) + (run == &tiny ? " tiny\n" : " large\n");
    // The suite's judge: the rules that fail, and its triage of the emulator's findings.
    Triage triage;
    for (const auto* run : {&tiny, &large}) {
        Observation seen;
        seen.n = 1;
        seen.in_after = guarded({5});
        seen.out = guarded({5});
        for (const Finding& f : *run)
            if (f.source == Source::Emulator) seen.findings.push_back(f);
        const std::vector<Check> checks = judge({5}, seen, kLab01, true, "scan");
        for (const Check& c : checks) out += c.rule + (c.ok ? " ok\n" : " FAIL\n");
        const std::vector<Problem> problems = problems_of(checks, seen, "scan", "labs/01-kogge-stone");
        for (const Problem& p : problems) out += "problem " + p.key + " | " + p.title + " | " + p.brief + "\n";
        for (const Problem& p : triage.add("scan", run == &tiny ? "tiny" : "large", problems)) out += "fresh " + p.key + "\n";
        out += fail_line(run == &tiny ? "tiny" : "large", problems) + "\n";
        // The observation file carries the records whole.
        const std::string path = "test-finding-" + std::to_string(run == &tiny) + ".obs";
        write_observation(path, seen);
        const Observation back = read_observation(path);
        std::remove(path.c_str());
        out += back.findings == seen.findings ? "file same\n" : "file DIFFERS\n";
    }
    out += "distinct " + std::to_string(triage.distinct()) + "\n";
    return out;
}

// The rewording: every fixed part of every template, and every message of
// the emulator and the tools, said otherwise (here: backwards, bracketed).
std::string backwards(const std::string& part) { return "[" + std::string(part.rbegin(), part.rend()) + "]"; }

std::vector<Finding> reworded(std::vector<Finding> run) {
    for (Finding& f : run) f.message = backwards(f.message);
    return run;
}

struct Rewording {
    Rewording() { finding::set_rewording(backwards); }
    ~Rewording() { finding::set_rewording(nullptr); }
};

}  // namespace

TEST_CASE("the sentences are today's: the emulator's, the harness's leak, compute-sanitizer's, a withheld one") {
    Finding race = emulated("data race on shared memory", "(0,0,0)", "partial[1] written by thread 1 at scan.cu:24",
                            {"scan.cu:24"}, 1, "k");
    CHECK(finding::sentence(race) ==
          "data race on shared memory in kernel k: block (0,0,0): partial[1] written by thread 1 at scan.cu:24; "
          "launched at scan.cu:80");
    race.blocks = 2;
    CHECK(finding::sentence(race).find("scan.cu:24 (and 1 more block); launched at scan.cu:80") != std::string::npos);
    race.blocks = 5;
    CHECK(finding::sentence(race).find("scan.cu:24 (and 4 more blocks); launched at scan.cu:80") != std::string::npos);
    CHECK(finding::sentence(finding::leak(8, 1, "hierarchical_scan")) ==
          "8 bytes in 1 allocation(s) still live after hierarchical_scan returned (cudaFree every temporary)");
    Finding racecheck = sanitized("racecheck", "race", false, "data race on shared memory", "a read at scan.cu:25",
                                  {"scan.cu:25"}, 4);
    racecheck.pairs = 14;
    racecheck.hazards = 5748;
    CHECK(finding::sentence(racecheck) ==
          "data race on shared memory in kernel scan_kernel: a read at scan.cu:25 (14 access pairs at these lines), "
          "5748 hazards (4 reports printed) (compute-sanitizer racecheck)");
    racecheck.kernel.clear();
    racecheck.function = "scan";
    racecheck.pairs = racecheck.hazards = 0;
    racecheck.reports = 1;
    CHECK(finding::sentence(racecheck) == "data race on shared memory: a read at scan.cu:25 (compute-sanitizer racecheck on scan)");
    CHECK(finding::sentence(finding::withheld(racecheck, "hidden dataset 2 of lab 01")) ==
          "race finding on hidden dataset 2 of lab 01 (details shown after grades are published)");
}

TEST_CASE("a finding as JSON: each field under its name, the source by name, and back (finding_json.hpp)") {
    Finding race = emulated("data race on shared memory", "(3,0,0)", "a read at scan.cu:25", {"scan.cu:25", "scan.cu:24"}, 4);
    race.columns = {13, 0};
    const nlohmann::json j = race;
    CHECK(j.at("source") == "emulator");
    CHECK(j.at("check") == "data race on shared memory");
    CHECK(j.at("lines") == nlohmann::json({"scan.cu:25", "scan.cu:24"}));
    CHECK(j.at("columns") == nlohmann::json({13, 0}));
    CHECK(j.at("blocks") == 4);
    CHECK(j.size() == 20);  // every field of finding.hpp's record
    for (const Finding& f : {race, finding::leak(8, 1, "hierarchical_scan"),
                             sanitized("racecheck", "race", false, "data race on shared memory", "m", {"scan.cu:25"}, 4),
                             finding::withheld(race, "hidden dataset 2 of lab 01")})
        CHECK(nlohmann::json(f).get<Finding>() == f);
    CHECK(nlohmann::json(finding::leak(8, 1, "scan")).at("source") == "harness");
    nlohmann::json unknown = j;
    unknown["source"] = "gpu";
    CHECK_THROWS_AS(unknown.get<Finding>(), nlohmann::json::exception);
    unknown = j;
    unknown.erase("columns");  // a results file written before columns: none known
    CHECK(unknown.get<Finding>().columns.empty());
    unknown = j;
    unknown.erase("message");
    CHECK_THROWS_AS(unknown.get<Finding>(), nlohmann::json::exception);
}

TEST_CASE("the emulator's kinds by the rubric's category, and which leave the values proving nothing") {
    CHECK(score::emulator_category("race") == "race");
    CHECK(score::emulator_category("barrier") == "barrier");
    CHECK(score::emulator_category("memory") == "memory");
    CHECK(score::emulator_category("uninitialised") == "memory");
    // A kind nobody set, or a check's name, is a defect: never the catch-all.
    CHECK_THROWS_AS(score::emulator_category(""), std::invalid_argument);
    CHECK_THROWS_AS(score::emulator_category("warp divergence"), std::invalid_argument);
    CHECK_FALSE(score::emulator_undefined("race"));
    CHECK_FALSE(score::emulator_undefined("uninitialised"));
    CHECK(score::emulator_undefined("barrier"));
    CHECK(score::emulator_undefined("memory"));
}

TEST_CASE("rewording every template and message changes no verdict, de-duplication or triage") {
    const std::vector<Finding> tiny = found(false), large = found(true);
    const std::string before = verdicts(tiny, large);
    std::vector<std::string> sentences;
    for (const Finding& f : tiny) sentences.push_back(finding::sentence(f));
    for (const Finding& f : large) sentences.push_back(finding::sentence(f));

    std::string after;
    std::vector<std::string> reworded_sentences;
    {
        const Rewording rewording;
        const std::vector<Finding> tiny2 = reworded(tiny), large2 = reworded(large);
        after = verdicts(tiny2, large2);
        for (const Finding& f : tiny2) reworded_sentences.push_back(finding::sentence(f));
        for (const Finding& f : large2) reworded_sentences.push_back(finding::sentence(f));
    }
    // The words did change, every sentence and each of its fixed parts:
    // none of the old wording's connectives is left.
    REQUIRE(sentences.size() == reworded_sentences.size());
    for (std::size_t i = 0; i < sentences.size(); ++i) {
        CAPTURE(reworded_sentences[i]);
        CHECK(sentences[i] != reworded_sentences[i]);
        for (const char* part : {" in kernel ", "; launched at ", " more block", " bytes in ", " reports printed",
                                 "(compute-sanitizer ", " finding on "})
            CHECK(reworded_sentences[i].find(part) == std::string::npos);
    }
    // The de-duplication kept a repeat out, and another block's finding in.
    CHECK(before.find("noted race 1 tiny") == std::string::npos);
    CHECK(before.find("noted memory 5 tiny") != std::string::npos);
    MESSAGE(before);
    CHECK(after == before);
}
