// Lab 04: a scan of any length.
//
// kernel 1 = my Brent-Kung from lab 02 + the section total,
// kernel 2 = kernel 1 again on the totals (one block if they fit, else the
//            whole thing recursively),
// kernel 3 = add the scanned totals back.
#include <cuda_runtime.h>

#include "scan.hpp"

// Kernel 1
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float XY[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        XY[k] = k < n - start ? in[start + k] : 0.0f;

    for (unsigned stride = 1; stride <= BLOCK_SIZE; stride *= 2) {
        __syncthreads();
        unsigned index = (t + 1) * stride * 2 - 1;
        if (index < SECTION_SIZE) XY[index] += XY[index - stride];
    }
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned index = (t + 1) * stride * 2 - 1;
        if (index + stride < SECTION_SIZE) XY[index + stride] += XY[index];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = XY[k];

    // section total (zeros past n don't change it)
    if (block_sums && t == BLOCK_SIZE - 1) block_sums[blockIdx.x] = XY[SECTION_SIZE - 1];
}

// Kernel 3: block b adds the total of sections 0..b to section b + 1.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    std::size_t i = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE + threadIdx.x;
    float s = scanned_sums[blockIdx.x];
    if (i < n) out[i] += s;
    if (i + BLOCK_SIZE < n) out[i + BLOCK_SIZE] += s;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);
    if (sections == 1) {
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }

    float* d_sums;
    cudaMalloc(&d_sums, sections * sizeof(float));
    scan_sections_kernel<<<(unsigned)sections, BLOCK_SIZE>>>(d_in, d_out, n, d_sums);

    if (sections <= SECTION_SIZE) {
        // all the totals fit in one section: one block scans them
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_sums, d_sums, sections, nullptr);
        add_block_sums_kernel<<<(unsigned)(sections - 1), BLOCK_SIZE>>>(d_out, n, d_sums);
        cudaFree(d_sums);
        return;
    }

    // more than 2048 sections (n > 4M): scan the totals with the whole hierarchy
    hierarchical_scan(d_sums, d_sums, sections);
    add_block_sums_kernel<<<(unsigned)(sections - 1), BLOCK_SIZE>>>(d_out, n, d_sums);
}
