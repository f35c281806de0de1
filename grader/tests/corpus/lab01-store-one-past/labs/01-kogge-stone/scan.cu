// Lab 01 - Kogge-Stone, double buffered.
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buf[2][KS_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + t;
    int cur = 0, nxt = 1;

    // elements 0..n of the input (inclusive)
    buf[cur][t] = (i <= n) ? in[i] : 0.0f;

    for (unsigned d = 1; d < KS_SECTION_SIZE; d <<= 1) {
        __syncthreads();
        buf[nxt][t] = (t >= d) ? buf[cur][t] + buf[cur][t - d] : buf[cur][t];
        cur = 1 - cur;
        nxt = 1 - nxt;
    }
    if (i <= n) out[i] = buf[cur][t];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    kogge_stone_kernel<<<(n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
