// Kogge-Stone scan: each step reads `cur` and writes `next`, then the first
// thread of each warp copies its warp's 32 values of `next` back into `cur`
// with memcpy for the following step (one copy per warp, not per thread).
#include <cstring>

#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float cur[KS_SECTION_SIZE];
    __shared__ float next[KS_SECTION_SIZE];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * KS_SECTION_SIZE + tid;
    cur[tid] = i < n ? in[i] : 0.0f;
    __syncthreads();

    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        float v = cur[tid];
        if (tid >= stride) v += cur[tid - stride];
        next[tid] = v;
        __syncthreads();
        if (tid % 32 == 0) memcpy(&cur[tid], &next[tid], 32 * sizeof(float));
    }
    if (i < n) out[i] = cur[tid];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
