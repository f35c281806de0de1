// The emulator's own suite, issue 49: accesses of less than a word checked
// per byte; device memcpy/memset and struct copies checked as the loads and
// stores they are; reads of device memory nothing wrote (initcheck's class).
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <string>
#include <vector>

#include "kernels.hpp"
#include "test_helpers.hpp"

namespace {

// The findings of the last launches: each one's check and the lines it names.
struct Seen {
    std::string check;
    std::vector<std::string> lines;
    std::string text;
};
std::string texts(const std::vector<Seen>& findings) {
    std::string out;
    for (const auto& f : findings) out += f.text + "\n";
    return out;
}
std::vector<Seen> seen() {
    std::vector<Seen> out;
    for (const auto& f : simt::take_findings()) out.push_back({f.check, f.lines, simt::format(f)});
    return out;
}
std::vector<std::string> at(std::initializer_list<int> lines) {
    std::vector<std::string> out;
    for (int l : lines) out.push_back("byte_kernels.cu:" + std::to_string(l));
    return out;
}

}  // namespace

TEST_CASE("threads writing adjacent bytes or halves of one word do not race, in shared and global memory") {
    const unsigned blocks = 3, n = blocks * 128;
    DeviceArray<unsigned char> out(n);
    DeviceArray<unsigned short> halves(n);
    DeviceArray<char> quads(n);
    simt::take_findings();
    REQUIRE(launch_adjacent_bytes(out.ptr, halves.ptr, quads.ptr, blocks) == cudaSuccess);
    const auto findings = seen();
    INFO(texts(findings));
    CHECK(findings.empty());
    const auto o = download(out.ptr, n);
    const auto q = download(quads.ptr, n);
    for (unsigned i = 0; i < n; ++i) {
        const unsigned t = i % 128;
        REQUIRE(o[i] == static_cast<unsigned char>((127 - t) + static_cast<unsigned char>((t ^ 1) * 3)));
        REQUIRE(q[i] == "abcd"[i % 4]);
    }
}

TEST_CASE("a byte stored into a word another thread stores whole is a race") {
    DeviceArray<unsigned> out(4);
    for (const bool shared : {true, false}) {
        CAPTURE(shared);
        simt::take_findings();
        REQUIRE(launch_word_and_byte(out.ptr, shared) == cudaSuccess);
        const auto findings = seen();
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].check == (shared ? "data race on shared memory" : "data race on global memory"));
        CHECK(findings[0].lines == at({38, 39}));
        // Named by the byte the two share.
        CHECK(findings[0].text.find(shared ? "words[1]" : "byte 6 of a 16-byte device allocation") != std::string::npos);
    }
}

TEST_CASE("blocks writing neighbouring bytes do not race; reading another block's byte does") {
    DeviceArray<unsigned char> out(8);
    simt::take_findings();
    REQUIRE(launch_bytes_across_blocks(out.ptr, false) == cudaSuccess);
    CHECK(seen().empty());
    CHECK(download(out.ptr, 4) == std::vector<unsigned char>{1, 2, 3, 4});
    REQUIRE(launch_bytes_across_blocks(out.ptr, true) == cudaSuccess);
    const auto findings = seen();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "data race on global memory");
    CHECK(findings[0].lines == at({47, 48}));
}

TEST_CASE("memcpy and memset in device code are checked as the loads and stores they are") {
    const unsigned n = 128;
    std::vector<float> host(n, 1.0f);
    DeviceArray<float> in(n), out(n);
    REQUIRE(cudaMemcpy(in.ptr, host.data(), n * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemset(out.ptr, 0, n * sizeof(float)) == cudaSuccess);
    struct Case {
        int which;
        const char* check;  // nullptr: no finding
        int line;
    };
    for (const Case c : {Case{0, "data race on global memory", 82}, Case{1, "data race on shared memory", 84},
                         Case{2, "data race on global memory", 88}, Case{3, "data race on global memory", 89},
                         Case{4, nullptr, 0}, Case{5, "out-of-bounds access", 92},
                         Case{6, "uninitialized shared memory read", 95}, Case{7, "data race on global memory", 97},
                         Case{8, "out-of-bounds access", 99}}) {
        CAPTURE(c.which);
        simt::take_findings();
        REQUIRE(launch_device_memcalls(in.ptr, out.ptr, c.which, n) == cudaSuccess);
        const auto findings = seen();
        INFO(texts(findings));
        if (c.check == nullptr) {
            CHECK(findings.empty());
            continue;
        }
        REQUIRE(findings.size() == 1);
        CHECK(findings[0].check == c.check);
        CHECK(findings[0].lines.back() == "byte_kernels.cu:" + std::to_string(c.line));
        if (c.which == 8)
            CHECK(findings[0].text.find("thread 0 wrote 260 bytes at offset 0 of tile, 256 bytes declared at line 78 "
                                        "(past its end) at byte_kernels.cu:99") != std::string::npos);
    }
    CHECK(download(out.ptr, n) == host);  // case 4 copied every element
}

TEST_CASE("a kernel reading device memory nothing wrote is reported, as initcheck reports it") {
    const unsigned threads = 32;
    DeviceArray<int> data(threads), out(threads);
    SUBCASE("cudaMalloc'd, never written") {
        int* fresh = allocate_ints(threads);
        REQUIRE(fresh != nullptr);
        simt::take_findings();
        REQUIRE(launch_reads_global(fresh, out.ptr, 0, threads) == cudaSuccess);
        REQUIRE(cudaFree(fresh) == cudaSuccess);
        const auto f = simt::take_findings();
        REQUIRE(f.size() == 1);
        CHECK(f[0].check == "uninitialized global memory read");
        CHECK(f[0].kind == simt::Kind::uninitialised);
        CHECK(f[0].lines == at({115}));
        CHECK(f[0].thread == 0);
        CHECK(f[0].allocation == "a 128-byte device allocation");
        CHECK(simt::format(f[0]) ==
              "uninitialized global memory read in kernel reads_global: block (0,0,0): thread 0 read 4 bytes at offset 0 "
              "of a 128-byte device allocation (allocated at byte_kernels.cu:143) at byte_kernels.cu:115, and nothing "
              "wrote bytes 0-3: cudaMalloc leaves memory as it was (write it with cudaMemset, cudaMemcpy or a kernel "
              "before reading it); launched at byte_kernels.cu:135");
    }
    SUBCASE("cudaMemset, cudaMemcpy and a kernel's stores initialise it") {
        REQUIRE(cudaMemset(data.ptr, 0, threads * sizeof(int)) == cudaSuccess);
        simt::take_findings();
        REQUIRE(launch_reads_global(data.ptr, out.ptr, 0, threads) == cudaSuccess);
        CHECK(simt::take_findings().empty());
        DeviceArray<int> copied(threads), written(threads);
        const std::vector<int> host(threads, 3);
        REQUIRE(cudaMemcpy(copied.ptr, host.data(), threads * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
        REQUIRE(launch_reads_global(copied.ptr, out.ptr, 0, threads) == cudaSuccess);
        REQUIRE(launch_reads_global(written.ptr, out.ptr, 3, threads) == cudaSuccess);  // stores, then reads
        REQUIRE(launch_reads_global(written.ptr, out.ptr, 0, threads) == cudaSuccess);  // a later launch
        CHECK(simt::take_findings().empty());
    }
    SUBCASE("one byte of a word left unwritten") {
        REQUIRE(cudaMemset(data.ptr, 0, threads * sizeof(int) - 1) == cudaSuccess);
        simt::take_findings();
        REQUIRE(launch_reads_global(data.ptr, out.ptr, 0, threads) == cudaSuccess);
        const auto f = simt::take_findings();
        REQUIRE(f.size() == 1);
        CHECK(f[0].thread == threads - 1);
        CHECK(simt::format(f[0]).find("nothing wrote byte 127") != std::string::npos);
        // A kernel that writes one byte of each word leaves the other three unwritten.
        DeviceArray<int> low(threads);
        REQUIRE(launch_reads_global(low.ptr, out.ptr, 4, threads) == cudaSuccess);
        const auto g = simt::take_findings();
        REQUIRE(g.size() == 1);
        CHECK(g[0].check == "uninitialized global memory read");
        CHECK(simt::format(g[0]).find("nothing wrote bytes 1-3") != std::string::npos);
    }
    SUBCASE("an atomic reads the old value: on never-cleared memory it is reported, even with the value discarded") {
        for (const int which : {1, 2}) {
            DeviceArray<int> fresh(threads);
            simt::take_findings();
            REQUIRE(launch_reads_global(fresh.ptr, out.ptr, which, threads) == cudaSuccess);
            const auto f = simt::take_findings();
            REQUIRE(f.size() == 1);
            CHECK(f[0].check == "uninitialized global memory read");
            CHECK(f[0].lines == at({which == 1 ? 116 : 117}));
            // The atomic wrote it: read afterwards it is initialised.
            REQUIRE(launch_reads_global(fresh.ptr, out.ptr, 0, which == 1 ? 1 : threads) == cudaSuccess);
            CHECK(simt::take_findings().empty());
        }
    }
    SUBCASE("managed memory, which the host may write directly, is not tracked") {
        int* managed = nullptr;
        REQUIRE(cudaMallocManaged(&managed, threads * sizeof(int)) == cudaSuccess);
        simt::take_findings();
        REQUIRE(launch_reads_global(managed, out.ptr, 0, threads) == cudaSuccess);
        CHECK(simt::take_findings().empty());
        REQUIRE(cudaFree(managed) == cudaSuccess);
    }
}
