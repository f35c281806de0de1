// Where a finding points (finding_place.hpp): its places from its fields,
// its severity, and the compiler-style lines editors' problem matchers read.
#include <doctest/doctest.h>

#include "finding_place.hpp"

using finding::Finding;
using finding::Source;

namespace {

Finding race() {
    Finding f;
    f.source = Source::Emulator;
    f.kind = "race";
    f.undefined = true;
    f.check = "data race on shared memory";
    f.kernel = "brent_kung_kernel";
    f.lines = {"scan.cu:25", "scan.cu:31", "scan.cu:25", "?"};
    f.launch = "scan.cu:80";
    f.message = "thread 5 read what thread 4 wrote";
    return f;
}

}  // namespace

TEST_CASE("a finding's places: its lines in order, each once, then its launch; no '?'") {
    const auto at = finding::places(race());
    REQUIRE(at.size() == 3);
    CHECK(at[0].file == "scan.cu");
    CHECK(at[0].line == 25);
    CHECK_FALSE(at[0].launch);
    CHECK(at[1].line == 31);
    CHECK(at[2].line == 80);
    CHECK(at[2].launch);

    Finding header = race();
    header.lines = {"scan_helpers.cuh:7", "not a place", "scan.cu:0", "/abs/scan.cu:3", "scan.cu:x"};
    header.launch = "scan.cu:25";
    const auto h = finding::places(header);
    REQUIRE(h.size() == 2);
    CHECK(h[0].file == "scan_helpers.cuh");
    CHECK(h[0].line == 7);
    CHECK(h[1].line == 25);
    CHECK(h[1].launch);
}

TEST_CASE("severity: a leak warns, every other check is an error") {
    CHECK(finding::severity(race()) == finding::Severity::error);
    CHECK(std::string(finding::name(finding::severity(finding::leak(64, 1, "brent_kung_scan")))) == "warning");
    Finding memory = race();
    memory.kind = "memory";
    CHECK(finding::severity(memory) == finding::Severity::error);
}

TEST_CASE("the diagnostic without columns: FOLDER/FILE:LINE: error: SENTENCE, then a note for each other place") {
    const auto lines = finding::diagnostic(race(), "labs/02-brent-kung");
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "labs/02-brent-kung/scan.cu:25: error: " + finding::sentence(race()));
    CHECK(lines[1] == "labs/02-brent-kung/scan.cu:31: note: a line this finding involves");
    CHECK(lines[2] == "labs/02-brent-kung/scan.cu:80: note: the kernel was launched here");
    // A leak names no line: it points at the file.
    const auto leak = finding::diagnostic(finding::leak(64, 1, "brent_kung_scan"), "labs/02-brent-kung/");
    REQUIRE(leak.size() == 1);
    CHECK(leak[0].rfind("labs/02-brent-kung/scan.cu: warning: 64 bytes in 1 allocation(s)", 0) == 0);
}

TEST_CASE("the diagnostic with the columns the emulator read: FILE:LINE:COL where known, each place its own") {
    Finding f = race();
    f.columns = {13, 0, 9, 0};  // per line: scan.cu:25 at 13, scan.cu:31 unknown, the repeat and "?" ignored
    const auto at = finding::places(f);
    REQUIRE(at.size() == 3);
    CHECK(at[0].column == 13);
    CHECK(at[1].column == 0);
    CHECK(at[2].column == 0);  // the launch's: never read
    const auto lines = finding::diagnostic(f, "labs/02-brent-kung");
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] == "labs/02-brent-kung/scan.cu:25:13: error: " + finding::sentence(f));
    CHECK(lines[1] == "labs/02-brent-kung/scan.cu:31: note: a line this finding involves");
    // Fewer columns than lines (a record from before columns): the rest unknown.
    f.columns = {7};
    CHECK(finding::diagnostic(f, "labs/02-brent-kung")[0].rfind("labs/02-brent-kung/scan.cu:25:7: error: ", 0) == 0);
    f.columns.clear();
    CHECK(finding::diagnostic(f, "labs/02-brent-kung")[0].rfind("labs/02-brent-kung/scan.cu:25: error: ", 0) == 0);
}
