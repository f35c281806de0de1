// Lab 04: the three-kernel hierarchy with every index and count in int, as
// the textbook's kernels write them. Right for every n below 2^31; above it
// n narrows to a negative int and section offsets wrap.
#include <cuda_runtime.h>

#include "scan.hpp"

__global__ void scan_sections_kernel(const float* in, float* out, int n, float* block_sums) {
    __shared__ float section[SECTION_SIZE];
    const int t = threadIdx.x;
    const int start = blockIdx.x * SECTION_SIZE;
    for (int k = t; k < (int)SECTION_SIZE; k += BLOCK_SIZE)
        section[k] = start + k < n ? in[start + k] : 0.0f;
    for (int stride = 1; stride < (int)SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const int index = (t + 1) * 2 * stride - 1;
        if (index < (int)SECTION_SIZE) section[index] += section[index - stride];
    }
    for (int stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const int index = (t + 1) * 2 * stride - 1;
        if (index + stride < (int)SECTION_SIZE) section[index + stride] += section[index];
    }
    __syncthreads();
    for (int k = t; k < (int)SECTION_SIZE; k += BLOCK_SIZE)
        if (start + k < n) out[start + k] = section[k];
    if (block_sums != nullptr && t == (int)BLOCK_SIZE - 1) block_sums[blockIdx.x] = section[SECTION_SIZE - 1];
}

__global__ void add_block_sums_kernel(float* out, int n, const float* scanned_sums) {
    const int i = (blockIdx.x + 1) * SECTION_SIZE + threadIdx.x;
    const float carry = scanned_sums[blockIdx.x];
    if (i < n) out[i] += carry;
    if (i + (int)BLOCK_SIZE < n) out[i + BLOCK_SIZE] += carry;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const int sections = (n + SECTION_SIZE - 1) / SECTION_SIZE;
    if (sections == 1) {
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }
    float* d_sums = nullptr;
    if (cudaMalloc(&d_sums, sections * sizeof(float)) != cudaSuccess) return;
    scan_sections_kernel<<<sections, BLOCK_SIZE>>>(d_in, d_out, n, d_sums);
    hierarchical_scan(d_sums, d_sums, sections);
    add_block_sums_kernel<<<sections - 1, BLOCK_SIZE>>>(d_out, n, d_sums);
    cudaFree(d_sums);
}
