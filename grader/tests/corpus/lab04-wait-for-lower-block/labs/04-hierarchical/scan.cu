// Lab 04 as one kernel: block b scans section b, waits until block b-1 has
// posted the sum of everything before section b, adds it, and posts its own.
#include <cuda_runtime.h>

#include "scan.hpp"

__global__ void scan_and_chain(const float* in, float* out, std::size_t n, float* posted, int* done) {
    __shared__ float part[SECTION_SIZE];
    __shared__ float offset;
    const unsigned t = threadIdx.x, b = blockIdx.x;
    const std::size_t lo = std::size_t{b} * SECTION_SIZE;

    part[2 * t] = lo + 2 * t < n ? in[lo + 2 * t] : 0.0f;
    part[2 * t + 1] = lo + 2 * t + 1 < n ? in[lo + 2 * t + 1] : 0.0f;
    for (unsigned d = 1; d < SECTION_SIZE; d *= 2) {
        __syncthreads();
        const unsigned k = (t + 1) * 2 * d - 1;
        if (k < SECTION_SIZE) part[k] += part[k - d];
    }
    for (unsigned d = SECTION_SIZE / 4; d > 0; d /= 2) {
        __syncthreads();
        const unsigned k = (t + 1) * 2 * d - 1;
        if (k + d < SECTION_SIZE) part[k + d] += part[k];
    }
    __syncthreads();

    if (t == 0) {
        float before = 0.0f;
        if (b > 0) {
            while (atomicCAS(&done[b - 1], 1, 1) != 1) {  // block b-1 first
            }
            before = atomicAdd(&posted[b - 1], 0.0f);
        }
        atomicExch(&posted[b], before + part[SECTION_SIZE - 1]);
        __threadfence();
        atomicExch(&done[b], 1);
        offset = before;
    }
    __syncthreads();
    if (lo + 2 * t < n) out[lo + 2 * t] = part[2 * t] + offset;
    if (lo + 2 * t + 1 < n) out[lo + 2 * t + 1] = part[2 * t + 1] + offset;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const unsigned blocks = static_cast<unsigned>((n + SECTION_SIZE - 1) / SECTION_SIZE);
    float* posted = nullptr;
    int* done = nullptr;
    cudaMalloc(&posted, blocks * sizeof(float));
    cudaMalloc(&done, blocks * sizeof(int));
    cudaMemset(done, 0, blocks * sizeof(int));
    scan_and_chain<<<blocks, BLOCK_SIZE>>>(d_in, d_out, n, posted, done);
    cudaDeviceSynchronize();
    cudaFree(posted);
    cudaFree(done);
}
