// The emulator's own suite, scheduling: block order, blocks waiting for blocks,
// possible deadlocks, the watchdog, grid sync and cooperative launches.
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "test_helpers.hpp"

namespace {

// The blocks' linear numbers in the order they started, for one launch.
std::vector<unsigned> started(dim3 grid) {
    const unsigned blocks = grid.x * grid.y;
    DeviceArray<unsigned> d_order(blocks), d_tickets(1);
    REQUIRE(cudaMemset(d_tickets.ptr, 0, sizeof(unsigned)) == cudaSuccess);
    REQUIRE(launch_start_order(d_order.ptr, d_tickets.ptr, grid) == cudaSuccess);
    return download(d_order.ptr, blocks);
}

}  // namespace

TEST_CASE("block order: seeded permutations by default, reverse and launch order on request") {
    simt::take_findings();
    std::vector<unsigned> identity(24);
    std::iota(identity.begin(), identity.end(), 0u);
    const dim3 grid(6, 4);

    REQUIRE(simt::set_block_order("launch"));
    CHECK(started(grid) == identity);
    CHECK(simt::block_order() == "blocks in launch order");

    REQUIRE(simt::set_block_order("reverse"));
    CHECK(started(grid) == std::vector<unsigned>(identity.rbegin(), identity.rend()));
    CHECK(simt::block_order() == "blocks in reverse launch order");

    // The default: every block once, not in launch order, another
    // permutation for the next launch, and the same ones again in a run
    // with the same seed.
    REQUIRE(simt::set_block_order("default"));
    CHECK(simt::block_order() == "blocks in a seeded random order, seed 1, the default");
    const std::vector<unsigned> first = started(grid), second = started(grid);
    std::vector<unsigned> sorted = first;
    std::sort(sorted.begin(), sorted.end());
    CHECK(sorted == identity);
    CHECK(first != identity);
    CHECK(first != std::vector<unsigned>(identity.rbegin(), identity.rend()));
    CHECK(second != first);
    REQUIRE(simt::set_block_order("7"));
    CHECK(simt::block_order() == "blocks in a seeded random order, seed 7");
    const std::vector<unsigned> other_seed = started(grid);
    CHECK(other_seed != first);
    CHECK(other_seed != second);

    CHECK_FALSE(simt::set_block_order("sideways"));
    CHECK_FALSE(simt::set_block_order("12x"));
    CHECK(simt::block_order() == "blocks in a seeded random order, seed 7");  // unchanged by a bad one
    REQUIRE(simt::set_block_order("default"));
    CHECK(simt::take_findings().empty());
}

TEST_CASE("a block that spins on another block's flag lets it run: blocks waiting for blockIdx.x - 1 finish") {
    // Reversed, each block starts before the one it waits for; with no more
    // blocks than the emulator keeps started at once, all of them finish.
    for (const bool use_volatile : {false, true}) {
        CAPTURE(use_volatile);
        const unsigned blocks = 4;
        DeviceArray<int> d_flags(blocks + 1), d_out(blocks);
        REQUIRE(cudaMemset(d_flags.ptr, 0, (blocks + 1) * sizeof(int)) == cudaSuccess);
        simt::take_findings();
        REQUIRE(simt::set_block_order("reverse"));
        REQUIRE(launch_wait_for_previous(d_flags.ptr, d_out.ptr, blocks, use_volatile) == cudaSuccess);
        REQUIRE(simt::set_block_order("default"));
        std::string found;
        for (const auto& f : simt::take_findings()) found += simt::format(f) + "\n";
        CHECK_MESSAGE(found.empty(), found);
        // They finished in blockIdx order, the last one started first.
        CHECK(download(d_out.ptr, blocks) == std::vector<int>{0, 1, 2, 3});
        CHECK(download(d_flags.ptr, blocks + 1) == std::vector<int>{1, 1, 1, 1, 4});
    }
}

TEST_CASE("blocks waiting for blocks that cannot start are reported as a possible deadlock, not hung") {
    const unsigned blocks = 12;
    DeviceArray<int> d_flags(blocks + 1), d_out(blocks);
    REQUIRE(cudaMemset(d_flags.ptr, 0, (blocks + 1) * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemset(d_out.ptr, 0xff, blocks * sizeof(int)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(simt::set_block_order("reverse"));
    REQUIRE(launch_wait_for_previous(d_flags.ptr, d_out.ptr, blocks, false) == cudaSuccess);
    REQUIRE(simt::set_block_order("default"));
    const auto findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "possible deadlock");
    CHECK(simt::format(findings[0]) ==
          "possible deadlock in kernel wait_for_previous: block (11,0,0): thread 0 waits at scheduling_kernels.cu:30 for a "
          "value that no running block changes; 4 started block(s) all wait and 8 block(s) have not started (the "
          "emulator keeps 4 started at once): a GPU may run blocks in any order and need not start one until a "
          "running block ends, so a block must not wait for another that may not have started (wait for a block "
          "that took an earlier ticket from an atomic counter, not for a lower blockIdx); launched at scheduling_kernels.cu:42");
    // Nothing finished; the emulator carries on.
    CHECK(download(d_flags.ptr, blocks + 1) == std::vector<int>(blocks + 1, 0));
    DeviceArray<int> d_more(4 * 64), d_in(4 * 64);
    REQUIRE(cudaMemset(d_in.ptr, 0, 4 * 64 * sizeof(int)) == cudaSuccess);
    REQUIRE(launch_reverse(d_in.ptr, d_more.ptr, 4, 64) == cudaSuccess);
    CHECK(simt::take_findings().empty());
}

TEST_CASE("threads stopped inside a hook GCC takes for nothrow end the launch with the finding, not std::terminate") {
    // Stopped in a volatile poll or the watchdog's basic-block hook, called
    // where the kernel's unwind table has no entry: unwinding their stacks
    // (a fiber's forced_unwind) would end the process in std::terminate.
    const unsigned blocks = 12;
    DeviceArray<int> d_flags(blocks + 1), d_out(blocks);
    REQUIRE(cudaMemset(d_flags.ptr, 0, (blocks + 1) * sizeof(int)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(simt::set_block_order("reverse"));
    REQUIRE(launch_wait_first(d_flags.ptr, d_out.ptr, blocks, false) == cudaSuccess);
    auto findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "possible deadlock");
    CHECK(simt::format(findings[0]).rfind(
              "possible deadlock in kernel wait_first: block (11,0,0): thread 0 waits at scheduling_kernels.cu:88 for a value "
              "that no running block changes; 4 started block(s) all wait and 8 block(s) have not started", 0) == 0);
    CHECK(download(d_flags.ptr, blocks + 1) == std::vector<int>(blocks + 1, 0));

    const unsigned long long budget = simt::spin_budget();
    simt::set_spin_budget(100000);
    REQUIRE(launch_wait_first(d_flags.ptr, d_out.ptr, blocks, true) == cudaSuccess);
    simt::set_spin_budget(budget);
    REQUIRE(simt::set_block_order("default"));
    findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "possible endless loop");
    CHECK(simt::format(findings[0]).rfind(
              "possible endless loop in kernel wait_first: block (11,0,0): threads 0-63 have run 100000 basic blocks "
              "in the loop at scheduling_kernels.cu:95 without reaching a barrier or finishing; now thread 0 runs at "
              "scheduling_kernels.cu:95; threads 1-63 wait at the __syncthreads() at scheduling_kernels.cu:106", 0) == 0);

    // The emulator carries on.
    DeviceArray<int> d_more(4 * 64), d_in(4 * 64);
    REQUIRE(cudaMemset(d_in.ptr, 0, 4 * 64 * sizeof(int)) == cudaSuccess);
    REQUIRE(launch_reverse(d_in.ptr, d_more.ptr, 4, 64) == cudaSuccess);
    CHECK(simt::take_findings().empty());
}

TEST_CASE("a block that runs the watchdog's budget with no thread finishing is a possible endless loop, not hung") {
    const unsigned long long budget = simt::spin_budget();
    simt::set_spin_budget(100000);
    REQUIRE(simt::set_block_order("launch"));  // the report names block 0
    DeviceArray<int> d_out(4 * 64);
    simt::take_findings();
    const auto start = std::chrono::steady_clock::now();
    // No barrier in the loop: thread 0 would run on alone; each thread is then
    // run a little (the sampling) to say where it is.
    REQUIRE(launch_endless_loop(d_out.ptr, 4, 0, false) == cudaSuccess);
    auto findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "possible endless loop");
    MESSAGE(simt::format(findings[0]));
    CHECK(simt::format(findings[0]) ==
          "possible endless loop in kernel endless_loop: block (0,0,0): threads 0-63 have run 100000 basic blocks in "
          "the loop at scheduling_kernels.cu:55-56 without reaching a barrier or finishing; now threads 0-63 run at "
          "scheduling_kernels.cu:55: does the loop's condition ever turn false (a typo such as `stride * 2` for `stride *= 2`, or `stride >= 0` with a stride that halves to 0)? "
          "SIMT_SPIN_BUDGET sets the budget; launched at scheduling_kernels.cu:62");
    // A barrier in the loop: every thread passes it again and again, which is no progress.
    REQUIRE(launch_endless_loop(d_out.ptr, 4, 0, true) == cudaSuccess);
    findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(simt::format(findings[0]) ==
          "possible endless loop in kernel endless_loop: block (0,0,0): threads 0-63 have run 100000 basic blocks in "
          "the loop at scheduling_kernels.cu:55-57 without one finishing, through 155 barriers (the last at scheduling_kernels.cu:57); "
          "now threads 0-63 wait at the __syncthreads() at scheduling_kernels.cu:57: does the loop's condition ever turn false "
          "(a typo such as `stride * 2` for `stride *= 2`, or `stride >= 0` with a stride that halves to 0)? SIMT_SPIN_BUDGET sets the budget; launched at scheduling_kernels.cu:62");
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));  // about 10 ms of work
    // The loop with a step ends; the emulator carries on.
    REQUIRE(launch_endless_loop(d_out.ptr, 4, 1, true) == cudaSuccess);
    CHECK(simt::take_findings().empty());
    CHECK(download(d_out.ptr, 4 * 64) == std::vector<int>(4 * 64, 63));
    REQUIRE(simt::set_block_order("default"));
    simt::set_spin_budget(budget);
}

TEST_CASE("the watchdog counts a block's basic blocks until one of its threads finishes") {
    const unsigned long long budget = simt::spin_budget();
    simt::set_spin_budget(100000);
    DeviceArray<int> d_out(8 * 64);
    simt::take_findings();
    // Thread t runs 200 (t + 1) rounds: about 1.2 million basic blocks in the
    // block, but a thread finishes every 40000 at most.
    REQUIRE(cudaMemset(d_out.ptr, 0, 64 * sizeof(int)) == cudaSuccess);
    REQUIRE(launch_long_loop(d_out.ptr, 1, 200, true) == cudaSuccess);
    CHECK(simt::take_findings().empty());
    std::vector<int> want(64);
    for (int t = 0; t < 64; ++t) want[t] = 200 * (t + 1);
    CHECK(download(d_out.ptr, 64) == want);
    // 500 rounds with a barrier each: each block within the budget (one or
    // two basic blocks a round and thread), the launch of 8 far past it.
    REQUIRE(cudaMemset(d_out.ptr, 0, 8 * 64 * sizeof(int)) == cudaSuccess);
    REQUIRE(launch_long_loop(d_out.ptr, 8, 500, false) == cudaSuccess);
    CHECK(simt::take_findings().empty());
    CHECK(download(d_out.ptr, 8 * 64) == std::vector<int>(8 * 64, 500));
    // A barrier is no progress: with a budget below one block's rounds, the same loop is reported.
    simt::set_spin_budget(20000);
    REQUIRE(launch_long_loop(d_out.ptr, 8, 500, false) == cudaSuccess);
    const auto findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "possible endless loop");
    MESSAGE(simt::format(findings[0]));
    simt::set_spin_budget(budget);
}

TEST_CASE("grid sync: a cooperative launch starts every block, and its sync orders memory across blocks") {
    const unsigned blocks = 40;  // more than the 4 blocks kept started otherwise
    DeviceArray<unsigned> slots(blocks), out(blocks);
    REQUIRE(cudaMemset(out.ptr, 0, blocks * sizeof(unsigned)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(launch_grid_exchange(slots.ptr, out.ptr, blocks, 64, 1, -1) == cudaSuccess);
    CHECK(formatted_findings().empty());
    const auto got = download(out.ptr, blocks);
    for (unsigned b = 0; b < blocks; ++b) CHECK(got[b] == (b + 1) % blocks + 1);
}

TEST_CASE("grid sync outside a cooperative launch stops the launch with a finding") {
    DeviceArray<unsigned> slots(4), out(4);
    REQUIRE(cudaMemset(out.ptr, 0, 4 * sizeof(unsigned)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(launch_grid_exchange(slots.ptr, out.ptr, 4, 32, 0, -1) == cudaSuccess);
    const auto found = formatted_findings();
    REQUIRE(found.size() == 1);
    MESSAGE(found[0]);
    CHECK(found[0].rfind("grid sync outside a cooperative launch in kernel grid_exchange: block (", 0) == 0);
    CHECK(found[0].find("thread 0 called the grid group's sync() at warp_kernels.cu:16 in a kernel launched with <<<>>> "
                        "or cudaLaunchKernel") != std::string::npos);
    CHECK(found[0].find("; launched at warp_kernels.cu:23") != std::string::npos);
    const auto got = download(out.ptr, 4);
    CHECK(std::all_of(got.begin(), got.end(), [](unsigned v) { return v == 0; }));
}

TEST_CASE("grid sync: a block that finishes without reaching it leaves the others waiting for ever") {
    DeviceArray<unsigned> slots(8), out(8);
    simt::take_findings();
    REQUIRE(launch_grid_exchange(slots.ptr, out.ptr, 8, 32, 1, 3) == cudaSuccess);
    const auto found = formatted_findings();
    REQUIRE(found.size() == 1);
    MESSAGE(found[0]);
    CHECK(found[0].find("possible deadlock in kernel grid_exchange: block (") == 0);
    CHECK(found[0].find("its threads wait at the grid sync at warp_kernels.cu:16 with 7 block(s), but block (3,0,0) has "
                        "finished without reaching it") != std::string::npos);
}

TEST_CASE("cooperative launches beyond what an H100 holds are refused") {
    DeviceArray<unsigned> slots(1), out(1);
    // 1024 threads a block: 2 blocks on each of 132 SMs.
    CHECK(launch_grid_exchange(slots.ptr, out.ptr, 265, 1024, 1, -1) == cudaErrorCooperativeLaunchTooLarge);
    const std::string why = simt::take_refused_launch();
    MESSAGE(why);
    CHECK(why == "cudaLaunchCooperativeKernel of grid_exchange at warp_kernels.cu:27 with grid and block (265,1,1), "
                 "(1024,1,1) was refused: a cooperative launch of 265 blocks, more than an H100 holds at once (132 "
                 "SMs, each 2 blocks of 1024 threads: at most 264 blocks)");
    CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    CHECK(std::string(cudaGetErrorName(cudaErrorCooperativeLaunchTooLarge)) == "cudaErrorCooperativeLaunchTooLarge");
}

TEST_CASE("a launch from device code is reported and stops the launch, not the emulator") {
    DeviceArray<unsigned> out(32);
    REQUIRE(cudaMemset(out.ptr, 0, 32 * sizeof(unsigned)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(launch_nested(out.ptr) == cudaSuccess);
    const auto found = formatted_findings();
    REQUIRE(found.size() == 1);
    MESSAGE(found[0]);
    CHECK(found[0].find("kernel launch from device code in kernel nested_parent: block (0,0,0): thread 0 launched "
                        "nested_child at warp_kernels.cu:121 from device code (dynamic parallelism), which nvcc "
                        "rejects without -rdc=true") == 0);
    CHECK(download(out.ptr, 32) == std::vector<unsigned>(32, 0u));  // the child never ran
}

TEST_CASE("__nanosleep yields: a wait that polls only through it lets the block it waits for run") {
    const unsigned blocks = 12;
    DeviceArray<unsigned> tickets(1), flags(blocks);
    REQUIRE(cudaMemset(tickets.ptr, 0, sizeof(unsigned)) == cudaSuccess);
    REQUIRE(cudaMemset(flags.ptr, 0, blocks * sizeof(unsigned)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(launch_nanosleep_wait(tickets.ptr, flags.ptr, blocks) == cudaSuccess);
    for (const auto& f : formatted_findings()) {
        MESSAGE(f);
        CHECK(f.rfind("data race on global memory", 0) == 0);  // the flag read with a plain load: a race, not a hang
    }
    const auto got = download(flags.ptr, blocks);
    CHECK(std::all_of(got.begin(), got.end(), [](unsigned v) { return v == 1; }));
}

TEST_CASE("cooperative groups: a dynamic tile size CUDA traps on stops the launch") {
    DeviceArray<unsigned> out(32);
    simt::take_findings();
    REQUIRE(launch_bad_tile(out.ptr) == cudaSuccess);
    const auto found = formatted_findings();
    REQUIRE(found.size() == 1);
    CHECK(found[0] == "cooperative groups error in kernel bad_tile: block (0,0,0): thread 0 called tiled_partition(g, n) "
                      "with n not a power of two from 1 to 32 at warp_kernels.cu:78, which CUDA's cooperative groups trap "
                      "on (the kernel fails on a GPU): the launch stopped there; launched at warp_kernels.cu:83");
}
