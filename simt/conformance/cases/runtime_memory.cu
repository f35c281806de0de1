// Memory beyond cudaMalloc: stream-ordered allocation and copies, pinned and
// registered host memory a kernel reads and writes in place (the H100 has
// unified addressing), managed memory both sides touch, `__device__` and
// `__constant__` variables through the symbol calls, and the codes CUDA
// returns for misuse.
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "conformance.hpp"

__constant__ float c_scale[4];
__device__ int d_table[64];
__device__ unsigned d_count = 5;

namespace {

constexpr unsigned kN = 256;

int code(cudaError_t e) { return static_cast<int>(e); }

// A string's bytes, as the suite records them.
std::vector<std::uint8_t> text(const char* s) {
    std::vector<std::uint8_t> out;
    for (; *s; ++s) out.push_back(static_cast<std::uint8_t>(*s));
    return out;
}

std::vector<int> iota_ints(unsigned n, int from) {
    std::vector<int> v(n);
    for (unsigned i = 0; i < n; ++i) v[i] = from + static_cast<int>(i);
    return v;
}

__global__ void k_affine(int* a, int times, int plus) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    a[i] = a[i] * times + plus;
}

__global__ void k_copy_plus(const int* from, int* to, int plus) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    to[i] = from[i] + plus;
}

// Reads both symbols, counts its threads in the third.
__global__ void k_symbols(float* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = static_cast<float>(d_table[i % 64]) * c_scale[i % 4];
    atomicAdd(&d_count, 1u);
}

}  // namespace

CONFORMANCE_CASE(stream_ordered_memory, "cudaMallocAsync cudaFreeAsync cudaMemcpyAsync cudaMemsetAsync "
                                        "cudaDeviceGetDefaultMemPool cudaMallocFromPoolAsync") {
    cudaStream_t s = nullptr;
    r.require(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    const std::vector<int> in = iota_ints(kN, -100);
    std::vector<int> out(kN, 0), zeros(kN, 1);
    int* d = nullptr;
    r.require(cudaMallocAsync(&d, kN * sizeof(int), s), "cudaMallocAsync");
    r.require(cudaMemsetAsync(d, 0, kN * sizeof(int), s), "cudaMemsetAsync");
    r.require(cudaMemcpyAsync(zeros.data(), d, kN * sizeof(int), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    r.require(cudaMemcpyAsync(d, in.data(), kN * sizeof(int), cudaMemcpyHostToDevice, s), "cudaMemcpyAsync");
    k_affine<<<kN / 64, 64, 0, s>>>(d, 3, 1);
    r.require(cudaMemcpyAsync(out.data(), d, kN * sizeof(int), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    r.require(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    r.exact("cudaMemsetAsync to 0, read back", zeros);
    r.exact("copied in, 3x + 1 on the stream, copied out", out);

    // From the device's default pool, freed on the legacy stream.
    cudaMemPool_t pool = nullptr;
    r.require(cudaDeviceGetDefaultMemPool(&pool, 0), "cudaDeviceGetDefaultMemPool");
    int* e = nullptr;
    r.require(cudaMallocFromPoolAsync(&e, kN * sizeof(int), pool, s), "cudaMallocFromPoolAsync");
    k_copy_plus<<<kN / 64, 64, 0, s>>>(d, e, 7);
    r.require(cudaMemcpyAsync(out.data(), e, kN * sizeof(int), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    r.require(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    r.exact("a pool allocation written by a kernel", out);
    r.require(cudaFreeAsync(e, 0), "cudaFreeAsync");
    r.require(cudaFreeAsync(d, s), "cudaFreeAsync");
    r.require(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    r.require(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    std::vector<int> misuse;
    int* f = nullptr;
    r.require(cudaMallocAsync(&f, kN * sizeof(int), s), "cudaMallocAsync");
    misuse.push_back(code(cudaMallocAsync(static_cast<void**>(nullptr), 64, s)));
    misuse.push_back(code(cudaMemcpyAsync(f, in.data(), kN * sizeof(int) + 4, cudaMemcpyHostToDevice, s)));  // past the end
    misuse.push_back(code(cudaMemcpyAsync(f, in.data(), kN * sizeof(int), static_cast<cudaMemcpyKind>(7), s)));
    misuse.push_back(code(cudaMemsetAsync(out.data(), 0, 16, s)));  // host memory
    misuse.push_back(code(cudaDeviceGetDefaultMemPool(&pool, 1)));
    r.exact("codes: cudaMallocAsync(null), cudaMemcpyAsync(past the end), cudaMemcpyAsync(kind 7), "
            "cudaMemsetAsync(pageable host memory), cudaDeviceGetDefaultMemPool(device 1)",
            misuse);
    cudaGetLastError();
    r.require(cudaFreeAsync(f, s), "cudaFreeAsync");
    r.require(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    r.require(cudaStreamDestroy(s), "cudaStreamDestroy");
}

CONFORMANCE_CASE(frees, "cudaFree cudaFreeHost cudaMallocHost cudaGetErrorName cudaGetErrorString") {
    int* d = nullptr;
    int* h = nullptr;
    int host[4] = {};
    r.require(cudaMalloc(&d, 64), "cudaMalloc");
    r.require(cudaMallocHost(&h, 64), "cudaMallocHost");
    std::vector<int> codes;
    codes.push_back(code(cudaFree(nullptr)));
    codes.push_back(code(cudaFree(d)));
    codes.push_back(code(cudaFree(d)));     // freed twice
    codes.push_back(code(cudaFree(host)));  // never allocated
    codes.push_back(code(cudaFreeHost(nullptr)));
    codes.push_back(code(cudaFreeHost(h)));
    r.exact("codes: cudaFree(null), cudaFree, cudaFree again, cudaFree(a host array), cudaFreeHost(null), cudaFreeHost",
            codes);
    for (int c : std::set<int>(codes.begin(), codes.end())) {
        r.exact(std::string("cudaGetErrorName(") + std::to_string(c) + ")", text(cudaGetErrorName(static_cast<cudaError_t>(c))));
        r.exact(std::string("cudaGetErrorString(") + std::to_string(c) + ")", text(cudaGetErrorString(static_cast<cudaError_t>(c))));
    }
    cudaGetLastError();
}

CONFORMANCE_CASE(pinned_memory, "cudaMallocHost cudaHostAlloc cudaFreeHost cudaHostAllocMapped cudaHostRegister "
                                "cudaHostUnregister cudaHostGetDevicePointer cudaPointerGetAttributes") {
    int* h = nullptr;
    int* mapped = nullptr;
    r.require(cudaMallocHost(&h, kN * sizeof(int)), "cudaMallocHost");
    r.require(cudaHostAlloc(&mapped, kN * sizeof(int), cudaHostAllocMapped), "cudaHostAlloc");
    for (unsigned i = 0; i < kN; ++i) {
        h[i] = static_cast<int>(i * i);
        mapped[i] = 0;
    }
    // A kernel reads one in place and writes the other.
    conformance::Buffer<int> d(kN);
    k_copy_plus<<<kN / 64, 64>>>(h, d, 1);
    int* device_view = nullptr;
    r.require(cudaHostGetDevicePointer(&device_view, mapped, 0), "cudaHostGetDevicePointer");
    k_copy_plus<<<kN / 64, 64>>>(d, device_view, 10);
    r.require(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    r.exact("a kernel's read of pinned memory", d.get());
    r.exact("a kernel's writes into mapped pinned memory, read by the host", std::vector<int>(mapped, mapped + kN));
    r.exact("cudaHostGetDevicePointer gives the host address", static_cast<std::uint8_t>(device_view == mapped));

    // Pageable memory registered in place, then read by a kernel.
    std::vector<int> pageable = iota_ints(kN, 1000);
    r.require(cudaHostRegister(pageable.data(), kN * sizeof(int), cudaHostRegisterDefault), "cudaHostRegister");
    k_copy_plus<<<kN / 64, 64>>>(pageable.data(), d, -1000);
    r.require(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    r.exact("a kernel's read of registered memory", d.get());
    std::vector<int> codes;
    codes.push_back(code(cudaHostRegister(pageable.data(), kN * sizeof(int), cudaHostRegisterDefault)));  // again
    codes.push_back(code(cudaHostUnregister(pageable.data())));
    codes.push_back(code(cudaHostUnregister(pageable.data())));  // no longer registered
    codes.push_back(code(cudaMallocHost(static_cast<void**>(nullptr), 64)));
    r.exact("codes: cudaHostRegister again, cudaHostUnregister, cudaHostUnregister again, cudaMallocHost(null)", codes);
    cudaGetLastError();

    // What each kind of pointer is.
    int* managed = nullptr;
    r.require(cudaMallocManaged(&managed, 64), "cudaMallocManaged");
    int stack[4] = {};
    std::vector<int> types, devices;
    for (const void* p : {static_cast<const void*>(h), static_cast<const void*>(mapped + 3),
                          static_cast<const void*>(static_cast<int*>(d)), static_cast<const void*>(managed),
                          static_cast<const void*>(stack)}) {
        cudaPointerAttributes a{};
        r.require(cudaPointerGetAttributes(&a, p), "cudaPointerGetAttributes");
        types.push_back(static_cast<int>(a.type));
        devices.push_back(a.type == cudaMemoryTypeUnregistered ? -99 : a.device);
    }
    r.exact("cudaPointerGetAttributes type: pinned, inside mapped pinned, device, managed, a host array", types);
    r.exact("its device (not for the host array)", devices);
    r.require(cudaFree(managed), "cudaFree");
    r.require(cudaFreeHost(h), "cudaFreeHost");
    r.require(cudaFreeHost(mapped), "cudaFreeHost");
}

CONFORMANCE_CASE(managed_memory, "cudaMallocManaged cudaMemAttachGlobal cudaMemAttachHost cudaMemPrefetchAsync") {
    int* m = nullptr;
    r.require(cudaMallocManaged(&m, kN * sizeof(int), cudaMemAttachGlobal), "cudaMallocManaged");
    for (unsigned i = 0; i < kN; ++i) m[i] = static_cast<int>(i) - 7;  // the host writes it
    cudaMemLocation device{cudaMemLocationTypeDevice, 0};
    r.require(cudaMemPrefetchAsync(m, kN * sizeof(int), device, 0, 0), "cudaMemPrefetchAsync");
    k_affine<<<kN / 64, 64>>>(m, 5, 2);  // the device updates it
    r.require(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    r.exact("written by the host, updated by a kernel, read by the host", std::vector<int>(m, m + kN));
    r.require(cudaFree(m), "cudaFree");

    int* host_attached = nullptr;
    r.require(cudaMallocManaged(&host_attached, 64, cudaMemAttachHost), "cudaMallocManaged");
    r.require(cudaFree(host_attached), "cudaFree");
    std::vector<int> codes;
    int* bad = nullptr;
    codes.push_back(code(cudaMallocManaged(&bad, 0)));
    codes.push_back(code(cudaMallocManaged(&bad, 64, cudaMemAttachSingle)));
    r.exact("codes: cudaMallocManaged(0 bytes), cudaMallocManaged(cudaMemAttachSingle)", codes);
    cudaGetLastError();
}

CONFORMANCE_CASE(symbols, "__device__ __constant__ cudaMemcpyToSymbol cudaMemcpyFromSymbol cudaMemcpyToSymbolAsync "
                          "cudaMemcpyFromSymbolAsync cudaGetSymbolAddress cudaGetSymbolSize") {
    unsigned count = 0;
    r.require(cudaMemcpyFromSymbol(&count, d_count, sizeof count), "cudaMemcpyFromSymbol");
    r.exact("a __device__ variable's initial value", count);

    const float scale[4] = {0.5f, -2.0f, 3.0f, 0.25f};
    const std::vector<int> table = iota_ints(64, -20), patch = {900, 901, 902, 903};
    const unsigned zero = 0;
    cudaStream_t s = nullptr;
    r.require(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
    r.require(cudaMemcpyToSymbol(c_scale, scale, sizeof scale), "cudaMemcpyToSymbol");
    r.require(cudaMemcpyToSymbol(d_table, table.data(), 64 * sizeof(int)), "cudaMemcpyToSymbol");
    r.require(cudaMemcpyToSymbol(d_table, patch.data(), 4 * sizeof(int), 32 * sizeof(int)), "cudaMemcpyToSymbol");
    r.require(cudaMemcpyToSymbolAsync(d_count, &zero, sizeof zero, 0, cudaMemcpyHostToDevice, s), "cudaMemcpyToSymbolAsync");
    r.require(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    conformance::Buffer<float> out(kN);
    k_symbols<<<kN / 64, 64>>>(out);
    r.require(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    r.exact("a kernel's reads of a __device__ table and a __constant__ array", out.get());

    std::vector<int> back(8, 0);
    r.require(cudaMemcpyFromSymbolAsync(back.data(), d_table, 8 * sizeof(int), 30 * sizeof(int), cudaMemcpyDeviceToHost, s),
              "cudaMemcpyFromSymbolAsync");
    r.require(cudaMemcpyFromSymbol(&count, d_count, sizeof count, 0, cudaMemcpyDeviceToHost), "cudaMemcpyFromSymbol");
    r.require(cudaStreamSynchronize(s), "cudaStreamSynchronize");
    r.exact("d_table[30..37] read back", back);
    r.exact("the kernel's atomicAdd count", count);

    // The symbol's address is a device pointer like any other.
    void* address = nullptr;
    std::size_t table_size = 0, scale_size = 0;
    r.require(cudaGetSymbolAddress(&address, d_table), "cudaGetSymbolAddress");
    r.require(cudaGetSymbolSize(&table_size, d_table), "cudaGetSymbolSize");
    r.require(cudaGetSymbolSize(&scale_size, c_scale), "cudaGetSymbolSize");
    r.exact("cudaGetSymbolSize: d_table, c_scale", std::vector<unsigned long long>{table_size, scale_size});
    conformance::Buffer<int> plus(64);
    k_copy_plus<<<1, 64>>>(static_cast<const int*>(address), plus, 1);
    std::vector<int> direct(64, 0);
    r.require(cudaMemcpy(direct.data(), address, 64 * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy");
    r.exact("through cudaGetSymbolAddress: a kernel's read", plus.get());
    r.exact("through cudaGetSymbolAddress: cudaMemcpy", direct);
    // Device to device, into the symbol and out of it.
    r.require(cudaMemcpyToSymbol(d_table, static_cast<int*>(plus), 64 * sizeof(int), 0, cudaMemcpyDeviceToDevice),
              "cudaMemcpyToSymbol");
    r.require(cudaMemcpyFromSymbol(static_cast<int*>(plus), d_table, 16 * sizeof(int), 16 * sizeof(int),
                                   cudaMemcpyDeviceToDevice),
              "cudaMemcpyFromSymbol");
    r.exact("device to device through the symbol", plus.get());

    int host_only = 0;
    std::vector<int> codes;
    codes.push_back(code(cudaMemcpyToSymbol(d_table, table.data(), 65 * sizeof(int))));            // past its end
    codes.push_back(code(cudaMemcpyToSymbol(d_table, table.data(), 8, 63 * sizeof(int))));         // offset + count past it
    codes.push_back(code(cudaMemcpyToSymbol(d_table, table.data(), 8, 0, cudaMemcpyDeviceToHost)));  // wrong way
    codes.push_back(code(cudaMemcpyFromSymbol(back.data(), d_table, 8, 0, cudaMemcpyHostToDevice)));
    codes.push_back(code(cudaMemcpyToSymbol(host_only, table.data(), sizeof host_only)));  // not a symbol
    codes.push_back(code(cudaGetSymbolAddress(&address, host_only)));
    r.exact("codes: ToSymbol past the end, offset past the end, kind DeviceToHost; FromSymbol kind HostToDevice; "
            "a host variable to ToSymbol and GetSymbolAddress",
            codes);
    cudaGetLastError();
    r.require(cudaStreamDestroy(s), "cudaStreamDestroy");
}
