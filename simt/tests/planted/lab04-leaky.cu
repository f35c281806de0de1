// Planted error (labs/meson.build, planted-leak*): lab 04's reference with
// its cudaFree(d_sums) removed, a leak the suite must report.
// Lab 04 reference: inclusive scan of any length as a hierarchy of three
// kernels (Hwu, Kirk & El Hajj, PMPP, sec. 9.5 and exercise 9.5; Sexton's
// lecture 04 for the third level): scan each section and record its total,
// scan the totals (recursively, as many levels as n needs), add them back.
// The section scan is lab 02's reference, padded against bank conflicts.
#include <cuda_runtime.h>

#include "scan.hpp"

// One padding word after every 32 (Harris 2007): the trees' indices, spaced by
// powers of two, then fall into different banks of the 32.
__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

// Kernel 1: Brent-Kung scan of each section; with block_sums, the last thread
// also records the section's total at block_sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE + SECTION_SIZE / 32];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;  // < n
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        section[padded(k)] = k < n - start ? in[start + k] : 0.0f;

    for (unsigned stride = 1; stride < SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < SECTION_SIZE) section[padded(index)] += section[padded(index - stride)];
    }
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < SECTION_SIZE) section[padded(index + stride)] += section[padded(index)];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[padded(k)];
    // Padding past n holds zeros, so the last element is the section's total.
    if (block_sums != nullptr && t == BLOCK_SIZE - 1) block_sums[blockIdx.x] = section[padded(SECTION_SIZE - 1)];
}

// Kernel 3: block b adds the scanned total of sections 0..b to section b + 1.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    const std::size_t start = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;  // < n
    const float carry = scanned_sums[blockIdx.x];
    for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] += carry;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);
    if (sections == 1) {
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }
    float* d_sums = nullptr;
    if (cudaMalloc(&d_sums, sections * sizeof(float)) != cudaSuccess) return;  // error stays for the caller
    const auto grid = static_cast<unsigned>(sections);
    scan_sections_kernel<<<grid, BLOCK_SIZE>>>(d_in, d_out, n, d_sums);
    // Kernel 2: the totals are scanned in place by the same hierarchy, one level
    // up; each block reads its whole section before writing it back.
    hierarchical_scan(d_sums, d_sums, sections);
    add_block_sums_kernel<<<grid - 1, BLOCK_SIZE>>>(d_out, n, d_sums);
    // planted: cudaFree(d_sums) removed
}
