// Lab 04: a scan of any length. Read README.md first.
//
// One block scans one 2048-element section. For longer inputs: (1) scan every
// section and record its total, (2) scan the totals, (3) add the scanned
// total of all earlier sections to every element of each section. Step (2)
// is itself a scan that may need the whole hierarchy again.
#include <cuda_runtime.h>

#include "scan.hpp"

// The handed-in file may not add includes (no <cstdio>), so the check cannot
// print; it stops the program at the first failing call, where a debugger or
// compute-sanitizer shows which one it was.
#define CUDA_CHECK(call)                         \
    do {                                         \
        const cudaError_t err_ = (call);         \
        if (err_ != cudaSuccess) abort();        \
    } while (0)

namespace {

// Brent-Kung reduction tree over Size elements with Size / 2 threads.
template <unsigned Size>
__device__ void upsweep(float* s, unsigned tid) {
    static_assert((Size & (Size - 1)) == 0, "section size must be a power of two");
    for (unsigned stride = 1; stride < Size; stride *= 2) {
        __syncthreads();
        const auto node = (tid + 1) * 2 * stride - 1;
        if (node < Size) s[node] += s[node - stride];
    }
}

// Brent-Kung distribution tree: turns the reduction tree into the inclusive
// scan by pushing every partial sum `stride` places to the right.
template <unsigned Size>
__device__ void downsweep_inclusive(float* s, unsigned tid) {
    for (unsigned stride = Size / 4; stride >= 1; stride /= 2) {
        __syncthreads();
        const auto node = (tid + 1) * 2 * stride - 1;
        if (node + stride < Size) s[node + stride] += s[node];
    }
}

constexpr std::size_t kSection = SECTION_SIZE;
constexpr std::size_t kPerThread = SECTION_SIZE / BLOCK_SIZE;

constexpr std::size_t ceil_div(std::size_t a, std::size_t b) { return a / b + (a % b != 0); }

}  // namespace

// Kernel 1: scan each section; with block_sums, also record each section's
// total at block_sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;  // < n
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    upsweep<SECTION_SIZE>(section, t);
    downsweep_inclusive<SECTION_SIZE>(section, t);

    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];

    if (block_sums && t == 0) block_sums[blockIdx.x] = section[SECTION_SIZE - 1];
}

// Kernel 3: add the scanned totals back.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    const auto section_begin = (std::size_t{blockIdx.x} + 1) * kSection;
    const auto carry = scanned_sums[blockIdx.x];
    for (std::size_t j = 0; j < kPerThread; ++j) {
        const auto idx = section_begin + j * BLOCK_SIZE + threadIdx.x;
        if (idx < n) out[idx] += carry;
    }
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);

    if (sections == 1) {
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        CUDA_CHECK(cudaGetLastError());
        return;
    }

    float* d_block_sums = nullptr;
    float* d_scanned_sums = nullptr;
    const std::size_t sums_bytes = sections * sizeof(float);
    CUDA_CHECK(cudaMalloc(&d_block_sums, sums_bytes));
    CUDA_CHECK(cudaMalloc(&d_scanned_sums, sums_bytes));

    const auto grid = static_cast<unsigned>(sections);
    scan_sections_kernel<<<grid, BLOCK_SIZE>>>(d_in, d_out, n, d_block_sums);
    CUDA_CHECK(cudaGetLastError());

    hierarchical_scan(d_block_sums, d_scanned_sums, sections);

    const auto add_grid = static_cast<unsigned>(ceil_div(n, kSection) - 1);
    add_block_sums_kernel<<<add_grid, BLOCK_SIZE>>>(d_out, n, d_scanned_sums);
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaFree(d_scanned_sums));
    CUDA_CHECK(cudaFree(d_block_sums));
}
