// The emulator's own suite, issue 49: accesses of less than a word checked
// per byte.
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
