// The emulator's own suite: the rewriter, the scheduler, the barrier checks
// with their exact reports, launch errors and device memory.
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <vector>

#include "kernels.hpp"
#include "limits.hpp"
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
        "  p.kernel<<<1, 64>>>(a); table->k[i + 1]<<<2, 32>>>(b);\n"
        "}\n";
    const std::string out = simt::rewrite(src, "dir/lab.cu");
    CHECK(out.rfind("#include <simt/nvcc.hpp>\n#include <simt/cuda.hpp>\n#line 1 \"dir/lab.cu\"\n", 0) == 0);
    CHECK(count_lines(out) == count_lines(src) + 3);  // only the three header lines added
    CHECK(out.find("::simt::launch(k, {\"k\", __FILE__, __LINE__}, g, b)(x);") != std::string::npos);
    CHECK(out.find("::simt::launch(ns::k2, {\"ns::k2\", __FILE__, __LINE__}, dim3(1, 2),\n           64, 0)(y);") !=
          std::string::npos);
    CHECK(out.find("::simt::launch(tk<float>, {\"tk<float>\", __FILE__, __LINE__}, 1, 2)(z);") != std::string::npos);
    CHECK(out.find("// k<<<in a comment>>>") != std::string::npos);
    CHECK(out.find("puts(\"a<<<b>>>c\");") != std::string::npos);
    CHECK(out.find("::simt::launch(p.kernel, {\"p.kernel\", __FILE__, __LINE__}, 1, 64)(a);") != std::string::npos);
    CHECK(out.find("::simt::launch(table->k[i + 1], {\"table->k[i+1]\", __FILE__, __LINE__}, 2, 32)(b);") != std::string::npos);
}

TEST_CASE("rewriter: a template kernel launched without its arguments is called, deducing them") {
    const std::string src =
        "template <typename T>\n"
        "__global__ void scan(const T* in, T* out) {}\n"
        "void f(const float* a, float* b) { scan<<<1, 32>>>(a, b); scan<float><<<1, 32>>>(a, b); }\n";
    const std::string out = simt::rewrite(src, "s.cu");
    CHECK(out.find("::simt::launch_call([&](auto&&... a) { scan(a...); }, {\"scan\", __FILE__, __LINE__}, 1, 32)(a, b);") !=
          std::string::npos);
    CHECK(out.find("::simt::launch(scan<float>, {\"scan<float>\", __FILE__, __LINE__}, 1, 32)(a, b);") != std::string::npos);
}

TEST_CASE("rewriter: a file that uses __CUDA_ARCH__ becomes a host pass and a device pass, lines kept") {
    const std::string src =
        "#include <cstdio>\n"
        "namespace lab {\n"
        "__device__ unsigned count, a[4];\n"
        "constexpr __device__ int kBlock = 32;\n"
        "__global__ void k(float* p) {\n"
        "#ifdef __CUDA_ARCH__\n"
        "  p[0] = __CUDA_ARCH__;\n"
        "#endif\n"
        "}\n"
        "}\n"
        "void f(float* p) { lab::k<<<1, kBlock>>>(p); }\n";
    const std::string out = simt::rewrite(src, "arch.cu");
    const std::size_t device = out.find("#define __CUDA_ARCH__ 900\nnamespace __simt_device {\n#line 1 \"arch.cu\"\n");
    REQUIRE(device != std::string::npos);
    const std::string host_pass = out.substr(0, device), device_pass = out.substr(device);
    CHECK(host_pass.find("::simt::launch(::simt::Site<0>{}, [] {}, lab::k, {\"lab::k\", __FILE__, __LINE__}, 1, kBlock)(p);") !=
          std::string::npos);
    // The device pass: includes blank (the host pass made them), one variable
    // for both passes, constants as they are, the site registering its kernel.
    CHECK(device_pass.find("#include") == std::string::npos);
    CHECK(device_pass.find("static auto& count = ::lab::count; static auto& a = ::lab::a;") != std::string::npos);
    CHECK(device_pass.find("constexpr __device__ int kBlock = 32;") != std::string::npos);
    CHECK(device_pass.find("::simt::device_kernel<0, &lab::k>(::simt::Site<0>{}, [] {})(p);") != std::string::npos);
    const std::string end = "\n}  // namespace __simt_device\n#undef __CUDA_ARCH__\n#pragma GCC diagnostic pop\n";
    CHECK(out.rfind(end) == out.size() - end.size());
    CHECK(count_lines(device_pass) == count_lines(src) + 3 + 4);  // #define, namespace, #line; the closing lines
    // Its launches drop their configurations: no unused-variable warnings there.
    CHECK(host_pass.find("#pragma GCC diagnostic ignored \"-Wunused-variable\"\n") != std::string::npos);
    // A file without __CUDA_ARCH__ is compiled once.
    CHECK(simt::rewrite("__global__ void k() {}\n", "x.cu").find("__simt_device") == std::string::npos);
}

TEST_CASE("rewriter: extern __shared__ becomes the block's dynamic shared memory") {
    const std::string src = "__global__ void k() {\n  extern __shared__ float tile[];\n  extern\n __shared__ int x[ ];\n}\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("float* tile = ::simt::dynamic_shared_as<float>();") != std::string::npos);
    CHECK(out.find("int* x = ::simt::dynamic_shared_as<int>();\n") != std::string::npos);
    CHECK(count_lines(out) == count_lines(src) + 3);
}

TEST_CASE("rewriter: __noinline__ in the lab's code only, never as a macro over system headers") {
    const std::string src = "__device__ __noinline__ float f();  // __noinline__\nint __noinline__x;\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("__device__ __attribute__((noinline)) float f();  // __noinline__\n") != std::string::npos);
    CHECK(out.find("int __noinline__x;") != std::string::npos);
#ifdef __noinline__
    FAIL("the shim defines __noinline__, which breaks __attribute__((__noinline__)) in system headers");
#endif
}

TEST_CASE("rewriter: every __shared__ variable of a function is declared to the runtime, commas included") {
    const std::string src = "__global__ void k() {\n  __shared__ float a[4], b[2][3];\n  __shared__ unsigned t;\n"
                            "  __shared__ cuda::atomic<int, cuda::thread_scope_block> n, m[2];\n}\n"
                            "__shared__ int file_scope[2];\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("__shared__ float a[4], b[2][3]; ::simt::declare_shared(&a, sizeof(a), \"a\", __LINE__); "
                   "::simt::declare_shared(&b, sizeof(b), \"b\", __LINE__);\n") != std::string::npos);
    CHECK(out.find("__shared__ unsigned t; ::simt::declare_shared(&t, sizeof(t), \"t\", __LINE__);\n") !=
          std::string::npos);
    CHECK(out.find("__shared__ cuda::atomic<int, cuda::thread_scope_block> n, m[2]; ::simt::declare_shared(&n, "
                   "sizeof(n), \"n\", __LINE__); ::simt::declare_shared(&m, sizeof(m), \"m\", __LINE__);\n") !=
          std::string::npos);  // a template's commas are not the declarators'
    CHECK(out.find("__shared__ int file_scope[2];\n") != std::string::npos);  // not in a function: left alone
    CHECK(count_lines(out) == count_lines(src) + 3);

}

TEST_CASE("rewriter: reinterpret_cast becomes the checked cast, its type named as written") {
    const std::string src = "auto p = reinterpret_cast<const float4 *>(in + 1)[t];\n"
                            "auto q = reinterpret_cast<\n  volatile unsigned long long*> (s);  // reinterpret_cast<int>(x)\n"
                            "int my_reinterpret_cast(int);\n";
    const std::string out = simt::rewrite(src, "a.cu");
    CHECK(out.find("auto p = ::simt::reinterpret_checked<const float4 *>(\"const float4 *\", in + 1)[t];\n") !=
          std::string::npos);
    CHECK(out.find("auto q = ::simt::reinterpret_checked<\n  volatile unsigned long long*>(\"volatile unsigned long "
                   "long*\", s);  // reinterpret_cast<int>(x)\n") != std::string::npos);
    CHECK(out.find("int my_reinterpret_cast(int);") != std::string::npos);
    CHECK(count_lines(out) == count_lines(src) + 3);
}

TEST_CASE("rewriter: __device__ and __constant__ variables at namespace scope are registered, on the same line") {
    const std::string src =
        "__device__ int counter = 0;\n"                              // 1
        "__constant__ float c[4] = {1, 2, 3, 4};\n"                 // 2
        "static __device__ unsigned a[8], b{3};\n"                   // 3
        "namespace ns { __device__ __align__(16) float v[4]; }\n"    // 4
        "extern __device__ int elsewhere;\n"                         // 5: a declaration
        "template <typename T> __device__ T per_type;\n"             // 6: a template
        "__device__ int twice(int x) { return 2 * x; }\n"            // 7: a function
        "__host__ __device__ float f(float);\n"                      // 8
        "__global__ void k() { __shared__ int t[2]; static __device__ int s; }\n"  // 9: in a function
        "// __device__ int in_a_comment;\n"                          // 10
        "#define DEVICE __device__\n";                               // 11
    const std::string out = simt::rewrite(src, "v.cu");
    CHECK(count_lines(out) == count_lines(src) + 3);
    const auto registered = [&](const std::string& name) {
        return out.find("::simt::declare_device_variable(__builtin_addressof(" + name + "), sizeof(" + name + "), \"" +
                        name + "\", __LINE__);") != std::string::npos;
    };
    CHECK(out.find("__device__ int counter = 0; [[maybe_unused]] static const bool simt_device_variable_1 = ") !=
          std::string::npos);
    for (const char* name : {"counter", "c", "a", "b", "v"}) CHECK(registered(name));
    for (const char* name : {"elsewhere", "per_type", "twice", "f", "s", "in_a_comment", "DEVICE"}) CHECK(!registered(name));
    CHECK(out.find("simt_device_variable_6") == std::string::npos);
}

TEST_CASE("rewriter: what it cannot parse is an error naming the line") {
    CHECK_THROWS_WITH_AS(simt::rewrite("a\nk<<<1, 2(x);\n", "a.cu"),
                         "a.cu:2: kernel launch '<<<' has no closing '>>>'", simt::RewriteError);
    CHECK_THROWS_WITH_AS(simt::rewrite("x = <<<1, 2>>>(y);\n", "a.cu"),
                         "a.cu:1: cannot find the kernel name before '<<<'", simt::RewriteError);
    CHECK_THROWS_WITH_AS(simt::rewrite("extern __shared__ float t[4];\n", "b.cu"),
                         "b.cu:1: expected 'extern __shared__ T name[];'", simt::RewriteError);
}

TEST_CASE("limits: what the emulator cannot run, by line, in program text only") {
    const std::string source =
        "#include <cuda_runtime.h>\n"              // 1: the shim provides it
        "#include <cub/cub.cuh>\n"                 // 2
        "  #  include \"cuda/annotated_ptr\"\n"   // 3: a CUDA header the shim lacks
        "// asm(\"x\"); tex1Dfetch in a comment\n"  // 4
        "__global__ void k(float* p) {\n"          // 5
        "    const char* s = \"thrust::sort\";\n"  // 6
        "    asm volatile(\"\"); __asm__(\"\");\n"   // 7: one per construct and line
        "    p[0] = tex1Dfetch<float>(t, 0);\n"     // 8
        "    cub::BlockScan<float, 32> scan;\n"    // 9
        "    int my_asm = 0, cuber = 1;\n"         // 10: words that only contain the names
        "}\n";
    const std::vector<simt::Limit> found = simt::find_limits(source, SHIM_DIR);
    REQUIRE(found.size() == 5);
    CHECK((found[0].construct == "CUB" && found[0].written == "#include <cub/cub.cuh>" && found[0].line == 2));
    CHECK((found[1].construct == "a CUDA header the emulator does not provide" && found[1].line == 3));
    CHECK((found[2].construct == "inline PTX" && found[2].written == "asm" && found[2].line == 7));
    CHECK((found[3].construct == "textures and surfaces" && found[3].written == "tex1Dfetch" && found[3].line == 8));
    CHECK((found[4].construct == "CUB" && found[4].written == "cub::" && found[4].line == 9));
    CHECK(simt::find_limits("#include <cuda_runtime.h>\n__global__ void k() {}\n", SHIM_DIR).empty());
    // libcu++'s atomics, and the plain cuda/std headers beside them, are the shim's.
    CHECK(simt::find_limits("#include <cuda/atomic>\n#include <cuda/std/atomic>\n#include <cuda/std/cstdint>\n"
                            "#include <cuda/std/type_traits>\n#include <cuda/std/limits>\n#include <cuda/std/utility>\n"
                            "#include <cuda/std/functional>\n",
                            SHIM_DIR)
              .empty());
    CHECK(simt::find_limits("#include <cuda/barrier>\n", SHIM_DIR).size() == 1);
    // A launch the device pass of a file using __CUDA_ARCH__ cannot see (rewrite.hpp).
    const std::vector<simt::Limit> hidden = simt::find_limits(
        "#ifdef __CUDA_ARCH__\nint a;\n#else\nvoid f() { k<<<1, 1>>>(); }\n#endif\n"
        "#if !defined(__CUDA_ARCH__)\nvoid g() { k<<<1, 1>>>(); }\n#endif\nvoid h() { k<<<1, 1>>>(); }\n",
        SHIM_DIR);
    REQUIRE(hidden.size() == 2);
    CHECK((hidden[0].line == 4 && hidden[1].line == 7 && hidden[0].written == "<<<"));
    CHECK(simt::find_limits("#ifndef X\nvoid f() { k<<<1, 1>>>(); }\n#endif\n", SHIM_DIR).empty());
    CHECK(simt::find_limits("#include <vector_types.h>\n#include <vector_functions.h>\n", SHIM_DIR).empty());

    std::string file;
    const std::vector<simt::Limit> back = simt::decode_limits(simt::encode_limits("scan.cu", found), &file);
    CHECK(file == "scan.cu");
    REQUIRE(back.size() == found.size());
    CHECK((back[2].construct == "inline PTX" && back[2].written == "asm" && back[2].line == 7));
    CHECK(simt::summarize("scan.cu", found) == "`#include <cub/cub.cuh>` (CUB) at scan.cu:2 (and 4 more)");
    const std::string told = simt::explain_for_student("scan.cu", {found[2]});
    CHECK(told.rfind("scan.cu:7: `asm` (inline PTX) is beyond the CPU emulator\nThis is the kit's limit, not a bug in your code.", 0) == 0);
    // The marker the rewriter builds such a file into: the records as a C string.
    const std::string marker = simt::limits_marker("labs/x/scan.cu", {found[2]});
    CHECK(marker.find("extern \"C\" const char simt_kit_limits[] = \"scan.cu\\n7\\tinline PTX\\tasm\\n\";") !=
          std::string::npos);
}

TEST_CASE("library scans: CUB's and Thrust's scans, not their other names nor cooperative groups' scans") {
    const std::string source =
        "#include <cub/cub.cuh>\n"                                        // 1
        "#include <thrust/pair.h>\n"                                      // 2
        "// cub::DeviceScan::InclusiveSum in a comment\n"                 // 3
        "__device__ thrust::pair<int, float> best;\n"                     // 4: not a scan
        "void f(float* a, float* b, int n) {\n"                           // 5
        "    cub::DeviceScan::InclusiveSum(0, bytes, a, b, n);\n"         // 6
        "    thrust :: inclusive_scan(thrust::device, a, a + n, b);\n"    // 7
        "    typedef cub::BlockScan<float, 128> S; cub::Sum op;\n"        // 8: BlockScan, not Sum
        "    cg::inclusive_scan(tile, x); std::exclusive_scan(a, a, b);\n"  // 9: CUDA's and C++'s own
        "    float my_inclusive_scan = 0; BlockScan x;\n"                  // 10: unqualified, no using
        "}\n";
    const std::vector<simt::Limit> found = simt::find_library_scans(source);
    REQUIRE(found.size() == 3);
    CHECK((found[0].construct == "CUB" && found[0].written == "cub::DeviceScan" && found[0].line == 6));
    CHECK((found[1].construct == "Thrust" && found[1].written == "thrust::inclusive_scan" && found[1].line == 7));
    CHECK((found[2].construct == "CUB" && found[2].written == "cub::BlockScan" && found[2].line == 8));
    // After a using directive an unqualified name counts; one another namespace qualifies does not.
    const std::vector<simt::Limit> opened = simt::find_library_scans(
        "using namespace thrust;\nusing namespace cub;\nvoid f() { exclusive_scan(device, a, a, b); "
        "cg::exclusive_scan(t, 1); WarpScan<int> w; }\n");
    REQUIRE(opened.size() == 2);
    CHECK((opened[0].written == "thrust::exclusive_scan" && opened[0].line == 3));
    CHECK((opened[1].written == "cub::WarpScan" && opened[1].construct == "CUB"));
    CHECK(simt::find_library_scans("#include <thrust/pair.h>\nthrust::pair<int, int> p; cub::Max m;\n").empty());
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
    // As measured with CUDA 13 on an H100: each of these is cudaErrorInvalidValue.
    DeviceArray<int> d(2048);
    CHECK(launch_reverse(d.ptr, d.ptr, 1, 1025) == cudaErrorInvalidValue);
    CHECK(launch_reverse(d.ptr, d.ptr, 0, 32) == cudaErrorInvalidValue);
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
    CHECK(cudaFree(host) == cudaErrorInvalidValue);  // CUDA 13's documented code
    CHECK(cudaFree(p) == cudaSuccess);
    CHECK(simt::memory_in_use().bytes == before.bytes);
    void* zero = reinterpret_cast<void*>(1);
    CHECK(cudaMalloc(&zero, 0) == cudaSuccess);
    CHECK(zero == nullptr);
    cudaGetLastError();
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
    for (const auto& f : simt::take_findings()) out.push_back(simt::format(f));
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
    auto f = findings_of(2);
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
            if (d.cells[i][w].blocks_divergent) {
                CHECK(d.cells[i][w].blocks_divergent == in_blocks);
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

TEST_CASE("warp divergence: lanes named in the mask that never arrive") {
    DeviceArray<int> out(32);
    simt::take_findings();
    launch_warp_kernels(out.ptr, nullptr, 1);
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) ==
          "warp divergence in kernel half_warp_sync: block (0,0,0): threads 0-15 waited at a warp function at "
          "kernels.cu:210 while threads 16-31, named in its mask, did not arrive (exited, or waiting at another "
          "barrier); launched at kernels.cu:222");
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
          "data race on shared memory in kernel warp_scan: block (0,0,0): s[0] written by thread 0 at kernels.cu:289 "
          "and read by thread 1 at kernels.cu:287 between the same two barriers; launched at kernels.cu:296");
}

TEST_CASE("two __shared__ arrays in one declaration: both are checked") {
    DeviceArray<int> d_out(32);
    simt::take_findings();
    REQUIRE(launch_two_arrays(d_out.ptr) == cudaSuccess);
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) ==
          "data race on shared memory in kernel two_arrays: block (0,0,0): b[0] written by thread 0 at kernels.cu:304 "
          "and read by thread 1 at kernels.cu:305 between the same two barriers; launched at kernels.cu:309");
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
            CHECK(text.find("thread 0 at kernels.cu:328 and read by thread 0 at kernels.cu:326 in the same launch") !=
                  std::string::npos);
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

TEST_CASE("a read past the bytes the program was given is out of bounds, though the allocation goes on") {
    DeviceArray<int> d_in(64), d_out(64);
    REQUIRE(cudaMemset(d_in.ptr, 0, 64 * sizeof(int)) == cudaSuccess);
    CHECK_FALSE(simt::set_given_bytes(d_in.ptr + 1, 4));  // not the start of an allocation
    REQUIRE(simt::set_given_bytes(d_in.ptr, 60 * sizeof(int)));  // the harness's guard: the last 4
    simt::take_findings();
    REQUIRE(launch_reverse(d_in.ptr, d_out.ptr, 1, 64) == cudaSuccess);
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) ==
          "out-of-bounds access in kernel reverse: block (0,0,0): thread 60 read 4 bytes at offset 240 of a device "
          "buffer of 240 bytes (past its end: the 60 elements the lab function was given) at kernels.cu:11; "
          "launched at kernels.cu:55");
}

TEST_CASE("events measure host time") {
    cudaEvent_t start = nullptr, stop = nullptr;
    REQUIRE(cudaEventCreate(&start) == cudaSuccess);
    REQUIRE(cudaEventCreate(&stop) == cudaSuccess);
    float ms = -1;
    CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorInvalidResourceHandle);  // not recorded yet
    CHECK(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    CHECK(cudaEventRecord(start) == cudaSuccess);
    CHECK(cudaEventRecord(stop) == cudaSuccess);
    CHECK(cudaEventSynchronize(stop) == cudaSuccess);
    CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
    CHECK(ms >= 0.0f);
    CHECK(cudaEventDestroy(start) == cudaSuccess);
    CHECK(cudaEventDestroy(stop) == cudaSuccess);
}

TEST_CASE("a kernel touching host memory is reported") {
    std::vector<int> host(8, 0);
    simt::take_findings();
    launch_writes_host(host.data());
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) ==
          "kernel access to host memory in kernel writes_host: block (0,0,0): thread 0 wrote 4 bytes at "
          "kernels.cu:227 outside every device allocation and shared array: a host pointer passed to the kernel? "
          "(pass pointers from cudaMalloc): the launch stopped there, before the access (a GPU stops it with an "
          "illegal address error); launched at kernels.cu:229");
    CHECK(host == std::vector<int>(8, 0));  // stopped before the first store: host memory may be the emulator's own
}

TEST_CASE("stores and loads any distance out of range are reported with their line; where nothing is mapped the launch stops first") {
    // 64 floats: 256 bytes, then 256 bytes of guard zone and the page's
    // rest (performed, reported), then 16 MiB of inaccessible pages (the
    // launch stops before the access); the same before the start. Without
    // the allocation's own mapping, 10^6 elements past (or before) the end
    // wrote into the emulator's heap and it crashed later.
    DeviceArray<float> data(64), out(1);
    const std::string stopped = ": the launch stopped there, before the access (a GPU stops it with an illegal address error)";
    const struct {
        long long index;
        const char* offset;
        const char* where;
        bool stops;
    } cases[] = {{64, "256", "past its end", false},         {64 + 64, "512", "past its end", false},
                 {64 + 1000, "4256", "past its end", true},    {64 + 1000000, "4000256", "past its end", true},
                 {-1, "-4", "before its start", false},        {-64, "-256", "before its start", false},
                 {-1000, "-4000", "before its start", true},   {-1000000, "-4000000", "before its start", true}};
    for (const auto& c : cases)
        for (unsigned which : {0u, 1u}) {
            CAPTURE(c.index);
            CAPTURE(which);
            simt::take_findings();
            REQUIRE(launch_at(data.ptr, out.ptr, c.index, which) == cudaSuccess);
            const auto f = simt::take_findings();
            REQUIRE(f.size() == 1);
            CHECK(simt::format(f[0]) == std::string("out-of-bounds access in kernel ") +
                                            (which == 0 ? "store_at" : "load_at") + ": block (0,0,0): thread 5 " +
                                            (which == 0 ? "wrote" : "read") + " 4 bytes at offset " + c.offset +
                                            " of a 256-byte device allocation (" + c.where + ") at kernels.cu:" +
                                            (which == 0 ? "456" : "460") + (c.stops ? stopped : "") +
                                            "; launched at kernels.cu:" + (which == 0 ? "469" : "470"));
        }

    // Through a pointer that holds garbage (an uninitialised one's), where nothing is mapped.
    for (unsigned which : {0u, 1u}) {
        simt::take_findings();
        REQUIRE(launch_at(reinterpret_cast<float*>(0x5a5a5a5a5a50), out.ptr, 0, which) == cudaSuccess);
        const auto f = simt::take_findings();
        REQUIRE(f.size() == 1);
        CHECK(simt::format(f[0]) == std::string("out-of-bounds access in kernel ") +
                                        (which == 0 ? "store_at: block (0,0,0): thread 5 wrote" : "load_at: block (0,0,0): thread 5 read") +
                                        " 4 bytes at address 0x5a5a5a5a5a50 at kernels.cu:" + (which == 0 ? "456" : "460") +
                                        ", in no device allocation or shared array, where nothing is mapped (an "
                                        "uninitialised pointer? an index far out of range?)" +
                                        stopped + "; launched at kernels.cu:" + (which == 0 ? "469" : "470"));
    }
    simt::take_findings();
    REQUIRE(launch_at(nullptr, out.ptr, 3, 0) == cudaSuccess);
    auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]).find("thread 5 wrote 4 bytes at address 0xc at kernels.cu:456, in no device allocation") !=
          std::string::npos);

    // An access the hooks do not see (a memset) faults in the guard pages:
    // the SIGSEGV backstop reports it as the hooks would, with its line.
    REQUIRE(launch_at(data.ptr, out.ptr, 64 + 1000000, 2) == cudaSuccess);
    f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) == "out-of-bounds access in kernel library_store: block (0,0,0): thread 5 wrote at offset "
                                "4000256 of a 256-byte device allocation (past its end) at kernels.cu:464 (a fault)" +
                                    stopped + "; launched at kernels.cu:471");

    // The emulator is intact, and a later launch runs as usual.
    REQUIRE(launch_fill(data.ptr, 2.5f, 64) == cudaSuccess);
    CHECK(download(data.ptr, 64) == std::vector<float>(64, 2.5f));
    CHECK(simt::take_findings().empty());
}

TEST_CASE("misaligned address: a float4 made from in + 1 stops the launch where it is made, as a GPU faults") {
    DeviceArray<float> in(64), out(16);
    REQUIRE(cudaMemset(in.ptr, 0, 64 * sizeof(float)) == cudaSuccess);
    simt::take_findings();
    for (unsigned offset : {0u, 4u}) {  // 16-byte aligned: no finding
        REQUIRE(launch_load_float4(in.ptr, out.ptr, offset) == cudaSuccess);
        CHECK(simt::take_findings().empty());
    }
    for (unsigned offset : {1u, 2u}) {
        CAPTURE(offset);
        REQUIRE(launch_load_float4(in.ptr, out.ptr, offset) == cudaSuccess);
        const auto f = simt::take_findings();
        REQUIRE(f.size() == 1);
        CHECK(simt::format(f[0]) == "misaligned address in kernel load_float4: block (0,0,0): thread 0 made a const "
                                    "float4* from byte offset " + std::to_string(4 * offset) +
                                        " of a 256-byte device allocation, not a multiple of 16, at kernels.cu:479: its "
                                        "loads and stores are misaligned, which stops a kernel on a GPU (misaligned "
                                        "address); the launch stopped there; launched at kernels.cu:484");
    }
    // A float4 view of a __shared__ float array (16-byte aligned, as a GPU's
    // first shared array) or of a local array: no finding.
    REQUIRE(launch_shared_float4(in.ptr, out.ptr) == cudaSuccess);
    for (const auto& f : simt::take_findings()) FAIL_CHECK(simt::format(f));
    // Outside a kernel the same cast is the host's business.
    CHECK(reinterpret_cast<std::uintptr_t>(simt::reinterpret_checked<const double*>("const double*", in.ptr + 1)) ==
          reinterpret_cast<std::uintptr_t>(in.ptr + 1));
    CHECK(simt::take_findings().empty());
}

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

TEST_CASE("launch counts and where an allocation's data came from") {
    DeviceArray<int> d_out(4 * 64);
    const simt::LaunchCount before = simt::launches_so_far();
    const std::vector<int> zeros(4 * 64, 0);
    REQUIRE(cudaMemcpy(d_out.ptr, zeros.data(), zeros.size() * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_FALSE(simt::written_by_kernel(d_out.ptr));  // from the host
    const simt::LaunchCount none = simt::launches_so_far();
    CHECK(none.launches == before.launches);

    DeviceArray<int> d_in(4 * 64);
    REQUIRE(cudaMemcpy(d_in.ptr, zeros.data(), zeros.size() * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    REQUIRE(launch_reverse(d_in.ptr, d_out.ptr, 4, 64) == cudaSuccess);
    const simt::LaunchCount after = simt::launches_so_far();
    CHECK(after.launches == before.launches + 1);
    CHECK(after.blocks == before.blocks + 4);
    CHECK(simt::written_by_kernel(d_out.ptr));
    CHECK_FALSE(simt::written_by_kernel(d_in.ptr));  // only read

    // A device-to-device copy carries the origin; a copy from the host replaces it.
    DeviceArray<int> d_copy(4 * 64);
    REQUIRE(cudaMemcpy(d_copy.ptr, d_out.ptr, 4 * 64 * sizeof(int), cudaMemcpyDeviceToDevice) == cudaSuccess);
    CHECK(simt::written_by_kernel(d_copy.ptr));
    REQUIRE(cudaMemcpy(d_out.ptr, zeros.data(), sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK_FALSE(simt::written_by_kernel(d_out.ptr));
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
          "possible deadlock in kernel wait_for_previous: block (11,0,0): thread 0 waits at kernels.cu:260 for a "
          "value that no running block changes; 4 started block(s) all wait and 8 block(s) have not started (the "
          "emulator keeps 4 started at once): a GPU may run blocks in any order and need not start one until a "
          "running block ends, so a block must not wait for another that may not have started (wait for a block "
          "that took an earlier ticket from an atomic counter, not for a lower blockIdx); launched at kernels.cu:272");
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
              "possible deadlock in kernel wait_first: block (11,0,0): thread 0 waits at kernels.cu:424 for a value "
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
              "in the loop at kernels.cu:431 without reaching a barrier or finishing; now thread 0 runs at "
              "kernels.cu:431; threads 1-63 wait at the __syncthreads() at kernels.cu:442", 0) == 0);

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
          "the loop at kernels.cu:391-392 without reaching a barrier or finishing; now threads 0-63 run at "
          "kernels.cu:391: does the loop's condition ever turn false (a typo such as `stride * 2` for `stride *= 2`, or `stride >= 0` with a stride that halves to 0)? "
          "SIMT_SPIN_BUDGET sets the budget; launched at kernels.cu:398");
    // A barrier in the loop: every thread passes it again and again, which is no progress.
    REQUIRE(launch_endless_loop(d_out.ptr, 4, 0, true) == cudaSuccess);
    findings = simt::take_findings();
    REQUIRE(findings.size() == 1);
    CHECK(simt::format(findings[0]) ==
          "possible endless loop in kernel endless_loop: block (0,0,0): threads 0-63 have run 100000 basic blocks in "
          "the loop at kernels.cu:391-393 without one finishing, through 155 barriers (the last at kernels.cu:393); "
          "now threads 0-63 wait at the __syncthreads() at kernels.cu:393: does the loop's condition ever turn false "
          "(a typo such as `stride * 2` for `stride *= 2`, or `stride >= 0` with a stride that halves to 0)? SIMT_SPIN_BUDGET sets the budget; launched at kernels.cu:398");
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

TEST_CASE("a C++ fence in a kernel file links and runs (the instrumentation's __tsan_atomic_thread_fence)") {
    DeviceArray<int> w(2);
    REQUIRE(cudaMemset(w.ptr, 0, 2 * sizeof(int)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(launch_cxx_fence(w.ptr) == cudaSuccess);
    CHECK(download(w.ptr, 2) == std::vector<int>{1, 45});
    CHECK(simt::take_findings().empty());
}

TEST_CASE("a file that uses __CUDA_ARCH__: kernels see 900, host code does not, __device__ variables are one") {
    DeviceArray<int> out(64);
    int host_arch = 0;
    unsigned launches = 0;
    simt::take_findings();
    REQUIRE(launch_cuda_arch(out.ptr, 32, &host_arch, &launches) == cudaSuccess);
    CHECK(host_arch == -1);
    CHECK(launches == 2);
    const std::vector<int> got = download(out.ptr, 64);
    CHECK(got == std::vector<int>(64, 905));
    CHECK(simt::take_findings().empty());
}

TEST_CASE("vector types: a load or store of one is one access of its size, as on a GPU") {
    struct Type {
        const char* name;
        unsigned bytes;
    };
    const Type types[] = {{"char4", 4},  {"short4", 8},  {"int2", 8},    {"float2", 8},      {"int3", 12},
                          {"int4", 16},  {"float4", 16}, {"double2", 16}, {"ulonglong2", 16}, {"double4_32a", 32}};
    DeviceArray<char> data(96);
    REQUIRE(cudaMemset(data.ptr, 0, 96) == cudaSuccess);
    simt::take_findings();
    for (unsigned which = 0; which < std::size(types); ++which)
        for (bool store : {false, true}) {
            CAPTURE(types[which].name);
            CAPTURE(store);
            REQUIRE(launch_vector_past_end(data.ptr, which, store) == cudaSuccess);
            const auto f = simt::take_findings();
            REQUIRE(f.size() == 1);
            const std::string text = simt::format(f[0]);
            CHECK(text.find(std::string("in kernel vector_past_end<") + types[which].name + ">: block (0,0,0): thread 0 " +
                            (store ? "wrote " : "read ") + std::to_string(types[which].bytes) +
                            " bytes at offset 96 of a 96-byte device allocation (past its end)") != std::string::npos);
        }
}

TEST_CASE("integer and SIMD intrinsics: exact, and no branch of the kernel's (no warp diverges)") {
    DeviceArray<unsigned> out(64);
    simt::take_findings();
    simt::set_divergence_tracing(true);
    REQUIRE(launch_intrinsics_by_lane(out.ptr) == cudaSuccess);
    simt::set_divergence_tracing(false);
    const auto all = simt::take_divergence();
    REQUIRE(all.size() == 1);
    CHECK(all[0].efficiency() == 1.0);
    for (const auto& interval : all[0].cells)
        for (const auto& cell : interval) CHECK(cell.blocks_divergent == 0);
    CHECK(simt::take_findings().empty());
    // Each term by CUDA's definition, for threads 0 and 1 (sums modulo 2^32).
    const std::vector<unsigned> got = download(out.ptr, 64);
    // t = 0: __ffs(0) 0, __clz(0) 32, __popc 0; __fns(0xf0f0f0f0, 0, -2): no
    // set bit at or below bit 0, 0xffffffff; __vabsss2(0) 0; __byte_perm(0,
    // ~0, 0) byte 0 of x four times, 0; __vsads4(0, 0xfffffff9): bytes -7, -1,
    // -1, -1, 10; __funnelshift_lc(0, ~0, 0): hi, 0xffffffff.
    CHECK(got[0] == 32u + 0xffffffffu + 10u + 0xffffffffu);
    // t = 1: 1 + 31 + 1; __fns(0xf0f0f0f0, 1, -1): bits 1 and 0 clear,
    // 0xffffffff; __vabsss2(0x9e3779b9): |0x9e37| = 0x61c9, 0x79b9;
    // __byte_perm(1, ~1, 1): bytes 1, 0, 0, 0 of x, 0x01010100;
    // __vsads4(1, 0xfffffff2): |1 + 14| + 1 + 1 + 1 = 18;
    // __funnelshift_lc(1, ~1, 1): 0xfffffffe:00000001 << 1, 0xfffffffc.
    CHECK(got[1] == 33u + 0xffffffffu + 0x61c979b9u + 0x01010100u + 18u + 0xfffffffcu);
}

TEST_CASE("__device__ variables are device memory to the checks and symbols to the runtime") {
    simt::take_findings();
    const int zero = 0;
    REQUIRE(cudaMemcpyToSymbol(d_total, &zero, sizeof zero) == cudaSuccess);
    CHECK(launch_device_variable(0, 0) == cudaSuccess);
    auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) ==
          "data race on global memory in kernel device_variable_race: block (0,0,0): the word at byte 0 of the 4-byte "
          "__device__ variable d_total declared at line 535, written by thread 0 at kernels.cu:539 and read by thread 1 "
          "at kernels.cu:539 between the same two barriers; launched at kernels.cu:550");
    // Just outside the table, where no other variable is: before it when
    // d_total follows it at once, else past its end.
    const bool total_follows = reinterpret_cast<char*>(&d_total) == reinterpret_cast<char*>(d_table + 8);
    CHECK(launch_device_variable(1, total_follows ? -1 : 8) == cudaSuccess);
    f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) == std::string("out-of-bounds access in kernel device_variable_past_end: block (0,0,0): "
                                            "thread 0 read 4 bytes at offset ") +
                                    (total_follows ? "-4" : "32") +
                                    " of the 32-byte __device__ variable d_table declared at line 536 (" +
                                    (total_follows ? "before its start" : "past its end") +
                                    ") at kernels.cu:543; launched at kernels.cu:551");
    REQUIRE(cudaMemcpyToSymbol(d_total, &zero, sizeof zero) == cudaSuccess);
    CHECK(launch_device_variable(2, 0) == cudaSuccess);
    CHECK(simt::take_findings().empty());
    int total = 0;
    REQUIRE(cudaMemcpyFromSymbol(&total, d_total, sizeof total) == cudaSuccess);
    CHECK(total == 128);
    std::size_t size = 0;
    CHECK(cudaGetSymbolSize(&size, d_total) == cudaSuccess);
    CHECK(size == sizeof(int));
    CHECK(simt::memory_in_use().allocations == 0);  // a variable is no allocation to leak
    int host = 0;
    CHECK(cudaMemcpyToSymbol(host, &zero, sizeof zero) == cudaErrorInvalidSymbol);
    CHECK(cudaGetLastError() == cudaErrorInvalidSymbol);
}

TEST_CASE("the leak check counts stream-ordered and managed memory, not pinned; cudaDeviceReset frees them all") {
    REQUIRE(simt::memory_in_use().allocations == 0);
    cudaStream_t s = nullptr;
    REQUIRE(cudaStreamCreate(&s) == cudaSuccess);
    void *async = nullptr, *managed = nullptr, *pinned = nullptr;
    REQUIRE(cudaMallocAsync(&async, 100, s) == cudaSuccess);
    REQUIRE(cudaMallocManaged(&managed, 200) == cudaSuccess);
    REQUIRE(cudaMallocHost(&pinned, 300) == cudaSuccess);
    CHECK(simt::memory_in_use().bytes == 300);
    CHECK(simt::memory_in_use().allocations == 2);
    std::size_t free_bytes = 0, total = 0;
    CHECK(cudaMemGetInfo(&free_bytes, &total) == cudaSuccess);
    CHECK(total == 85017493504ull);
    CHECK(free_bytes == total - (512u << 20) - 300);
    CHECK(cudaFreeAsync(async, s) == cudaSuccess);
    CHECK(simt::memory_in_use().bytes == 200);
    CHECK(cudaFree(pinned) == cudaErrorInvalidValue);  // pinned memory is cudaFreeHost's
    CHECK(cudaFreeHost(managed) == cudaErrorInvalidValue);
    CHECK(cudaGetLastError() == cudaErrorInvalidValue);
    // A kernel writes pinned memory in place, and one on a destroyed stream runs nothing.
    float* host_view = static_cast<float*>(pinned);
    std::fill(host_view, host_view + 64, 0.0f);
    simt::take_findings();
    CHECK(launch_on_stream(host_view, 64, s) == cudaSuccess);
    CHECK(simt::take_findings().empty());
    CHECK(host_view[63] == 2.0f);
    REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaErrorInvalidResourceHandle);
    host_view[0] = 0.0f;
    CHECK(launch_on_stream(host_view, 64, s) == cudaErrorInvalidResourceHandle);
    CHECK(host_view[0] == 0.0f);
    CHECK(cudaDeviceReset() == cudaSuccess);
    CHECK(simt::memory_in_use().allocations == 0);
    CHECK(cudaFreeHost(pinned) == cudaErrorInvalidValue);  // freed by the reset
    cudaGetLastError();
}

TEST_CASE("dynamic shared memory beyond 48 KiB once cudaFuncSetAttribute allows it") {
    DeviceArray<int> in(64), out(64);
    std::vector<int> values(64);
    std::iota(values.begin(), values.end(), 0);
    REQUIRE(cudaMemcpy(in.ptr, values.data(), 64 * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(launch_big_dynamic(in.ptr, out.ptr, 100000, false) == cudaErrorInvalidValue);
    CHECK(simt::take_refused_launch().find("100000 bytes of dynamic shared memory (at most 49152, 48 KiB, without "
                                           "cudaFuncSetAttribute)") != std::string::npos);
    CHECK(launch_big_dynamic(in.ptr, out.ptr, 100000, true) == cudaSuccess);
    CHECK(download(out.ptr, 64) == std::vector<int>(values.rbegin(), values.rend()));
    CHECK(launch_big_dynamic(in.ptr, out.ptr, 100004, true) == cudaErrorInvalidValue);
    cudaFuncAttributes a{};
    REQUIRE(cudaFuncGetAttributes(&a, reinterpret_cast<const void*>(&launch_big_dynamic)) == cudaSuccess);
    CHECK(a.maxDynamicSharedSizeBytes == 49152);  // any address is a kernel's here, with the defaults
}

TEST_CASE("math functions that store through a pointer are checked at the kernel's line") {
    DeviceArray<float> in(32), s(32), c(32);
    DeviceArray<int> e(16);
    REQUIRE(cudaMemset(in.ptr, 0, 32 * sizeof(float)) == cudaSuccess);
    simt::take_findings();
    REQUIRE(launch_math_stores(in.ptr, s.ptr, c.ptr, e.ptr) == cudaSuccess);
    const auto f = simt::take_findings();
    REQUIRE(f.size() == 2);
    CHECK(simt::format(f[0]) ==
          "data race on global memory in kernel math_stores: block (0,0,0): the word at byte 0 of a 64-byte device "
          "allocation, written by thread 0 at math_kernels.cu:13 and written by thread 1 at math_kernels.cu:13 between the "
          "same two barriers; launched at math_kernels.cu:17");
    CHECK(simt::format(f[1]) ==
          "out-of-bounds access in kernel math_stores: block (0,0,0): thread 31 wrote 4 bytes at offset 128 of a "
          "128-byte device allocation (past its end) at math_kernels.cu:12; launched at math_kernels.cu:17");
}

namespace {
std::vector<std::string> formatted_findings() {
    std::vector<std::string> out;
    for (const auto& f : simt::take_findings()) out.push_back(simt::format(f));
    return out;
}
}  // namespace

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

TEST_CASE("__activemask in a loop that picks lanes per iteration merges the iterations (a known difference)") {
    DeviceArray<unsigned> out(32);
    REQUIRE(launch_activemask_loop(out.ptr) == cudaSuccess);
    const auto got = download(out.ptr, 32);
    // A GPU gives 0x11111111 << (t % 4); every lane reaches the one call site here before any leaves it.
    CHECK(std::all_of(got.begin(), got.end(), [](unsigned m) { return m == 0xffffffffu; }));
}

TEST_CASE("cache-hinted accesses: global memory only, and data through __ldcg is still checked for races") {
    DeviceArray<unsigned> data(32), out(64);
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

// The H100's measures (simt/README.md): a flag raised with __stcg or __stwt
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

TEST_CASE("rewriter: cudaLaunchKernel's kernel loses its void* cast and names the launch") {
    const std::string src =
        "void f(void** a) {\n"
        "  cudaLaunchKernel((void*)scan, g, b, a, 0, 0);\n"
        "  cudaLaunchCooperativeKernel(reinterpret_cast<void *>(k<float, 4>), g, b, a);\n"
        "  cudaLaunchKernel(scan, dim3(2), dim3(32), a);\n"
        "}\n";
    const std::string out = simt::rewrite(src, "lab.cu");
    CHECK(count_lines(out) == count_lines(src) + 3);
    CHECK(out.find("cudaLaunchKernel(::simt::ApiLaunchSite{{\"scan\", __FILE__, __LINE__}}, scan, g, b, a, 0, 0);") !=
          std::string::npos);
    CHECK(out.find("cudaLaunchCooperativeKernel(::simt::ApiLaunchSite{{\"k<float,4>\", __FILE__, __LINE__}}, (k<float, 4>), g, b, a);") !=
          std::string::npos);
    CHECK(out.find("cudaLaunchKernel(::simt::ApiLaunchSite{{\"scan\", __FILE__, __LINE__}}, scan, dim3(2), dim3(32), a);") !=
          std::string::npos);
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
