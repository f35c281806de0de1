// The emulator's own suite, memory and the runtime: device memory, launch errors,
// out-of-bounds and misaligned accesses, events, vector types, intrinsics, the leak check.
#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <algorithm>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "kernels.hpp"
#include "test_helpers.hpp"

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
                                            " of a 256-byte device allocation (" + c.where + ") at memory_kernels.cu:" +
                                            (which == 0 ? "12" : "16") + (c.stops ? stopped : "") +
                                            "; launched at memory_kernels.cu:" + (which == 0 ? "25" : "26"));
        }

    // Through a pointer that holds garbage (an uninitialised one's), where nothing is mapped.
    for (unsigned which : {0u, 1u}) {
        simt::take_findings();
        REQUIRE(launch_at(reinterpret_cast<float*>(0x5a5a5a5a5a50), out.ptr, 0, which) == cudaSuccess);
        const auto f = simt::take_findings();
        REQUIRE(f.size() == 1);
        CHECK(simt::format(f[0]) == std::string("out-of-bounds access in kernel ") +
                                        (which == 0 ? "store_at: block (0,0,0): thread 5 wrote" : "load_at: block (0,0,0): thread 5 read") +
                                        " 4 bytes at address 0x5a5a5a5a5a50 at memory_kernels.cu:" + (which == 0 ? "12" : "16") +
                                        ", in no device allocation or shared array, where nothing is mapped (an "
                                        "uninitialised pointer? an index far out of range?)" +
                                        stopped + "; launched at memory_kernels.cu:" + (which == 0 ? "25" : "26"));
    }
    simt::take_findings();
    REQUIRE(launch_at(nullptr, out.ptr, 3, 0) == cudaSuccess);
    auto f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]).find("thread 5 wrote 4 bytes at address 0xc at memory_kernels.cu:12, in no device allocation") !=
          std::string::npos);
    CHECK(f[0].lines == std::vector<std::string>{"memory_kernels.cu:12"});
    CHECK(f[0].thread == 5);
    CHECK(f[0].allocation.empty());  // nothing is mapped there

    // An access the hooks do not see (a __builtin_bzero) faults in the guard pages:
    // the SIGSEGV backstop reports it as the hooks would, with its line.
    REQUIRE(launch_at(data.ptr, out.ptr, 64 + 1000000, 2) == cudaSuccess);
    f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) == "out-of-bounds access in kernel library_store: block (0,0,0): thread 5 wrote at offset "
                                "4000256 of a 256-byte device allocation (past its end) at memory_kernels.cu:20 (a fault)" +
                                    stopped + "; launched at memory_kernels.cu:27");
    CHECK(f[0].lines == std::vector<std::string>{"memory_kernels.cu:20"});
    CHECK(f[0].allocation == "a 256-byte device allocation");

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
                                        " of a 256-byte device allocation, not a multiple of 16, at memory_kernels.cu:35: its "
                                        "loads and stores are misaligned, which stops a kernel on a GPU (misaligned "
                                        "address); the launch stopped there; launched at memory_kernels.cu:40");
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

namespace {

constexpr unsigned kInts = 256;  // 1024 bytes

std::vector<int> to_host(const int* d) {
    std::vector<int> h(kInts);
    REQUIRE(cudaMemcpy(h.data(), d, kInts * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

void exclusive_scan(std::vector<int>& v) {
    int sum = 0;
    for (int& x : v) sum += std::exchange(x, sum);
}

}  // namespace

TEST_CASE("data through the host: copied to the host, scanned there, uploaded and copied by a kernel") {
    DeviceArray<int> in(kInts), out(kInts), tmp(kInts);
    std::vector<int> values(kInts);
    for (unsigned i = 0; i < kInts; ++i) values[i] = static_cast<int>(i % 7) - 3;
    REQUIRE(cudaMemcpy(in.ptr, values.data(), kInts * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    simt::count_host_traffic();
    CHECK(simt::bytes_to_host() == 0);
    std::vector<int> h = to_host(in.ptr);
    CHECK(simt::bytes_to_host() == 1024);
    exclusive_scan(h);
    REQUIRE(cudaMemcpy(tmp.ptr, h.data(), kInts * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(simt::host_data_in(tmp.ptr) == 1024);
    CHECK(simt::host_data_in(out.ptr) == 0);
    REQUIRE(launch_copy_ints(tmp.ptr, out.ptr, kInts, false) == cudaSuccess);
    CHECK(simt::host_data_in(out.ptr) == 1024);
    CHECK(simt::written_by_kernel(out.ptr));  // which is all that was asked before
    CHECK(simt::host_data_in(in.ptr) == 0);   // only read

    // A second hop keeps it; a device-to-device copy carries it; the count starts again.
    DeviceArray<int> again(kInts), copied(kInts);
    REQUIRE(launch_copy_ints(out.ptr, again.ptr, kInts, false) == cudaSuccess);
    CHECK(simt::host_data_in(again.ptr) == 1024);
    REQUIRE(cudaMemcpy(copied.ptr, again.ptr, 64 * sizeof(int), cudaMemcpyDeviceToDevice) == cudaSuccess);
    CHECK(simt::host_data_in(copied.ptr) == 256);
    simt::count_host_traffic();
    CHECK(simt::bytes_to_host() == 0);
    CHECK(simt::host_data_in(out.ptr) == 0);
    CHECK(simt::take_findings().empty());
}

TEST_CASE("data through the host: what a launch reads of it, and only after something went to the host") {
    DeviceArray<int> in(kInts), out(kInts), sums(kInts);
    const std::vector<int> zeros(kInts, 0);
    REQUIRE(cudaMemcpy(in.ptr, zeros.data(), kInts * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    simt::count_host_traffic();
    // An upload before anything went to the host is the host's own data.
    REQUIRE(cudaMemcpy(sums.ptr, zeros.data(), kInts * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(simt::host_data_in(sums.ptr) == 0);
    // Block sums: 4 values there and back; a launch that reads them into every output carries 16 bytes.
    std::vector<int> four(4);
    REQUIRE(cudaMemcpy(four.data(), in.ptr, sizeof four[0] * 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    REQUIRE(cudaMemcpy(sums.ptr, four.data(), sizeof four[0] * 4, cudaMemcpyHostToDevice) == cudaSuccess);
    CHECK(simt::host_data_in(sums.ptr) == 16);
    REQUIRE(launch_copy_ints(sums.ptr, out.ptr, kInts, false) == cudaSuccess);  // reads 256 words, 16 bytes of them host data
    CHECK(simt::host_data_in(out.ptr) == 16);
    // A kernel's output copied to the host to be printed: nothing comes back.
    REQUIRE(launch_copy_ints(in.ptr, out.ptr, kInts, false) == cudaSuccess);
    (void)to_host(out.ptr);
    CHECK(simt::bytes_to_host() == 16 + 1024);
    CHECK(simt::host_data_in(out.ptr) == 16);
    // An atomic read-modify-write reads.
    DeviceArray<int> atomic_out(kInts);
    REQUIRE(launch_copy_ints(sums.ptr, atomic_out.ptr, kInts, true) == cudaSuccess);
    CHECK(simt::host_data_in(atomic_out.ptr) == 16);
    CHECK(simt::take_findings().empty());
}

TEST_CASE("data through the host: in pieces, asynchronously, with cudaMemcpyDefault and through a symbol") {
    DeviceArray<int> in(kInts), out(kInts), tmp(kInts);
    simt::count_host_traffic();
    std::vector<int> h(kInts);
    for (unsigned i = 0; i < kInts; i += 16)
        REQUIRE(cudaMemcpyAsync(h.data() + i, in.ptr + i, 16 * sizeof(int), cudaMemcpyDefault, 0) == cudaSuccess);
    CHECK(simt::bytes_to_host() == 1024);
    for (unsigned i = 0; i < kInts; ++i)
        REQUIRE(cudaMemcpy(tmp.ptr + i, h.data() + i, sizeof(int), cudaMemcpyDefault) == cudaSuccess);
    CHECK(simt::host_data_in(tmp.ptr) == 1024);
    REQUIRE(launch_copy_ints(tmp.ptr, out.ptr, kInts, false) == cudaSuccess);
    CHECK(simt::host_data_in(out.ptr) == 1024);
    DeviceArray<int> few(8);
    REQUIRE(upload_and_copy_table(h.data(), few.ptr) == cudaSuccess);  // cudaMemcpyToSymbolAsync
    CHECK(simt::host_data_in(few.ptr) == 32);
    // cudaMemcpyDeviceToHost into pinned memory counts as much as into pageable memory.
    int* pinned = nullptr;
    REQUIRE(cudaMallocHost(&pinned, kInts * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemcpy(pinned, in.ptr, kInts * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK(simt::bytes_to_host() == 2048);
    CHECK(cudaFreeHost(pinned) == cudaSuccess);
    CHECK(simt::take_findings().empty());
}

TEST_CASE("data through the host: managed and pinned memory, the host's changes to them and the device's") {
    DeviceArray<int> in(kInts), out(kInts);
    const std::vector<int> ones(kInts, 1);
    REQUIRE(cudaMemcpy(in.ptr, ones.data(), kInts * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess);
    int* managed = nullptr;
    REQUIRE(cudaMallocManaged(&managed, kInts * sizeof(int)) == cudaSuccess);
    simt::count_host_traffic();
    // A kernel's stores into managed memory go to the host; read back unchanged, they are the device's.
    REQUIRE(launch_copy_ints(in.ptr, managed, kInts, false) == cudaSuccess);
    CHECK(simt::bytes_to_host() == 1024);
    REQUIRE(launch_copy_ints(managed, out.ptr, kInts, false) == cudaSuccess);
    CHECK(simt::host_data_in(out.ptr) == 0);
    // Scanned in place by the host (the inclusive scan of ones), they are the host's: each word it changed.
    std::partial_sum(managed, managed + kInts, managed);
    REQUIRE(launch_copy_ints(managed, out.ptr, kInts, false) == cudaSuccess);
    CHECK(simt::host_data_in(out.ptr) == 1020);  // managed[0] is 1 still
    CHECK(cudaFree(managed) == cudaSuccess);

    // Pinned memory: copied into from the device, changed by the host, copied out with cudaMemcpyDefault.
    simt::count_host_traffic();
    int* pinned = nullptr;
    DeviceArray<int> tmp(kInts);
    REQUIRE(cudaMallocHost(&pinned, kInts * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemcpy(pinned, in.ptr, kInts * sizeof(int), cudaMemcpyDefault) == cudaSuccess);
    REQUIRE(cudaMemcpy(tmp.ptr, pinned, kInts * sizeof(int), cudaMemcpyDefault) == cudaSuccess);
    CHECK(simt::host_data_in(tmp.ptr) == 0);  // as the device left it
    pinned[3] = 7;
    pinned[9] = 7;
    REQUIRE(cudaMemcpy(tmp.ptr, pinned, kInts * sizeof(int), cudaMemcpyDefault) == cudaSuccess);
    CHECK(simt::host_data_in(tmp.ptr) == 8);  // the two words the host changed
    CHECK(cudaFreeHost(pinned) == cudaSuccess);
    CHECK(simt::take_findings().empty());
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
        for (const auto& cell : interval) CHECK(cell.divergent_blocks == 0);
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
          "__device__ variable d_total declared at line 72, written by thread 0 at memory_kernels.cu:76 and read by thread 1 "
          "at memory_kernels.cu:76 between the same two barriers; launched at memory_kernels.cu:87");
    // Just outside the table, where no other variable is: before it when
    // d_total follows it at once, else past its end.
    const bool total_follows = reinterpret_cast<char*>(&d_total) == reinterpret_cast<char*>(d_table + 8);
    CHECK(launch_device_variable(1, total_follows ? -1 : 8) == cudaSuccess);
    f = simt::take_findings();
    REQUIRE(f.size() == 1);
    CHECK(simt::format(f[0]) == std::string("out-of-bounds access in kernel device_variable_past_end: block (0,0,0): "
                                            "thread 0 read 4 bytes at offset ") +
                                    (total_follows ? "-4" : "32") +
                                    " of the 32-byte __device__ variable d_table declared at line 73 (" +
                                    (total_follows ? "before its start" : "past its end") +
                                    ") at memory_kernels.cu:80; launched at memory_kernels.cu:88");
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
