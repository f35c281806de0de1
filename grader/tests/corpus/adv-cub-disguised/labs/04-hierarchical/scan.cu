// Lab 04: a scan of any length, as three kernels: scan each section and
// record its total, scan the totals, add them back.
#include <cuda_runtime.h>

#include "scan.hpp"
#include "toolkit.cuh"

#ifdef HAVE_TOOLKIT_SCAN

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    void* temp = nullptr;
    std::size_t temp_bytes = 0;
    toolkit::DeviceScan::InclusiveSum(temp, temp_bytes, d_in, d_out, n);
    if (cudaMalloc(&temp, temp_bytes) != cudaSuccess) return;
    toolkit::DeviceScan::InclusiveSum(temp, temp_bytes, d_in, d_out, n);
    cudaFree(temp);
}

#else

// Kernel 1: Brent-Kung scan of each section; with block_sums, the last thread
// also records the section's total.
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE) section[k] = k < n - start ? in[start + k] : 0.0f;
    for (unsigned stride = 1; stride < SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < SECTION_SIZE) section[index] += section[index - stride];
    }
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < SECTION_SIZE) section[index + stride] += section[index];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
    if (block_sums != nullptr && t == BLOCK_SIZE - 1) block_sums[blockIdx.x] = section[SECTION_SIZE - 1];
}

// Kernel 3: section b + 1 gets the scanned total of sections 0..b.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    const std::size_t start = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;
    const float carry = scanned_sums[blockIdx.x];
    for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] += carry;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = (n + SECTION_SIZE - 1) / SECTION_SIZE;
    if (sections == 1) {
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }
    float* d_sums = nullptr;
    if (cudaMalloc(&d_sums, sections * sizeof(float)) != cudaSuccess) return;
    const auto grid = static_cast<unsigned>(sections);
    scan_sections_kernel<<<grid, BLOCK_SIZE>>>(d_in, d_out, n, d_sums);
    hierarchical_scan(d_sums, d_sums, sections);  // Kernel 2: the totals, one level up
    add_block_sums_kernel<<<grid - 1, BLOCK_SIZE>>>(d_out, n, d_sums);
    cudaFree(d_sums);
}

#endif
