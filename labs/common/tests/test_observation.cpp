// The runner's result file: what write_observation writes, read_observation
// reads back (the divergence maps' cells included), and every truncated,
// forged or foreign file is refused with a reason, never read out of bounds.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "compare.hpp"
#include "observation.hpp"

using namespace harness;

namespace {

const std::string kPath = "test-observation.bin";

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

// One record with every field set, so that a field the file drops shows.
finding::Finding race() {
    finding::Finding f;
    f.source = finding::Source::Emulator;
    f.kind = "race";
    f.undefined = false;
    f.tool = "tool";
    f.check = "data race on shared memory";
    f.kernel = "k";
    f.function = "scan";
    f.lines = {"scan.cu:24", "scan.cu:20"};
    f.launch = "scan.cu:80";
    f.block = "(1,0,0)";
    f.thread = "5";
    f.allocation = "XY";
    f.blocks = 3;
    f.bytes = 4;
    f.allocations = 1;
    f.reports = 2;
    f.pairs = 6;
    f.hazards = 7;
    f.message = "block (1,0,0): XY[4] written by thread 4 at scan.cu:20 and read by thread 5 at scan.cu:24";
    return f;
}

Observation sample() {
    Observation seen;
    seen.n = 3;
    seen.in_after = guarded({1, 2, 3});
    seen.out.assign(3 + kGuard, 0.5f);
    seen.findings = {race()};
    // Two launches: 2 warps over 2 steps, then 1 warp over 1 step.
    seen.divergence = {{"k", 4, 2, {{{128, 4, 0}, {96, 4, 2}}, {{0, 0, 0}, {64, 4, 1}}},
                        {"k: report\n", {{1, "  interval 1: warp 1\n"}}, "  active lanes: 32:4\n"}},
                       {"k2", 1, 1, {{{32, 1, 0}}}, {}}};
    seen.launches = 2;
    seen.blocks = 5;
    seen.output_from_kernel = 1;
    seen.block_order = "blocks in reverse launch order";
    seen.to_host_bytes = 12;
    seen.host_bytes_in_output = 4;
    return seen;
}

}  // namespace

TEST_CASE("an observation survives the file, its divergence maps cell by cell") {
    write_observation(kPath, sample());
    const Observation back = read_observation(kPath);
    std::remove(kPath.c_str());
    CHECK(back.n == 3);
    REQUIRE(back.findings.size() == 1);
    CHECK(back.findings[0] == race());
    REQUIRE(back.divergence.size() == 2);
    const KernelDivergence& d = back.divergence[0];
    CHECK(d.kernel == "k");
    CHECK(d.blocks == 4);
    CHECK(d.warps_per_block == 2);
    REQUIRE(d.cells.size() == 2);
    CHECK(d.cells[0][1].lane_visits == 96);
    CHECK(d.cells[0][1].warp_visits == 4);
    CHECK(d.cells[0][1].divergent_blocks == 2);
    CHECK(d.cells[0][1].active_fraction() == doctest::Approx(0.75));
    CHECK(d.cells[1][0].active_fraction() == 1.0);  // never visited
    CHECK(d.report.head == "k: report\n");
    REQUIRE(d.report.intervals.size() == 1);
    CHECK(d.report.intervals[0] == std::make_pair(std::size_t{1}, std::string("  interval 1: warp 1\n")));
    CHECK(d.report.lanes == "  active lanes: 32:4\n");
    CHECK(d.total().lane_visits == 288);
    CHECK(d.total().warp_visits == 12);
    CHECK(d.total().divergent_blocks == 3);
    // (288 + 32) / (32 x (12 + 1))
    CHECK(simt_efficiency(back.divergence) == doctest::Approx(320.0 / (32.0 * 13)));
    CHECK(simt_efficiency({}) == 1.0);
    CHECK(back.launches == 2);
    CHECK(back.blocks == 5);
    CHECK(back.output_from_kernel == 1);
    CHECK(back.block_order == "blocks in reverse launch order");
    CHECK(back.to_host_bytes == 12);
    CHECK(back.host_bytes_in_output == 4);
}

TEST_CASE("unknown launch counts survive the file, and a forged origin is refused") {
    Observation seen = sample();
    seen.launches = seen.blocks = -1;
    seen.output_from_kernel = -1;
    write_observation(kPath, seen);
    const Observation back = read_observation(kPath);
    CHECK(back.launches == -1);
    CHECK(back.blocks == -1);
    CHECK(back.output_from_kernel == -1);
    seen.output_from_kernel = 2;
    write_observation(kPath, seen);
    CHECK_THROWS_WITH(read_observation(kPath), "the result file's launch counts are malformed");
    seen.output_from_kernel = 1;
    seen.to_host_bytes = seen.host_bytes_in_output = -1;  // a GPU's
    write_observation(kPath, seen);
    CHECK(read_observation(kPath).to_host_bytes == -1);
    CHECK(read_observation(kPath).host_bytes_in_output == -1);
    seen.host_bytes_in_output = -2;
    write_observation(kPath, seen);
    CHECK_THROWS_WITH(read_observation(kPath), "the result file's counts of data through the host are malformed");
    std::remove(kPath.c_str());
}

TEST_CASE("a lab function that launched no kernel, or whose kernels never wrote the output, fails ran_on_gpu") {
    const std::vector<float> input{1, 2, 3};
    const datasets::ScanSpec inclusive{};
    Observation seen = sample();
    seen.in_after = guarded(input);
    seen.out = guarded({1, 3, 6});
    for (std::size_t i = 3; i < seen.out.size(); ++i) seen.out[i] = compare::poison();
    seen.findings.clear();
    const auto rule = [&](const Observation& o) {
        for (const auto& c : judge(input, o, inclusive, true, "hierarchical_scan"))
            if (c.rule == "ran_on_gpu") return c.ok ? std::string("ok") : c.message;
        return std::string("ok");
    };
    CHECK(rule(seen) == "ok");
    seen.launches = 0;
    seen.blocks = 0;
    seen.output_from_kernel = 0;
    CHECK(rule(seen) == "hierarchical_scan launched no kernel: the scan must run on the GPU");
    seen.launches = 1;
    seen.blocks = 1;
    CHECK(rule(seen) ==
          "hierarchical_scan's kernels never wrote the output (1 launch(es), 1 block(s); the values came from the "
          "host): the scan must run on the GPU");
    Observation unwritten = seen;  // nothing wrote it at all: outputs_match says so, not this rule
    for (std::size_t i = 0; i < 3; ++i) unwritten.out[i] = compare::poison();
    CHECK(rule(unwritten) == "ok");
    seen.launches = seen.blocks = seen.output_from_kernel = -1;  // a GPU: not counted, not judged
    CHECK(rule(seen) == "ok");
    // n = 0 is a no-op: nothing needs to run.
    Observation empty;
    empty.in_after = guarded({});
    empty.out.assign(kGuard, compare::poison());
    empty.launches = 0;
    empty.output_from_kernel = 0;
    for (const auto& c : judge({}, empty, inclusive, true, "hierarchical_scan")) CHECK_MESSAGE(c.ok, c.rule);
}

TEST_CASE("a scan done on the host, its answer uploaded and copied into the output by a kernel, fails ran_on_gpu") {
    // Lab 03's shape: n = 2048, both scans in one section each.
    std::vector<float> input(2048, 1.0f), answer(2048);
    for (std::size_t i = 0; i < answer.size(); ++i) answer[i] = static_cast<float>(i % 1024);
    const datasets::ScanSpec sections{datasets::ScanKind::Exclusive, 1024};
    Observation seen;
    seen.n = input.size();
    seen.in_after = guarded(input);
    seen.out = guarded(answer);
    for (std::size_t i = seen.n; i < seen.out.size(); ++i) seen.out[i] = compare::poison();
    seen.launches = seen.blocks = 1;
    seen.output_from_kernel = 1;  // the copy kernel's
    const auto rule = [&](long long to_host, long long in_output) {
        seen.to_host_bytes = to_host;
        seen.host_bytes_in_output = in_output;
        for (const auto& c : judge(input, seen, sections, true, "kogge_stone_exclusive_scan"))
            if (c.rule == "ran_on_gpu") return c.ok ? std::string("ok") : c.message;
        return std::string("ok");
    };
    CHECK(host_round_trip_limit(2048) == 256);
    CHECK(rule(4 * 2048, 4 * 2048) ==
          "kogge_stone_exclusive_scan copied 2048 values to the host and uploaded 2048 that reached the output "
          "(n = 2048; more than 256 each way is a scan done on the host, not block sums): the scan must run on the GPU");
    CHECK(rule(4 * 257, 4 * 257) != "ok");  // in pieces or not: only the bytes count
    CHECK(rule(-1, -1) == "ok");            // a GPU: not counted, not judged
    CHECK(rule(0, 0) == "ok");
    CHECK(rule(4 * 2048, 0) == "ok");        // the output copied to the host to be printed
    CHECK(rule(4 * 2048, 4 * 256) == "ok");  // a print, then block sums through the host: up to the limit
    CHECK(rule(4 * 256, 4 * 2048) == "ok");  // a large upload, no more than the limit went to the host
    CHECK(rule(4, 4) == "ok");               // one block total there and back
    // One block total there and back where n > 1; n = 1's one output is all of it.
    CHECK(host_round_trip_limit(15) == 1);
    CHECK(host_round_trip_limit(2) == 1);
    CHECK(host_round_trip_limit(1) == 0);
}

TEST_CASE("every truncation of the file is refused") {
    write_observation(kPath, sample());
    const std::string whole = bytes_of(kPath);
    for (std::size_t size = 0; size < whole.size(); ++size) {
        write_bytes(kPath, whole.substr(0, size));
        CHECK_THROWS_AS(read_observation(kPath), std::runtime_error);
    }
    write_bytes(kPath, whole + "x");
    CHECK_THROWS_WITH(read_observation(kPath), "the result file has trailing bytes");
    std::string old = whole;
    old[7] = '2';  // the format before the maps' cells
    write_bytes(kPath, old);
    CHECK_THROWS_WITH(read_observation(kPath), "the result file is not a scan-labs observation");
    std::remove(kPath.c_str());
}

TEST_CASE("a forged divergence map is refused") {
    const auto refused = [](const Observation& seen) {
        write_observation(kPath, seen);
        const auto clean_up = [] { std::remove(kPath.c_str()); };
        try {
            read_observation(kPath);
        } catch (const std::runtime_error& e) {
            clean_up();
            return std::string(e.what());
        }
        clean_up();
        return std::string("read");
    };
    const std::string malformed = "the result file's divergence map is malformed";
    Observation seen = sample();
    seen.divergence[0].cells[0][0].lane_visits = 32 * 4 + 1;  // more lanes than 4 warp visits have
    CHECK(refused(seen) == malformed);
    seen = sample();
    seen.divergence[0].cells[1].pop_back();  // a row shorter than the block's warps
    CHECK(refused(seen) == malformed);
    seen = sample();
    seen.divergence[0].cells[0][1].divergent_blocks = 5;  // of 4 blocks
    CHECK(refused(seen) == malformed);
    seen = sample();
    seen.divergence[0].cells[0][0].lane_visits = ~0ull;  // no overflow lets it through
    CHECK(refused(seen) == malformed);
    seen = sample();
    seen.divergence[0].report.intervals[0].first = 2;  // a line of an interval the map has not
    CHECK(refused(seen) == malformed);
    CHECK(refused(sample()) == "read");
}

TEST_CASE("a forged finding is refused") {
    const std::string malformed = "the result file's findings are malformed";
    Observation seen = sample();
    seen.findings[0].kind = "style";  // no safety check counts it
    write_observation(kPath, seen);
    CHECK_THROWS_WITH(read_observation(kPath), malformed.c_str());
    // A source past the last one, in the file's first record's first field.
    seen = sample();
    write_observation(kPath, seen);
    std::string bytes = bytes_of(kPath);
    const std::size_t at = 8 + 8 + 2 * (8 + (3 + kGuard) * 4) + 3 * 8;  // magic, n, in_after, out, 2 leak counts, the count
    REQUIRE(bytes.size() > at + 8);
    bytes[at] = 9;
    write_bytes(kPath, bytes);
    CHECK_THROWS_WITH(read_observation(kPath), malformed.c_str());
    std::remove(kPath.c_str());
}

TEST_CASE("the modulo mapping is recognised in the tree(s) where most warps diverge and the reference's do not") {
    // Four barrier intervals of 32 warps: the first two the reduction tree's, the last two the distribution tree's.
    const auto kernel = [](std::vector<std::size_t> spread, std::size_t one_warp) {
        KernelDivergence k{"bk", 1, 32, std::vector<std::vector<DivergenceCell>>(4, std::vector<DivergenceCell>(32, {32, 1, 0})), {}};
        for (std::size_t i : spread)
            for (auto& c : k.cells[i]) c.divergent_blocks = 1;
        k.cells[one_warp][0].divergent_blocks = 1;  // as the contiguous mapping's warp 0 at the large strides
        return k;
    };
    const DivergentWarps reference = divergent_warps({kernel({}, 1)});
    CHECK(reference == DivergentWarps{{0, 1, 0, 0}});
    CHECK(modulo_mapping_trees({kernel({1}, 3)}, reference) == "the reduction tree");
    CHECK(modulo_mapping_trees({kernel({3}, 1)}, reference) == "the distribution tree");
    CHECK(modulo_mapping_trees({kernel({0, 2}, 1)}, reference) == "both trees");
    CHECK(modulo_mapping_trees({kernel({}, 3)}, reference).empty());  // one warp more: not the modulo mapping's signature
    CHECK(modulo_mapping_trees({kernel({1}, 3)}, divergent_warps({kernel({1}, 3)})).empty());  // the reference diverges there too

    // Named for a Brent-Kung function only, with the line that explains it.
    std::string why;
    CHECK(divergence_cause("brent_kung_scan", {kernel({0, 2}, 1)}, reference, &why) ==
          "likely the modulo mapping in both trees");
    CHECK(why.find("(t + 1) * 2 * stride - 1") != std::string::npos);
    CHECK(divergence_cause("kogge_stone_scan", {kernel({0, 2}, 1)}, reference).empty());
}

TEST_CASE("the grader's feedback shows the intervals in which more warps diverged than the reference's") {
    KernelDivergence mine{"bk", 1, 32, std::vector<std::vector<DivergenceCell>>(4, std::vector<DivergenceCell>(32, {32, 1, 0})),
                          {"bk: 1 block(s) of 32 warp(s), SIMT efficiency 90.0%\n"
                           "  diverged (legend):\n",
                           {{0, "  interval 0 (before the first __syncthreads()): warp 0 in 1 of 1 block(s)\n"},
                            {1, "  interval 1, stride 2: warps 0-31 in 1 of 1 block(s)\n"},
                            {3, "  interval 3, stride 1: warps 0-31 in 1 of 1 block(s)\n"}},
                           "  active lanes (legend): 32:9 16:1\n"}};
    mine.cells[0][0].divergent_blocks = 1;
    for (std::size_t i : {1, 3})
        for (auto& c : mine.cells[i]) c.divergent_blocks = 1;
    CHECK(mine.report.text() ==
          "bk: 1 block(s) of 32 warp(s), SIMT efficiency 90.0%\n  diverged (legend):\n"
          "  interval 0 (before the first __syncthreads()): warp 0 in 1 of 1 block(s)\n"
          "  interval 1, stride 2: warps 0-31 in 1 of 1 block(s)\n  interval 3, stride 1: warps 0-31 in 1 of 1 block(s)\n"
          "  active lanes (legend): 32:9 16:1\n");
    const std::vector<unsigned> reference{1, 1, 0, 0};  // warp 0 diverges in intervals 0 and 1 of the reference's too
    CHECK(report_beyond(mine, reference, 6) ==
          "bk: 1 block(s) of 32 warp(s), SIMT efficiency 90.0%\n  diverged (legend):\n"
          "  interval 1, stride 2: warps 0-31 in 1 of 1 block(s)\n  interval 3, stride 1: warps 0-31 in 1 of 1 block(s)\n");
    CHECK(report_beyond(mine, reference, 1).find("  interval 1, stride 2: warps 0-31 in 1 of 1 block(s)\n"
                                                 "  [... and 1 more interval(s) where more warps diverged than the "
                                                 "reference's]\n") != std::string::npos);
    // Nothing beyond the reference's: its first intervals.
    CHECK(report_beyond(mine, {1, 32, 0, 32}, 1) == "bk: 1 block(s) of 32 warp(s), SIMT efficiency 90.0%\n  diverged (legend):\n"
                                                   "  interval 0 (before the first __syncthreads()): warp 0 in 1 of 1 block(s)\n  [...]\n");
}
