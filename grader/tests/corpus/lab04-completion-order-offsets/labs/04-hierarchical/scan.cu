// Lab 04: scan the sections, scan their totals, add the totals back.
// Each block files its total in the next free slot of the totals array (an
// atomic counter), since blocks finish one after the other anyway.
#include <cuda_runtime.h>

#include "scan.hpp"

__global__ void section_scan(const float* in, float* out, std::size_t n, float* totals, unsigned* filed) {
    __shared__ float s[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t first = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE) s[k] = first + k < n ? in[first + k] : 0.0f;
    for (unsigned stride = 1; stride < SECTION_SIZE; stride <<= 1) {
        __syncthreads();
        const unsigned i = (t + 1) * (stride << 1) - 1;
        if (i < SECTION_SIZE) s[i] += s[i - stride];
    }
    for (unsigned stride = SECTION_SIZE >> 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const unsigned i = (t + 1) * (stride << 1) - 1;
        if (i + stride < SECTION_SIZE) s[i + stride] += s[i];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (first + k < n) out[first + k] = s[k];
    if (totals != nullptr && t == 0) {
        const unsigned slot = atomicAdd(filed, 1u);  // my block's place in the totals
        totals[slot] = s[SECTION_SIZE - 1];
    }
}

__global__ void add_back(float* out, std::size_t n, const float* scanned_totals) {
    if (blockIdx.x == 0) return;
    const float before = scanned_totals[blockIdx.x - 1];
    const std::size_t first = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (first + k < n) out[first + k] += before;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t blocks = (n + SECTION_SIZE - 1) / SECTION_SIZE;
    if (blocks == 1) {
        section_scan<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr, nullptr);
        return;
    }
    float* totals = nullptr;
    float* scanned = nullptr;
    unsigned* filed = nullptr;
    cudaMalloc(&totals, blocks * sizeof(float));
    cudaMalloc(&scanned, blocks * sizeof(float));
    cudaMalloc(&filed, sizeof(unsigned));
    cudaMemset(filed, 0, sizeof(unsigned));
    section_scan<<<static_cast<unsigned>(blocks), BLOCK_SIZE>>>(d_in, d_out, n, totals, filed);
    hierarchical_scan(totals, scanned, blocks);
    add_back<<<static_cast<unsigned>(blocks), BLOCK_SIZE>>>(d_out, n, scanned);
    cudaFree(totals);
    cudaFree(scanned);
    cudaFree(filed);
}
