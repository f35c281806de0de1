// The emulator's own suite, divergence: the shim's functions, the scans' warps
// that diverge, trace mode, warp functions and their masks.
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "test_helpers.hpp"

namespace {

simt::LaunchDivergence divergence_of(unsigned which, unsigned blocks) {
    DeviceArray<float> in(2048 * blocks), out(2048 * blocks);
    std::vector<float> ones(2048 * blocks, 1.0f);
    REQUIRE(cudaMemcpy(in.ptr, ones.data(), ones.size() * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    simt::set_divergence_tracing(true);
    launch_divergence_kernels(in.ptr, out.ptr, which, blocks);
    simt::set_divergence_tracing(false);
    auto all = simt::take_divergence();
    REQUIRE(all.size() == 1);
    CHECK(simt::take_findings().empty());
    return all[0];
}

// The (warp, interval) pairs that diverged, each with how many blocks.
std::vector<std::pair<unsigned, unsigned>> divergent(const simt::LaunchDivergence& d, unsigned in_blocks) {
    std::vector<std::pair<unsigned, unsigned>> out;
    for (unsigned i = 0; i < d.cells.size(); ++i)
        for (unsigned w = 0; w < d.cells[i].size(); ++w)
            if (d.cells[i][w].divergent_blocks) {
                CHECK(d.cells[i][w].divergent_blocks == in_blocks);
                out.push_back({w, i});
            }
    return out;
}

}  // namespace

TEST_CASE("the shim's device functions are no divergence of the kernel's") {
    // Every family (min/max, math, intrinsics, vectors, warp functions, hints,
    // atomics, cooperative groups, libcu++) called with values that send
    // lanes down different paths inside the shim, from straight code: no warp
    // diverges. (expect-shim-untraced.sh checks no shim function is traced.)
    DeviceArray<float> out(128);
    DeviceArray<unsigned> counters(8);
    REQUIRE(cudaMemset(out.ptr, 0, 128 * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(counters.ptr, 0, 8 * sizeof(unsigned)) == cudaSuccess);
    simt::set_divergence_tracing(true);
    REQUIRE(launch_straight(out.ptr, counters.ptr) == cudaSuccess);
    simt::set_divergence_tracing(false);
    const auto all = simt::take_divergence();
    REQUIRE(all.size() == 1);
    CHECK(simt::format(all[0]).find("no warp diverged") != std::string::npos);
    CHECK(all[0].efficiency() == 1.0);
    CHECK(simt::take_findings().empty());
}

TEST_CASE("divergence: Kogge-Stone diverges only in warp 0 at strides 1 to 16 of every block (exercise 9.1)") {
    const auto d = divergence_of(0, 3);
    CHECK(d.kernel == "ks_double_buffered");
    CHECK(d.blocks == 3);
    CHECK(d.warps_per_block == 32);
    // Interval k (after the k-th barrier) runs the step of stride 2^(k-1).
    const std::vector<std::pair<unsigned, unsigned>> expected{{0, 1}, {0, 2}, {0, 3}, {0, 4}, {0, 5}};
    CHECK(divergent(d, 3) == expected);
    CHECK(d.efficiency() > 0.95);
    CHECK(d.efficiency() < 1.0);
    // The step's stride, from the two buffer elements each thread t >= s
    // reads: s = 2^(k-1) in interval k, for every such thread of the 3 blocks
    // (and the smallest of a tie in the last, whose threads t < 512 read the
    // other buffer's t too, 1024 apart).
    for (unsigned k = 1; k <= 10; ++k) {
        const std::size_t s = std::size_t{1} << (k - 1);
        REQUIRE(d.strides.size() > k);
        CHECK(d.strides[k].at(s) == 3 * (1024 - s));
        CHECK(d.strides[k].size() == (k < 10 ? 1 : 2));
    }
    CHECK(simt::format(d).find("  interval 3, stride 4: warp 0 in 3 of 3 block(s); the lanes split at kernels.cu:160\n") !=
          std::string::npos);
    // The same line in the report's parts, under its interval's number.
    const simt::DivergenceReport parts = simt::report_parts(d);
    const auto third = std::find_if(parts.intervals.begin(), parts.intervals.end(), [](const auto& l) { return l.first == 3; });
    REQUIRE(third != parts.intervals.end());
    CHECK(third->second == "  interval 3, stride 4: warp 0 in 3 of 3 block(s); the lanes split at kernels.cu:160\n");
    MESSAGE(simt::format(d));
}

TEST_CASE("divergence: Brent-Kung's modulo test diverges in every warp early; the contiguous mapping only below 32 lanes") {
    const auto modulo = divergence_of(1, 2);
    const auto modulo_pairs = divergent(modulo, 2);
    for (unsigned step = 1; step <= 5; ++step)  // strides 1..16: every warp has some lanes in, some out
        for (unsigned w = 0; w < 32; ++w)
            CHECK(std::count(modulo_pairs.begin(), modulo_pairs.end(), std::make_pair(w, step)) == 1);

    const auto contiguous = divergence_of(2, 2);
    // Stride s keeps threads 0 .. 1024/s - 1 busy: whole warps until fewer
    // than 32 threads work (s = 64: 16 threads, ..., s = 1024: 1), all in warp 0.
    const std::vector<std::pair<unsigned, unsigned>> expected{{0, 7}, {0, 8}, {0, 9}, {0, 10}, {0, 11}};
    CHECK(divergent(contiguous, 2) == expected);
    CHECK(contiguous.efficiency() > modulo.efficiency());

    // A line per barrier interval, warps as ranges, the branch's lines: not
    // 1946 lines of single (warp, interval) pairs.
    const std::string text = simt::format(modulo);
    CHECK(std::count(text.begin(), text.end(), '\n') == 14);  // head, legend, intervals 1-11, histogram
    CHECK(text.find("  interval 1, stride 1: warps 0-31 in 2 of 2 block(s); the lanes split at ") != std::string::npos);
    CHECK(text.find("kernels.cu:180, kernels.cu:181\n") != std::string::npos);
    CHECK(text.find("  interval 7, stride 64: warps 3, 7, 11, 15, 19, 23, 27, 31 in 2 of 2 block(s)") != std::string::npos);
    CHECK(text.find("\n  active lanes (how many of a warp's 32 lanes ran a basic block: times it happened; below 32, "
                    "lanes idle): 32:") != std::string::npos);
    CHECK(simt::format(contiguous).find("  interval 7, stride 64: warp 0 in 2 of 2 block(s); the lanes split at kernels.cu:178\n") !=
          std::string::npos);
    MESSAGE(text << simt::format(contiguous));
}

TEST_CASE("trace mode: exercise 9.7's array through the double-buffered Kogge-Stone, barrier by barrier") {
    const std::vector<float> x{4, 6, 7, 1, 2, 8, 5, 2};
    std::vector<float> in(1024, 0.0f);
    std::copy(x.begin(), x.end(), in.begin());
    DeviceArray<float> d_in(1024), d_out(1024);
    REQUIRE(cudaMemcpy(d_in.ptr, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    simt::set_trace("buffer", 0, 8);
    launch_divergence_kernels(d_in.ptr, d_out.ptr, 0, 1);
    const std::string trace = simt::take_trace();
    simt::clear_trace();
    // The states after strides 1, 2 and 4, alternating between the two buffers.
    CHECK(trace.find("ks_double_buffered block 0, at barrier 2 (kernels.cu:158):\n"
                     "  buffer[0]: 4 6 7 1 2 8 5 2\n"
                     "  buffer[1]: 4 10 13 8 3 10 13 7\n") != std::string::npos);
    CHECK(trace.find("at barrier 3 (kernels.cu:158):\n  buffer[0]: 4 10 17 18 16 18 16 17\n") != std::string::npos);
    CHECK(trace.find("at barrier 4 (kernels.cu:158):\n  buffer[0]: 4 10 17 18 16 18 16 17\n"
                     "  buffer[1]: 4 10 17 18 20 28 33 35\n") != std::string::npos);
    CHECK(trace.find("ks_double_buffered block 0, at the end:\n") != std::string::npos);
    CHECK(trace.find("block 1") == std::string::npos);  // one block only
    CHECK(simt::take_findings().empty());
}

TEST_CASE("warp functions: shuffles, ballot, widths") {
    DeviceArray<int> out(64 * 6);
    simt::take_findings();
    launch_warp_kernels(out.ptr, nullptr, 0);
    CHECK(simt::take_findings().empty());
    const auto v = download(out.ptr, 64 * 6);
    for (int t = 0; t < 64; ++t) {
        const int lane = t % 32;
        INFO("thread " << t);
        if (lane == 0) CHECK(v[t * 6 + 0] == 528);
        CHECK(v[t * 6 + 1] == 30);
        CHECK(v[t * 6 + 2] == (lane == 0 ? 0 : lane - 1));
        CHECK(v[t * 6 + 3] == (lane ^ 1));
        CHECK(static_cast<unsigned>(v[t * 6 + 4]) == 0x49249249u);  // lanes 0, 3, 6, ..., 30
        CHECK(v[t * 6 + 5] == lane / 8 * 8 + 5 + t / 32);
    }
}

TEST_CASE("a warp function whose mask leaves out the calling lane: found, as synccheck finds it") {
    DeviceArray<int> out(32);
    for (int which : {0, 1}) {
        INFO((which == 0 ? "__syncwarp" : "__shfl_sync"));
        simt::take_findings();
        REQUIRE(launch_mask_without_caller(out.ptr, which) == cudaSuccess);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        const auto f = simt::take_findings();
        REQUIRE(f.size() == 1);
        CHECK(f[0].check == "invalid warp mask");
        CHECK(f[0].kind == simt::Kind::barrier);
        const std::string line = which == 0 ? "warp_kernels.cu:136" : "warp_kernels.cu:137";
        CHECK(f[0].lines == std::vector<std::string>{line});
        CHECK(simt::format(f[0]).find("thread 16 called a warp function at " + line +
                                      " with mask 0x0000ffff, which leaves it out") != std::string::npos);
        // Lanes 0-15 are named and met: their shuffle read lane 0.
        const auto v = download(out.ptr, 32);
        if (which == 1) CHECK(v[5] == 0);
    }
    // Each lane that calls is named: clean.
    simt::take_findings();
    REQUIRE(launch_mask_without_caller(out.ptr, 2) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(simt::take_findings().empty());
}

TEST_CASE("warp divergence: lanes named in the mask that never arrive") {
    DeviceArray<int> out(32);
    simt::take_findings();
    launch_warp_kernels(out.ptr, nullptr, 1);
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(f[0].kind == simt::Kind::barrier);  // an H100 hangs there: synccheck's class, not memory
    CHECK(simt::format(f[0]) ==
          "warp divergence in kernel half_warp_sync: block (0,0,0): threads 0-15 waited at a warp function at "
          "kernels.cu:210 while threads 16-31, named in its mask, did not arrive (exited, or waiting at another "
          "barrier); launched at kernels.cu:222");
}

TEST_CASE("__activemask in a loop that picks lanes per iteration merges the iterations (a known difference)") {
    DeviceArray<unsigned> out(32);
    REQUIRE(launch_activemask_loop(out.ptr) == cudaSuccess);
    const auto got = download(out.ptr, 32);
    // A GPU gives 0x11111111 << (t % 4); every lane reaches the one call site here before any leaves it.
    CHECK(std::all_of(got.begin(), got.end(), [](unsigned m) { return m == 0xffffffffu; }));
}
