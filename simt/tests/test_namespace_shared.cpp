// The emulator's own suite, `__shared__` variables declared at namespace
// scope (namespace_shared_kernels.cu, cuda_arch.cu): races, reads of what
// the block never wrote and accesses out of bounds found, named and placed
// as a function's arrays' are; each block its own copy, kept while it waits.
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <string>
#include <vector>

#include "kernels.hpp"
#include "test_helpers.hpp"

namespace {

// Runs kernel `which` of namespace_shared_kernels.cu, its blocks in launch
// order; its findings.
std::vector<std::string> shared_findings(unsigned which, DeviceArray<float>& f_out, DeviceArray<int>& i_out) {
    DeviceArray<float> f_in(64);
    std::vector<float> in(64);
    for (unsigned i = 0; i < 64; ++i) in[i] = static_cast<float>(i);
    REQUIRE(cudaMemcpy(f_in.ptr, in.data(), 64 * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(cudaMemset(i_out.ptr, 0, 256 * sizeof(int)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(simt::set_block_order("launch"));
    launch_namespace_shared(f_in.ptr, f_out.ptr, i_out.ptr, which);
    REQUIRE(simt::set_block_order("default"));
    return formatted_findings();
}

std::vector<std::string> shared_findings(unsigned which) {
    DeviceArray<float> f_out(256);
    DeviceArray<int> i_out(256);
    return shared_findings(which, f_out, i_out);
}

}  // namespace

TEST_CASE("namespace-scope __shared__: the in-place Kogge-Stone's race, named and placed") {
    const auto f = shared_findings(0);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "data race on shared memory in kernel ks_in_place: block (0,0,0): XY[1] written by thread 1 at "
          "namespace_shared_kernels.cu:32 and read by thread 2 at namespace_shared_kernels.cu:32 between the same two "
          "barriers; launched at namespace_shared_kernels.cu:110");
    // The kernel's static shared memory: the arrays it touched, as nvcc counts them.
    CHECK(namespace_shared_static_bytes(0) == 64 * sizeof(float));
}

TEST_CASE("namespace-scope __shared__: double buffers in a namespace, `static`, one declaration, each block its own") {
    DeviceArray<float> f_out(256);
    DeviceArray<int> i_out(256);
    CHECK(shared_findings(1, f_out, i_out).empty());
    const auto out = download(f_out.ptr, 256);
    for (unsigned b = 0; b < 4; ++b)
        for (unsigned t = 0; t < 64; ++t) REQUIRE(out[b * 64 + t] == static_cast<float>((b + 1) * (t + 1)));
    CHECK(namespace_shared_static_bytes(1) == 2 * 64 * sizeof(float));
}

TEST_CASE("namespace-scope __shared__: a block reading what only another block wrote") {
    // Block 1 finds block 0's values in the emulator's one copy; a GPU's block
    // would find garbage: the read is of memory the block never wrote.
    const auto f = shared_findings(2);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "uninitialized shared memory read in kernel read_other_blocks: block (1,0,0): thread 0 read seen[0] at "
          "namespace_shared_kernels.cu:58, which no thread of this block has written; launched at "
          "namespace_shared_kernels.cu:112");
}

TEST_CASE("namespace-scope __shared__: one past the end of an array, 2-D and 3-D elements, a struct") {
    auto f = shared_findings(3);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "out-of-bounds access in kernel past_edge: block (0,0,0): thread 32 wrote 4 bytes at offset 132 of edge, "
          "132 bytes declared at line 20 (past its end) at namespace_shared_kernels.cu:63; launched at "
          "namespace_shared_kernels.cu:113");
    f = shared_findings(4);
    REQUIRE(f.size() == 2);
    CHECK(f[0] ==
          "uninitialized shared memory read in kernel grids: block (0,0,0): thread 0 read grid2[1][2] at "
          "namespace_shared_kernels.cu:70, which no thread of this block has written; launched at "
          "namespace_shared_kernels.cu:114");
    CHECK(f[1] ==
          "data race on shared memory in kernel grids: block (0,0,0): grid3[1][2][3] written by thread 0 at "
          "namespace_shared_kernels.cu:71 and written by thread 1 at namespace_shared_kernels.cu:71 between the same "
          "two barriers; launched at namespace_shared_kernels.cu:114");
    CHECK(namespace_shared_static_bytes(4) == (4 * 8 + 2 * 3 * 4) * sizeof(int));
    f = shared_findings(5);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "data race on shared memory in kernel pair_race: block (0,0,0): pair written by thread 0 at "
          "namespace_shared_kernels.cu:76 and written by thread 1 at namespace_shared_kernels.cu:76 between the same "
          "two barriers; launched at namespace_shared_kernels.cu:115");
}

TEST_CASE("namespace-scope extern __shared__: the launch's dynamic shared memory, checked") {
    DeviceArray<float> f_out(256);
    DeviceArray<int> i_out(256);
    CHECK(shared_findings(6, f_out, i_out).empty());
    const auto out = download(f_out.ptr, 64);
    for (unsigned t = 0; t < 64; ++t) REQUIRE(out[t] == static_cast<float>(63 - t));
    CHECK(namespace_shared_static_bytes(6) == 0);  // dynamic, not static
    // Without the barrier (threads run in order here): thread 0 reads element
    // 63 before thread 63 wrote it, thread 32 overwrites what thread 31 read.
    const auto f = shared_findings(7);
    REQUIRE(f.size() == 2);
    CHECK(f[0].rfind("uninitialized shared memory read in kernel reverse_dynamic: block (0,0,0): thread 0 read extern "
                     "__shared__ memory at namespace_shared_kernels.cu:84",
                     0) == 0);
    CHECK(f[1] ==
          "data race on shared memory in kernel reverse_dynamic: block (0,0,0): extern __shared__ memory read by "
          "thread 31 at namespace_shared_kernels.cu:84 and written by thread 32 at namespace_shared_kernels.cu:82 "
          "between the same two barriers; launched at namespace_shared_kernels.cu:117");
}

TEST_CASE("volatile __shared__, at namespace scope and in a kernel: compiles, and its accesses are checked") {
    const auto f = shared_findings(8);
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "data race on shared memory in kernel volatile_flag: block (0,0,0): flag written by thread 0 at "
          "namespace_shared_kernels.cu:89 and read by thread 1 at namespace_shared_kernels.cu:90 between the same two "
          "barriers; launched at namespace_shared_kernels.cu:118");
    // The same flag declared in a kernel (`static volatile __shared__`): the same finding.
    DeviceArray<int> i_out(32);
    simt::take_findings();
    launch_function_scope_flag(i_out.ptr);
    CHECK(formatted_findings() ==
          std::vector<std::string>{"data race on shared memory in kernel volatile_flag_in_function: block (0,0,0): "
                                   "local_flag written by thread 0 at namespace_shared_kernels.cu:141 and read by "
                                   "thread 1 at namespace_shared_kernels.cu:142 between the same two barriers; "
                                   "launched at namespace_shared_kernels.cu:146"});
}

TEST_CASE("namespace-scope __shared__: a block put aside while it waits gets its own values back") {
    DeviceArray<float> f_out(256);
    DeviceArray<int> i_out(256);
    CHECK(shared_findings(9, f_out, i_out).empty());
    const auto out = download(f_out.ptr, 128);
    for (unsigned b = 0; b < 2; ++b)
        for (unsigned t = 0; t < 64; ++t) REQUIRE(out[b * 64 + t] == static_cast<float>(100 * (b + 1) + t));
}

TEST_CASE("namespace-scope __shared__: trace mode shows the array barrier by barrier") {
    DeviceArray<float> f_out(256);
    DeviceArray<int> i_out(256);
    simt::set_trace("ping", 0, 4);
    shared_findings(1, f_out, i_out);
    const std::string trace = simt::take_trace();
    simt::clear_trace();
    CHECK(trace.find("ks_double_buffered block 0, at barrier 1 (namespace_shared_kernels.cu:44):\n  ping: 1 1 1 1\n") !=
          std::string::npos);
    CHECK(trace.find("ks_double_buffered block 0, at barrier 3 (namespace_shared_kernels.cu:44):\n  ping: 1 2 3 4\n") !=
          std::string::npos);
}

TEST_CASE("namespace-scope __shared__ in a file compiled twice: the device pass's array, checked") {
    DeviceArray<int> out(32);
    simt::take_findings();
    REQUIRE(launch_cuda_arch_race(out.ptr) == cudaSuccess);
    const auto f = formatted_findings();
    REQUIRE(f.size() == 1);
    CHECK(f[0] ==
          "data race on shared memory in kernel arch::scaled_race<3>: block (0,0,0): tally[0] written by thread 0 at "
          "cuda_arch.cu:34 and read by thread 1 at cuda_arch.cu:35 between the same two barriers; launched at "
          "cuda_arch.cu:50");
    CHECK(download(out.ptr, 32) == std::vector<int>(32, 3));
}
