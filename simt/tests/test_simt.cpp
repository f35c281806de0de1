// The emulator's own suite: the rewriter, the scheduler, the barrier checks
// with their exact reports, launch errors and device memory.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <simt/runtime.hpp>

#include <algorithm>
#include <numeric>
#include <vector>

#include "kernels.hpp"
#include "rewrite.hpp"

namespace {

template <typename T>
struct DeviceArray {
    T* ptr = nullptr;
    explicit DeviceArray(std::size_t n) { REQUIRE(cudaMalloc(&ptr, n * sizeof(T)) == cudaSuccess); }
    ~DeviceArray() { cudaFree(ptr); }
};

template <typename T>
std::vector<T> download(const T* d, std::size_t n) {
    std::vector<T> h(n);
    REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

std::size_t count_lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

}  // namespace

TEST_CASE("rewriter: launches become simt::launch calls on the same lines") {
    const std::string src =
        "void f() {\n"
        "  k<<<g, b>>>(x);\n"
        "  ns::k2<<<dim3(1, 2),\n"
        "           64, 0>>>(y);\n"
        "  tk<float><<<1, 2>>>(z);  // k<<<in a comment>>>\n"
        "  puts(\"a<<<b>>>c\");\n"
        "}\n";
    const std::string out = simt::rewrite(src, "dir/lab.cu");
    CHECK(out.rfind("#include <simt/cuda.hpp>\n#line 1 \"dir/lab.cu\"\n", 0) == 0);
    CHECK(count_lines(out) == count_lines(src) + 2);  // only the two header lines added
    CHECK(out.find("::simt::launch(k, {\"k\", __FILE__, __LINE__}, g, b)(x);") != std::string::npos);
    CHECK(out.find("::simt::launch(ns::k2, {\"ns::k2\", __FILE__, __LINE__}, dim3(1, 2),\n           64, 0)(y);") !=
          std::string::npos);
    CHECK(out.find("::simt::launch(tk<float>, {\"tk<float>\", __FILE__, __LINE__}, 1, 2)(z);") != std::string::npos);
    CHECK(out.find("// k<<<in a comment>>>") != std::string::npos);
    CHECK(out.find("puts(\"a<<<b>>>c\");") != std::string::npos);
}

TEST_CASE("rewriter: extern __shared__ becomes the block's dynamic shared memory") {
    const std::string src = "__global__ void k() {\n  extern __shared__ float tile[];\n  extern\n __shared__ int x[ ];\n}\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("float* tile = ::simt::dynamic_shared_as<float>();") != std::string::npos);
    CHECK(out.find("int* x = ::simt::dynamic_shared_as<int>();\n") != std::string::npos);
    CHECK(count_lines(out) == count_lines(src) + 2);
}

TEST_CASE("rewriter: what it cannot parse is an error naming the line") {
    CHECK_THROWS_WITH_AS(simt::rewrite("a\nk<<<1, 2(x);\n", "a.cu"),
                         "a.cu:2: kernel launch '<<<' has no closing '>>>'", simt::RewriteError);
    CHECK_THROWS_WITH_AS(simt::rewrite("x = <<<1, 2>>>(y);\n", "a.cu"),
                         "a.cu:1: cannot find the kernel name before '<<<'", simt::RewriteError);
    CHECK_THROWS_WITH_AS(simt::rewrite("extern __shared__ float t[4];\n", "b.cu"),
                         "b.cu:1: expected 'extern __shared__ T name[];'", simt::RewriteError);
}

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
    REQUIRE(launch_exit_early(d_out.ptr, 4) == cudaSuccess);
    const auto findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(findings[0].check == "barrier divergence");
    CHECK(findings[0].kernel == "exit_early");
    CHECK(simt::format(findings[0]) ==
          "barrier divergence in kernel exit_early: block (0,0,0): thread 0 exited while threads 1-63 waited at "
          "__syncthreads() at kernels.cu:20 (a barrier every thread of the block must reach: is it inside a loop or "
          "branch whose trip count depends on threadIdx?) (and 3 more blocks); launched at kernels.cu:60");
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
}

TEST_CASE("dynamic shared memory, template kernels and 2D indices") {
    const unsigned threads = 100;
    std::vector<int> in(threads);
    std::iota(in.begin(), in.end(), 7);
    DeviceArray<int> d_in(threads), d_out(threads);
    REQUIRE(cudaMemcpy(d_in.ptr, in.data(), threads * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(launch_dynamic_reverse(d_in.ptr, d_out.ptr, threads, threads * sizeof(int)) == cudaSuccess);
    const auto out = download(d_out.ptr, threads);
    CHECK(out.front() == 7 + 99);
    CHECK(out.back() == 7);

    DeviceArray<float> d_f(1000);
    REQUIRE(launch_fill(d_f.ptr, 2.5f, 1000) == cudaSuccess);
    const auto f = download(d_f.ptr, 1000);
    CHECK(std::all_of(f.begin(), f.end(), [](float v) { return v == 2.5f; }));

    DeviceArray<unsigned> d_idx(6 * 8);
    REQUIRE(launch_index_2d(d_idx.ptr) == cudaSuccess);
    const auto idx = download(d_idx.ptr, 48);
    CHECK(idx[0] == 0);
    CHECK(idx[8 + 3] == 1003);    // block (1,0), thread (3,0)
    CHECK(idx[47] == 5007);       // block (2,1), thread (3,1)
    CHECK(simt::take_findings().empty());
}

TEST_CASE("launch errors carry CUDA's codes and stay until read") {
    DeviceArray<int> d(2048);
    CHECK(launch_reverse(d.ptr, d.ptr, 1, 1025) == cudaErrorInvalidConfiguration);
    CHECK(launch_reverse(d.ptr, d.ptr, 0, 32) == cudaErrorInvalidValue);  // zero grid, as CUDA 13 on an H100
    CHECK(launch_dynamic_reverse(d.ptr, d.ptr, 32, 48 * 1024 + 1) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaSuccess);  // reading the error cleared it
    CHECK(std::string(cudaGetErrorName(cudaErrorInvalidConfiguration)) == "cudaErrorInvalidConfiguration");
    CHECK(std::string(cudaGetErrorString(cudaErrorInvalidConfiguration)) == "invalid configuration argument");
}

TEST_CASE("device memory: tracked, checked copies, bad frees") {
    const auto before = simt::memory_in_use();
    int* p = nullptr;
    REQUIRE(cudaMalloc(&p, 400) == cudaSuccess);
    CHECK(simt::memory_in_use().bytes == before.bytes + 400);
    CHECK(simt::memory_in_use().allocations == before.allocations + 1);
    int host[100] = {};
    CHECK(cudaMemcpy(p, host, 400, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(cudaMemcpy(p, host, 404, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);  // past the allocation
    CHECK(cudaMemcpy(host, p, 400, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);  // direction swapped
    CHECK(cudaMemset(p, 0, 400) == cudaSuccess);
    CHECK(cudaFree(host) == cudaErrorInvalidDevicePointer);
    CHECK(cudaFree(p) == cudaSuccess);
    CHECK(simt::memory_in_use().bytes == before.bytes);
    void* zero = reinterpret_cast<void*>(1);
    CHECK(cudaMalloc(&zero, 0) == cudaSuccess);
    CHECK(zero == nullptr);
    cudaGetLastError();
}
