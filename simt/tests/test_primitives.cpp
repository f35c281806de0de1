// Every device primitive the shim accepts, each in a kernel of its own
// (primitives.cu, compiled like a student's file): it must build, run, give
// the value CUDA's definition gives, and leave the checks silent.
#include <doctest/doctest.h>

#include <simt/runtime.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "primitives.hpp"

namespace {

using u64 = unsigned long long;
constexpr unsigned kThreads = 64;

u64 as_u64(long long v) { return static_cast<u64>(v); }

u64 bits_of(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

// What each kernel must leave, worked out here from CUDA's definitions.
struct Case {
    std::vector<u64> init;
    u64 want;
};

// Sum over the 64 threads of f(thread).
template <typename F>
u64 over_threads(F f) {
    u64 sum = 0;
    for (unsigned t = 0; t < kThreads; ++t) sum += f(t);
    return sum;
}

// A shuffle's result for lane `lane` reading source `src` in a segment of `width` lanes starting at `base`.
u64 shuffle_sum(int width, int (*src_of)(int lane, int base, int width), u64 (*value)(unsigned t)) {
    return over_threads([&](unsigned t) {
        const int lane = static_cast<int>(t % 32), warp = static_cast<int>(t / 32);
        const int base = lane / width * width;
        const int src = src_of(lane, base, width);
        const int from = (src < base || src >= base + width) ? lane : src;
        return value(static_cast<unsigned>(warp * 32 + from));
    });
}

std::map<std::string, Case> expected() {
    std::map<std::string, Case> m;
    const u64 sum_t = over_threads([](unsigned t) { return u64{t}; });  // 2016
    m["__threadfence"] = {{}, 142};
    m["__threadfence_block"] = {{}, 143};
    m["__threadfence_system"] = {{}, 144};
    m["__atomic_thread_fence (emulator only)"] = {{}, 145};
    m["volatile"] = {{}, 3 * sum_t};
    std::vector<u64> iota(kThreads);
    for (unsigned i = 0; i < kThreads; ++i) iota[i] = 5 * i + 1;
    m["__ldg"] = {iota, over_threads([](unsigned t) { return 5ull * t + 1; })};
    m["float4, make_float4"] = {{}, 8128};  // sum over t of 4 * (4 (31 - t) + 1.5)
    m["atomicAdd int"] = {{}, sum_t};
    m["atomicAdd unsigned"] = {{}, sum_t + 64000};
    m["atomicAdd unsigned long long"] = {{}, 64ull << 40};
    m["atomicAdd float"] = {{}, 32 * 4};
    m["atomicAdd double"] = {{}, 16 * 4};
    m["atomicSub int"] = {{5000}, 5000 - sum_t};
    m["atomicSub unsigned"] = {{5000}, 5000 - 64};
    m["atomicExch int"] = {{0}, over_threads([](unsigned t) { return u64{t} + 1; })};
    m["atomicExch unsigned"] = {{7}, 7 + over_threads([](unsigned t) { return u64{t} + 1; })};
    m["atomicExch unsigned long long"] = {{1}, 1 + over_threads([](unsigned t) { return (t + 1ull) << 33; })};
    m["atomicExch float"] = {{bits_of(2.5f)}, 10 + over_threads([](unsigned t) { return 4ull * (t + 1); })};
    m["atomicMax int"] = {{static_cast<unsigned>(-1000)}, as_u64(63 - 100)};
    m["atomicMax unsigned"] = {{0}, 189};
    m["atomicMax long long"] = {{as_u64(-(1ll << 50))}, as_u64((63ll << 35) - (1ll << 40))};
    m["atomicMax unsigned long long"] = {{0}, 63ull << 36};
    m["atomicMin int"] = {{1000}, as_u64(-10)};
    m["atomicMin unsigned"] = {{1000}, 5};
    m["atomicMin long long"] = {{1ull << 60}, 1ull << 34};
    m["atomicMin unsigned long long"] = {{~0ull}, 7};
    m["atomicAnd int"] = {{0xffffffffull}, as_u64(static_cast<int>(0x80000000u))};
    m["atomicAnd unsigned"] = {{0xffffffffull}, 0xff000000ull};
    m["atomicAnd unsigned long long"] = {{~0ull}, 0xffff000000000000ull};
    m["atomicOr int"] = {{0}, 0xfffff};
    m["atomicOr unsigned"] = {{0}, 0xffffffffull};
    m["atomicOr unsigned long long"] = {{0}, ((1ull << 40) - 1) << 20};
    m["atomicXor int"] = {{0}, 64};  // 1 ^ 2 ^ ... ^ 64
    unsigned x = 0;
    for (unsigned t = 0; t < kThreads; ++t) x ^= 3 * t + 1;
    m["atomicXor unsigned"] = {{0}, x};
    m["atomicXor unsigned long long"] = {{0}, (1ull << 51) | (1ull << 52)};  // bit 50 flipped 22 times, 51 and 52 21 times
    m["atomicInc"] = {{0}, 64 % 10};
    m["atomicDec"] = {{0}, 6};  // 0 -> 9 -> 8 ... : after 64 steps 6
    m["atomicCAS int"] = {{0}, sum_t};
    m["atomicCAS unsigned"] = {{3}, 3 + 2 * sum_t};
    m["atomicCAS unsigned long long"] = {{0}, 64ull << 33};
    m["__syncwarp"] = {{}, sum_t + 64};
    m["__shfl_sync"] = {{}, 32 * 30 + 32 * 350};
    m["__shfl_up_sync"] = {{}, shuffle_sum(32, [](int lane, int base, int) { return lane - 1 < base ? lane : lane - 1; },
                                           [](unsigned t) { return u64{t}; })};
    m["__shfl_down_sync"] = {{}, shuffle_sum(16, [](int lane, int base, int w) { return lane + 2 >= base + w ? lane : lane + 2; },
                                             [](unsigned t) { return u64{t}; })};
    m["__shfl_xor_sync"] = {{}, shuffle_sum(32, [](int lane, int, int) { return lane ^ 5; },
                                            [](unsigned t) { return 100ull + t; })};
    u64 ballot = 0;
    for (unsigned t = 0; t < kThreads; ++t)
        if (t % 3 == 0) ballot |= 1ull << t;
    m["__ballot_sync"] = {{}, ballot};
    m["__any_sync __all_sync"] = {{}, (0 + 10) + (1 + 0)};  // warp 0: none is 40, all < 60; warp 1: 40 is, 60-63 are not
    m["__activemask"] = {{}, 2ull * 0xffffffffull};
    return m;
}

}  // namespace

TEST_CASE("every primitive the shim accepts has a kernel here, and every kernel a result") {
    const auto want = expected();
    for (const auto& name : primitive_names()) CHECK_MESSAGE(want.count(name) == 1, name);
    CHECK(want.size() == primitive_names().size());
}

TEST_CASE("each primitive builds, runs and gives CUDA's result with the checks silent") {
    for (const auto& [name, c] : expected()) {
        CAPTURE(name);
        simt::take_findings();
        u64 got = 0;
        REQUIRE(run_primitive(name, c.init, &got) == cudaSuccess);
        CHECK(got == c.want);
        std::string found;
        for (const auto& f : simt::take_findings()) found += simt::format(f) + "\n";
        CHECK_MESSAGE(found.empty(), found);
    }
}
