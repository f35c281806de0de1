// Lab 01: fix the HSH (Kogge-Stone) scan. Read README.md first.
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    // Two buffers swapped after every step, so nobody reads what another
    // thread is overwriting in the same step (fix 1).
    __shared__ float ping[KS_SECTION_SIZE];
    __shared__ float pong[KS_SECTION_SIZE];
    float* src = ping;
    float* dst = pong;
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + t;
    src[t] = i < n ? in[i] : 0.0f;  // pad the last section with zeros

    // Every thread does every step now, so they all meet at each barrier (fix 2).
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        if (t >= stride)
            dst[t] = src[t] + src[t - stride];
        else
            dst[t] = src[t];
        float* tmp = src;
        src = dst;
        dst = tmp;
    }
    // The padding threads only hold zeros, so they can store them too.
    out[i] = src[t];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
