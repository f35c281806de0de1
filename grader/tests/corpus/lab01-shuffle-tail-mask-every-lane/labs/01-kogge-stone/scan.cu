// Lab 01 -- Kogge-Stone with warp shuffles (no shared-memory steps).
// The shuffles' mask names the lanes that have data (a ballot), and every
// lane runs them, so no lane that the mask names is missing; warp 0 then
// scans the warp totals.
#include "scan.hpp"

#define FULL_MASK 0xffffffff

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n)
{
    __shared__ float warp_sum[32];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;

    if (threadIdx.x < 32) warp_sum[threadIdx.x] = 0.0f;
    __syncthreads();

    const unsigned mask = __ballot_sync(FULL_MASK, i < n);   // the lanes with data
    float v = i < n ? in[i] : 0.0f;
    for (unsigned d = 1; d < 32; d *= 2) {
        float y = __shfl_up_sync(mask, v, d);
        if (lane >= d) v += y;
    }
    if (i < n && (lane == 31 || i == n - 1)) warp_sum[warp] = v;   // the last warp may be partial
    __syncthreads();

    if (warp == 0) {
        float s = warp_sum[lane];
        for (unsigned d = 1; d < 32; d *= 2) {
            float y = __shfl_up_sync(FULL_MASK, s, d);
            if (lane >= d) s += y;
        }
        warp_sum[lane] = s;   // inclusive over warps
    }
    __syncthreads();

    if (i < n) out[i] = v + (warp > 0 ? warp_sum[warp - 1] : 0.0f);
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n)
{
    if (n == 0) return;
    kogge_stone_kernel<<<(n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
