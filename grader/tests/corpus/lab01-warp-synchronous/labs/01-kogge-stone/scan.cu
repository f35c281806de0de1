// Lab 01, my version: scan each warp's 32 values in shared memory with
// warp-synchronous steps (no __syncthreads inside the loop, just __syncwarp),
// then scan the 32 warp totals in warp 0 and add them back.
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float vals[KS_SECTION_SIZE];
    __shared__ float warp_sums[KS_SECTION_SIZE / 32];
    const unsigned t = threadIdx.x;
    const unsigned lane = t & 31, warp = t >> 5;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + t;

    vals[t] = (i < n) ? in[i] : 0.0f;
    __syncwarp();
    // step 1: Kogge-Stone inside the warp. read, syncwarp, write, syncwarp
    for (unsigned d = 1; d < 32; d <<= 1) {
        float left = 0.0f;
        if (lane >= d) left = vals[t - d];
        __syncwarp();
        vals[t] += left;
        __syncwarp();
    }
    if (lane == 31) warp_sums[warp] = vals[t];
    __syncthreads();

    // step 2: warp 0 scans the warp totals the same way
    if (warp == 0) {
        float mine = warp_sums[lane];
        for (unsigned d = 1; d < 32; d <<= 1) {
            float left = (lane >= d) ? warp_sums[lane - d] : 0.0f;
            __syncwarp();
            mine += left;
            warp_sums[lane] = mine;
            __syncwarp();
        }
    }
    __syncthreads();

    // step 3: add the totals of the warps before mine
    float result = vals[t];
    if (warp > 0) result += warp_sums[warp - 1];
    if (i < n) out[i] = result;
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
