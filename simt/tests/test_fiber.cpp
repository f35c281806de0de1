// The GPU threads' context switch (fiber.hpp), built twice: with the
// emulator's own switch and with Boost.Context's (SIMT_FIBER_BOOST), the one
// other machines than x86-64 get.
#include <cmath>
#include <cstdint>
#include <vector>

#include <doctest/doctest.h>

#include "fiber.hpp"

namespace {

struct Ring {
    simt::Context main;
    std::vector<simt::Context> fibers;
    std::vector<int> order;  // who ran, in turn
    std::vector<bool> aligned;
    int rounds = 0;
};
Ring* g_ring = nullptr;
int g_next_id = 0;

// Each fiber notes itself, hands on to the next (the last to main), rounds times.
[[noreturn]] void fiber_main(simt::Transfer t) noexcept {
    simt::adopt(t);
    const int id = g_next_id++;
    Ring& r = *g_ring;
    // A call's frame is 16-byte aligned on x86-64 and AArch64 alike.
    r.aligned.push_back(reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0)) % 16 == 0);
    const long long kept = 1000003LL * (id + 1);  // held across the switches
    for (int round = 0;; ++round) {
        r.order.push_back(round < r.rounds ? id : -1 - id);
        r.order.push_back(static_cast<int>(kept / 1000003LL) - 1);
        const bool last = static_cast<std::size_t>(id) + 1 == r.fibers.size();
        simt::switch_context(r.fibers[id], last ? r.main : r.fibers[id + 1]);
    }
}

}  // namespace

TEST_CASE("contexts hand on to each other in turn and keep their registers and stacks") {
    constexpr std::size_t kStack = 64 * 1024, kFibers = 3;
    std::vector<unsigned char> stacks(kStack * kFibers);
    Ring ring;
    ring.rounds = 500;
    g_ring = &ring;
    g_next_id = 0;
    for (std::size_t i = 0; i < kFibers; ++i)
        ring.fibers.push_back(simt::make_context(stacks.data() + i * kStack, kStack, fiber_main));
    double held = 0.5;  // a value live in the caller across each switch
    for (int round = 0; round < ring.rounds; ++round) {
        simt::switch_context(ring.main, ring.fibers[0]);
        held *= 2;
    }
    CHECK(held == doctest::Approx(0.5 * std::ldexp(1.0, ring.rounds)));
    REQUIRE(ring.order.size() == 2 * kFibers * ring.rounds);
    bool in_turn = true;
    for (std::size_t k = 0; k < ring.order.size(); k += 2) {
        const int id = static_cast<int>(k / 2 % kFibers);
        in_turn = in_turn && ring.order[k] == id && ring.order[k + 1] == id;
    }
    CHECK(in_turn);
    CHECK(ring.aligned == std::vector<bool>(kFibers, true));
}
