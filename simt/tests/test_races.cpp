// The emulator's own suite, races and barriers: barrier divergence, races in
// shared and global memory, publication between blocks, libcu++'s orders, cache hints.
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <numeric>
#include <string>
#include <vector>

#include "kernels.hpp"
#include "test_helpers.hpp"

TEST_CASE("blocks get private shared memory and barriers order their threads") {
    const unsigned blocks = 5, threads = 1024, n = blocks * threads;
    std::vector<int> in(n);
    std::iota(in.begin(), in.end(), 0);
    DeviceArray<int> d_in(n), d_out(n);
    REQUIRE(cudaMemcpy(d_in.ptr, in.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(launch_reverse(d_in.ptr, d_out.ptr, blocks, threads) == cudaSuccess);
    const auto out = download(d_out.ptr, n);
    for (unsigned b = 0; b < blocks; ++b)
        for (unsigned t = 0; t < threads; ++t) REQUIRE(out[b * threads + t] == int(b * threads + threads - 1 - t));
    CHECK(simt::take_findings().empty());
}

TEST_CASE("barrier divergence: a thread exits while others wait (the HSH loop)") {
    DeviceArray<int> d_out(4 * 64);
    simt::take_findings();
    // A finding names the first block that showed it: in launch order, block 0.
    REQUIRE(simt::set_block_order("launch"));
    REQUIRE(launch_exit_early(d_out.ptr, 4) == cudaSuccess);
    REQUIRE(simt::set_block_order("default"));
    const auto findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "barrier divergence");
    CHECK(findings[0].kernel == "exit_early");
    CHECK(simt::format(findings[0]) ==
          "barrier divergence in kernel exit_early: block (0,0,0): thread 0 exited while threads 1-63 waited at "
          "__syncthreads() at kernels.cu:20 (a barrier every thread of the block must reach: is it inside a loop or "
          "branch whose trip count depends on threadIdx?) (and 3 more blocks); launched at kernels.cu:60");
    // What the sentence names, as fields (no reader takes the words apart).
    CHECK(findings[0].lines == std::vector<std::string>{"kernels.cu:20"});
    CHECK(findings[0].launch == "kernels.cu:60");
    CHECK(findings[0].blocks == 4);
    CHECK(findings[0].block[0] == 0);
    CHECK(findings[0].thread == -1);  // several threads
    // Exited threads count as arrived, so the kernel still finishes.
    const auto out = download(d_out.ptr, 64);
    CHECK(out[0] == 0);
    CHECK(out[1] == 1);
    CHECK(out[63] == 6);
}

TEST_CASE("barrier divergence: threads wait at different __syncthreads() call sites") {
    DeviceArray<int> d_out(32);
    simt::take_findings();
    REQUIRE(launch_two_sites(d_out.ptr) == cudaSuccess);
    const auto findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].message.find("block (0,0,0): threads wait at different __syncthreads() call sites: threads "
                                   "0-15 at kernels.cu:28; threads 16-31 at kernels.cu:30") == 0);
    CHECK(findings[0].lines == std::vector<std::string>{"kernels.cu:28", "kernels.cu:30"});
}

namespace {

// Runs kernel `which` of launch_checks_kernels and returns its findings.
std::vector<std::string> findings_of(unsigned which, std::size_t ints = 64) {
    DeviceArray<float> f_in(256), f_out(256);
    DeviceArray<int> i_out(ints);
    std::vector<float> ones(256, 1.0f);
    REQUIRE(cudaMemcpy(f_in.ptr, ones.data(), 256 * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemset(i_out.ptr, 0, ints * sizeof(int)) == cudaSuccess);
    simt::take_findings();
    launch_checks_kernels(f_in.ptr, f_out.ptr, i_out.ptr, which);
    std::vector<std::string> out;
    for (const auto& f : simt::take_findings()) {
        if (f.check.rfind("data race", 0) == 0) CHECK(f.kind == simt::Kind::race);  // set by the race check itself
        out.push_back(simt::format(f));
    }
    return out;
}

}  // namespace

TEST_CASE("lab 01's reference with only the single-buffer race put back: the race, both lines") {
    const auto f = findings_of(0);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "data race on shared memory in kernel ks_race_only: block (0,0,0): partial[1] written by thread 1 at "
          "kernels.cu:93 and read by thread 2 at kernels.cu:93 between the same two barriers; launched at "
          "kernels.cu:138");
}

TEST_CASE("lab 01's reference with only the divergent loop put back: barrier divergence, no race") {
    const auto f = findings_of(1);
    REQUIRE(f.size() == 2);
    CHECK(f[0].rfind("barrier divergence in kernel ks_barrier_only: block (0,0,0): thread 0 exited while threads "
                     "1-255 waited at __syncthreads() at kernels.cu:105",
                     0) == 0);
    // Its consequence: later steps read values the exited threads never wrote.
    CHECK(f[1] ==
          "uninitialized shared memory read in kernel ks_barrier_only: block (0,0,0): thread 2 read buffer[1][0] at "
          "kernels.cu:106, which no thread of this block has written; launched at kernels.cu:139");
}

TEST_CASE("global memory: blocks of one launch racing, and two threads on one word") {
    // Which block's read is reported first depends on the order blocks start in;
    // the default draws it from the count of launches so far, which the test
    // cases run before this one (their files' order) decide.
    simt::set_block_order("launch");
    auto f = findings_of(2);
    simt::set_block_order("default");
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "data race on global memory in kernel cross_block: block (1,0,0): the word at byte 0 of a 256-byte device "
          "allocation, written by another block (serial 0) thread 0 at kernels.cu:114 and read by thread 0 at "
          "kernels.cu:114 in the same launch (its blocks run in no fixed order) (and 2 more blocks); launched at "
          "kernels.cu:140");
    f = findings_of(3);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "data race on global memory in kernel same_word: block (0,0,0): the word at byte 0 of a 256-byte device "
          "allocation, written by thread 0 at kernels.cu:118 and written by thread 1 at kernels.cu:118 between the "
          "same two barriers; launched at kernels.cu:141");
}

TEST_CASE("out-of-bounds accesses: past a device allocation, past a shared array") {
    auto f = findings_of(4, 32);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "out-of-bounds access in kernel past_the_end: block (0,0,0): thread 31 wrote 4 bytes at offset 128 of a "
          "128-byte device allocation (past its end) at kernels.cu:120; launched at kernels.cu:142");
    f = findings_of(5);
    REQUIRE(f.size() >= 1);
    CHECK(f[0] ==
          "out-of-bounds access in kernel shared_overrun: block (0,0,0): thread 31 wrote 4 bytes at offset 128 of "
          "tile, 128 bytes declared at line 123 (past its end) at kernels.cu:124; launched at kernels.cu:143");
}

TEST_CASE("a read of shared memory no thread of the block wrote") {
    const auto f = findings_of(6);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "uninitialized shared memory read in kernel half_written: block (0,0,0): thread 32 read tile[32] at "
          "kernels.cu:133, which no thread of this block has written; launched at kernels.cu:144");
}

TEST_CASE("atomics: exact results, and atomic updates of one word are not races") {
    DeviceArray<unsigned> counters(3);
    REQUIRE(cudaMemset(counters.ptr, 0, 3 * sizeof(unsigned)) == cudaSuccess);
    simt::take_findings();
    launch_warp_kernels(nullptr, counters.ptr, 2);
    CHECK(simt::take_findings().empty());
    const auto c = download(counters.ptr, 3);
    CHECK(c[0] == 256);
    CHECK(c[1] == 255);
    CHECK(c[2] == 7);
}

TEST_CASE("__syncwarp orders the accesses of its lanes: a warp-synchronous scan is no race, without it is one") {
    std::vector<int> in(64);
    std::iota(in.begin(), in.end(), 1);
    DeviceArray<int> d_in(64), d_out(64);
    REQUIRE(cudaMemcpy(d_in.ptr, in.data(), 64 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    simt::take_findings();
    REQUIRE(launch_warp_scan(d_in.ptr, d_out.ptr, true) == cudaSuccess);
    CHECK(simt::take_findings().empty());
    const auto out = download(d_out.ptr, 64);
    for (int t = 0; t < 64; ++t) {
        const int first = t / 32 * 32 + 1;  // each warp scans its own 32 values
        CHECK(out[t] == (first + t + 1) * (t + 2 - first) / 2);
    }
    REQUIRE(launch_warp_scan(d_in.ptr, d_out.ptr, false) == cudaSuccess);
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) ==
          "data race on shared memory in kernel warp_scan: block (0,0,0): s[0] written by thread 0 at kernels.cu:249 "
          "and read by thread 1 at kernels.cu:247 between the same two barriers; launched at kernels.cu:256");
    // The lines in the order named (the writer's first), and the thread whose access found it.
    CHECK(f[0].lines == std::vector<std::string>{"kernels.cu:249", "kernels.cu:247"});
    CHECK(f[0].thread == 1);
    CHECK(f[0].blocks == 1);
}

TEST_CASE("two __shared__ arrays in one declaration: both are checked") {
    DeviceArray<int> d_out(32);
    simt::take_findings();
    REQUIRE(launch_two_arrays(d_out.ptr) == cudaSuccess);
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) ==
          "data race on shared memory in kernel two_arrays: block (0,0,0): b[0] written by thread 0 at kernels.cu:264 "
          "and read by thread 1 at kernels.cu:265 between the same two barriers; launched at kernels.cu:269");
}

TEST_CASE("a plain load of data another block published: no race with a fence on each side, a race without") {
    const unsigned blocks = 4;
    DeviceArray<float> data(blocks), out(blocks);
    DeviceArray<int> flags(blocks);
    for (int fences = 3; fences >= 0; --fences) {
        INFO("fences " << fences);
        REQUIRE(cudaMemset(flags.ptr, 0, blocks * sizeof(int)) == cudaSuccess);
        simt::take_findings();
        REQUIRE(launch_publish_chain(data.ptr, flags.ptr, out.ptr, blocks, fences) == cudaSuccess);
        const auto f = simt::take_findings();
        const auto got = download(out.ptr, blocks);
        for (unsigned b = 0; b < blocks; ++b) CHECK(got[b] == float(b));
        if (fences == 3) {
            CHECK(f.empty());
        } else {
            REQUIRE(f.size() == 1);
            const std::string text = simt::format(f[0]);
            CHECK(text.rfind("data race on global memory in kernel publish_chain: ", 0) == 0);
            CHECK(text.find("written by another block (serial ") != std::string::npos);
            CHECK(text.find("thread 0 at publication_kernels.cu:21 and read by thread 0 at publication_kernels.cu:19 in the same launch") !=
                  std::string::npos);
        }
    }
}

TEST_CASE("a ticket's read-modify-writes continue its release sequence: the last block acquires every block's") {
    const unsigned blocks = 8;
    std::vector<float> input(blocks);
    for (unsigned b = 0; b < blocks; ++b) input[b] = float(b + 1);
    DeviceArray<float> in(blocks), sums(blocks), total(1);
    DeviceArray<unsigned> ticket(1);
    REQUIRE(cudaMemcpy(in.ptr, input.data(), blocks * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    for (const bool fenced : {true, false}) {
        CAPTURE(fenced);
        for (const char* order : {"default", "reverse"}) {
            CAPTURE(order);
            REQUIRE(cudaMemset(ticket.ptr, 0, sizeof(unsigned)) == cudaSuccess);
            simt::take_findings();
            REQUIRE(simt::set_block_order(order));
            REQUIRE(launch_last_block_total(in.ptr, sums.ptr, ticket.ptr, total.ptr, blocks, fenced) == cudaSuccess);
            REQUIRE(simt::set_block_order("default"));
            CHECK(download(total.ptr, 1)[0] == 36.0f);
            const auto f = simt::take_findings();
            if (fenced) {
                CHECK(f.empty());
                continue;
            }
            REQUIRE(f.size() == 1);
            const std::string text = simt::format(f[0]);
            CHECK(text.rfind("data race on global memory in kernel last_block_total: ", 0) == 0);
            CHECK(text.find("read by thread 0 at publication_kernels.cu:108") != std::string::npos);
        }
    }
}

TEST_CASE("a block that publishes is put aside: other blocks see it between two publications") {
    // Run to their ends one at a time, blocks would only ever see 0 or 2.
    for (const char* order : {"default", "reverse", "7"}) {
        CAPTURE(order);
        const unsigned blocks = 8;
        DeviceArray<int> flags(blocks), seen(1);
        REQUIRE(cudaMemset(flags.ptr, 0, blocks * sizeof(int)) == cudaSuccess);
        REQUIRE(cudaMemset(seen.ptr, 0, sizeof(int)) == cudaSuccess);
        REQUIRE(simt::set_block_order(order));
        REQUIRE(launch_two_publications(flags.ptr, seen.ptr, blocks) == cudaSuccess);
        REQUIRE(simt::set_block_order("default"));
        CHECK(download(seen.ptr, 1)[0] > 0);
        CHECK(download(flags.ptr, blocks) == std::vector<int>(blocks, 2));
        CHECK(simt::take_findings().empty());
    }
}

TEST_CASE("a volatile poll that spins until another block publishes acquires what the fences release") {
    const unsigned blocks = 4;
    DeviceArray<float> data(blocks), out(blocks);
    DeviceArray<int> flags(blocks);
    for (const char* order : {"reverse", "default"}) {
        CAPTURE(order);
        REQUIRE(cudaMemset(flags.ptr, 0, blocks * sizeof(int)) == cudaSuccess);
        simt::take_findings();
        REQUIRE(simt::set_block_order(order));
        REQUIRE(launch_publish_chain_volatile(data.ptr, flags.ptr, out.ptr, blocks) == cudaSuccess);
        REQUIRE(simt::set_block_order("default"));
        std::string found;
        for (const auto& f : simt::take_findings()) found += simt::format(f) + "\n";
        CHECK_MESSAGE(found.empty(), found);
        const auto got = download(out.ptr, blocks);
        for (unsigned b = 0; b < blocks; ++b) CHECK(got[b] == float(b));
    }
}

namespace {

// launch_libcu_publish_chain (libcu_kernels.cu) on 4 blocks in `order`: what the
// checks found, one line each; the values each block read must be right.
std::string libcu_publish_chain(int mode, const char* order) {
    const unsigned blocks = 4;
    DeviceArray<float> data(blocks), out(blocks);
    DeviceArray<unsigned> flags(blocks);
    REQUIRE(cudaMemset(flags.ptr, 0, blocks * sizeof(unsigned)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(simt::set_block_order(order));
    REQUIRE(launch_libcu_publish_chain(data.ptr, flags.ptr, out.ptr, blocks, mode) == cudaSuccess);
    REQUIRE(simt::set_block_order("default"));
    std::string found;
    for (const auto& f : simt::take_findings()) found += simt::format(f) + "\n";
    const auto got = download(out.ptr, blocks);
    for (unsigned b = 0; b < blocks; ++b) CHECK(got[b] == float(b));
    return found;
}

// The report of a plain read at libcu_kernels.cu:40 of what another block (`serial`)
// wrote at libcu_kernels.cu:42 with no release that reached the reader.
std::string libcu_chain_race(unsigned serial) {
    return "data race on global memory in kernel libcu_publish_chain: block (1,0,0): the word at byte 0 of a 16-byte "
           "device allocation, written by another block (serial " +
           std::to_string(serial) +
           ") thread 0 at libcu_kernels.cu:42 and read by thread 0 at libcu_kernels.cu:40 in the same launch (its blocks run in "
           "no fixed order) (and 2 more blocks); launched at libcu_kernels.cu:60\n";
}

}  // namespace

TEST_CASE("libcu++'s release and acquire orders publish plain data across blocks: no race") {
    // A release store and acquire loads at device scope; relaxed accesses with
    // cuda::atomic_thread_fence at device scope on both sides; the seq_cst
    // defaults of cuda::std::atomic_ref (its wait polls); an acq_rel exchange
    // and fetch_add(0) with acquire. In reverse order each block first polls a
    // flag no block has raised yet: the poll yields.
    for (int mode : {0, 3, 4, 5})
        for (const char* order : {"launch", "reverse", "default"}) {
            CAPTURE(mode);
            CAPTURE(order);
            const std::string found = libcu_publish_chain(mode, order);
            CHECK_MESSAGE(found.empty(), found);
        }
}

TEST_CASE("libcu++'s relaxed flags with no fence: plain data read across blocks is a race") {
    CHECK(libcu_publish_chain(1, "launch") == libcu_chain_race(0));
    CHECK(libcu_publish_chain(1, "reverse") == libcu_chain_race(3));
}

TEST_CASE("a release at block scope does not publish to other blocks") {
    // The reader acquires at device scope; the writer's block-scoped release
    // orders its writes only for its own block, as __threadfence_block() does.
    CHECK(libcu_publish_chain(2, "launch") == libcu_chain_race(0));
    CHECK(libcu_publish_chain(2, "reverse") == libcu_chain_race(3));
}

TEST_CASE("a libcu++ release covers what its block wrote before it, not after") {
    // In launch order block 0 publishes, so block 1 starts and reads data[1]
    // before block 0 writes it; in reverse order block 1 waits first, and
    // which runs after block 0's publication is drawn (by launch count).
    // Either way data[1] (byte 4) is reported, data[0] (byte 0) is not.
    DeviceArray<float> data(2), out(2);
    DeviceArray<unsigned> flag(1);
    REQUIRE(cudaMemset(data.ptr, 0, 2 * sizeof(float)) == cudaSuccess);  // read before written: no uninitialised read
    for (const char* order : {"launch", "reverse"}) {
        CAPTURE(order);
        REQUIRE(cudaMemset(flag.ptr, 0, sizeof(unsigned)) == cudaSuccess);
        simt::take_findings();
        REQUIRE(simt::set_block_order(order));
        REQUIRE(launch_libcu_release_then_write(data.ptr, flag.ptr, out.ptr) == cudaSuccess);
        REQUIRE(simt::set_block_order("default"));
        const auto f = simt::take_findings();
        REQUIRE(f.size() == 1);
        const std::string text = simt::format(f[0]);
        if (std::string(order) == "launch")
            CHECK(text ==
                  "data race on global memory in kernel libcu_release_then_write: block (0,0,0): the word at byte 4 "
                  "of a 8-byte device allocation, read by another block (serial 1) thread 0 at libcu_kernels.cu:78 and "
                  "written by thread 0 at libcu_kernels.cu:73 in the same launch (its blocks run in no fixed order); "
                  "launched at libcu_kernels.cu:83");
        else
            CHECK(text.find("the word at byte 4 of a 8-byte device allocation") != std::string::npos);
        CHECK(download(out.ptr, 1)[0] == 1.0f);
    }
}

TEST_CASE("a libcu++ load or wait that polls a flag no block raises: a possible deadlock at the student's line") {
    // 12 blocks in reverse order: the 4 started ones wait for lower blocks
    // that never start.
    const unsigned blocks = 12;
    DeviceArray<float> data(blocks), out(blocks);
    DeviceArray<unsigned> flags(blocks);
    for (const auto& [mode, line] : {std::pair{0, 37}, std::pair{4, 32}}) {
        CAPTURE(mode);
        REQUIRE(cudaMemset(flags.ptr, 0, blocks * sizeof(unsigned)) == cudaSuccess);
        simt::take_findings();
        REQUIRE(simt::set_block_order("reverse"));
        REQUIRE(launch_libcu_publish_chain(data.ptr, flags.ptr, out.ptr, blocks, mode) == cudaSuccess);
        REQUIRE(simt::set_block_order("default"));
        const auto findings = simt::take_findings();
        REQUIRE(findings.size() == 1);
        CHECK(simt::format(findings[0]) ==
              "possible deadlock in kernel libcu_publish_chain: block (11,0,0): thread 0 waits at libcu_kernels.cu:" +
                  std::to_string(line) +
                  " for a value that no running block changes; 4 started block(s) all wait and 8 block(s) have not "
                  "started (the emulator keeps 4 started at once): a GPU may run blocks in any order and need not "
                  "start one until a running block ends, so a block must not wait for another that may not have "
                  "started (wait for a block that took an earlier ticket from an atomic counter, not for a lower "
                  "blockIdx); launched at libcu_kernels.cu:60");
    }
}

TEST_CASE("cache-hinted accesses: global memory only, and data through __ldcg is still checked for races") {
    DeviceArray<unsigned> data(32), out(64);
    REQUIRE(cudaMemset(data.ptr, 0, 32 * sizeof(unsigned)) == cudaSuccess);  // the race's read, not an uninitialised one
    simt::take_findings();
    REQUIRE(launch_hinted_misuse(data.ptr, out.ptr, 0) == cudaSuccess);
    auto found = formatted_findings();
    REQUIRE(found.size() == 1);
    MESSAGE(found[0]);
    CHECK(found[0].find("invalid address space in kernel hinted_misuse: block (") == 0);
    CHECK(found[0].find(": thread 0 read 4 bytes of tile[0] with __ldcg at warp_kernels.cu:43: __ldcg addresses global "
                        "memory only") != std::string::npos);
    REQUIRE(launch_hinted_misuse(data.ptr, out.ptr, 1) == cudaSuccess);
    found = formatted_findings();
    REQUIRE(found.size() == 1);
    MESSAGE(found[0]);
    CHECK(found[0].find("data race on global memory in kernel hinted_misuse") == 0);
    CHECK(found[0].find("warp_kernels.cu:45") != std::string::npos);
    CHECK(found[0].find("warp_kernels.cu:46") != std::string::npos);
}

// The H100's measures (simt/docs/warp.md): a flag raised with __stcg or __stwt
// publishes and __ldcg reads published data; a wait that polls with __ldcv or
// __ldcg did not wait; __ldg may not read what the launch wrote.
TEST_CASE("cache-hinted publication: what an H100 orders is no race, a hinted poll and __ldg of fresh data are") {
    DeviceArray<unsigned> data(1), flag(1), out(1);
    const auto run = [&](int how, const char* order) {
        REQUIRE(simt::set_block_order(order));
        simt::take_findings();
        REQUIRE(cudaMemset(flag.ptr, 0, sizeof(unsigned)) == cudaSuccess);
        REQUIRE(cudaMemset(out.ptr, 0, sizeof(unsigned)) == cudaSuccess);
        REQUIRE(launch_hinted_publication(data.ptr, flag.ptr, out.ptr, how) == cudaSuccess);
        REQUIRE(simt::set_block_order("default"));
        CHECK(download(out.ptr, 1) == std::vector<unsigned>{7});
        return formatted_findings();
    };
    for (const char* order : {"launch", "reverse"}) {
        CAPTURE(order);
        for (int how : {0, 1, 2}) {
            CAPTURE(how);
            const auto found = run(how, order);
            for (const auto& f : found) MESSAGE(f);
            CHECK(found.empty());
        }
        for (const auto& [how, name, line] : {std::tuple{3, "__ldcv", 103}, std::tuple{4, "__ldcg", 104}}) {
            CAPTURE(how);
            const auto found = run(how, order);
            REQUIRE(found.size() == 1);
            MESSAGE(found[0]);
            CHECK(found[0].find("data race on global memory in kernel hinted_publication: block (1,0,0): ") == 0);
            CHECK(found[0].find(") thread 0 at warp_kernels.cu:101 and read by thread 0 at warp_kernels.cu:" +
                                std::to_string(line) + " in the same launch, read with " + name +
                                ", a load ptxas may hoist out of a loop like any ordinary load") !=
                  std::string::npos);
        }
        auto found = run(5, order);
        REQUIRE(found.size() == 1);
        MESSAGE(found[0]);
        CHECK(found[0].find(") thread 0 at warp_kernels.cu:96 and read by thread 0 at warp_kernels.cu:108 in the same "
                            "launch, read with __ldg through the read-only cache") != std::string::npos);
        found = run(6, order);  // a plain flag: its poll races with it (reported by whichever comes second)
        REQUIRE(found.size() == 1);
        MESSAGE(found[0]);
        CHECK(found[0].find("data race on global memory in kernel hinted_publication") == 0);
        CHECK(found[0].find("warp_kernels.cu:100") != std::string::npos);
        CHECK(found[0].find("warp_kernels.cu:105") != std::string::npos);
        CHECK(found[0].find("(its blocks run in no fixed order)") != std::string::npos);
    }
}
