// Lab 02: the Brent-Kung scan. Read README.md first.
//
// One block of 1024 threads scans one 2048-element section, two elements per
// thread.
#include "scan.hpp"

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float XY[BK_SECTION_SIZE];
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = tid; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        XY[k] = k < n - base ? in[base + k] : 0.0f;

    // up-sweep
    for (unsigned s = 1; s <= BK_BLOCK_SIZE; s <<= 1) {
        __syncthreads();
        unsigned i = (tid + 1) * (s << 1) - 1;
        if (i < BK_SECTION_SIZE) XY[i] += XY[i - s];
    }

    // down-sweep: position i passes its sum on when i + 1 is a multiple of 2s
    // (a mask is cheaper than %); each thread checks its two positions
    for (unsigned s = BK_SECTION_SIZE / 4; s >= 1; s >>= 1) {
        __syncthreads();
        for (unsigned i = tid; i + s < BK_SECTION_SIZE; i += BK_BLOCK_SIZE)
            if (((i + 1) & (2 * s - 1)) == 0) XY[i + s] += XY[i];
    }

    __syncthreads();
    for (unsigned k = tid; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - base) out[base + k] = XY[k];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = (n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE;
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
