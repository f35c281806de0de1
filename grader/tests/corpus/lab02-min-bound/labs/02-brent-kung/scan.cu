// Lab 02: the Brent-Kung scan. Read README.md first.
//
// One block of 1024 threads scans one 2048-element section, two elements per
// thread.
#include "scan.hpp"

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float XY[BK_SECTION_SIZE];
    const unsigned tid = threadIdx.x;
    const unsigned base = blockIdx.x * BK_SECTION_SIZE;
    // elements this block really has: 2048, except in the last (short) section
    const unsigned count = min(n - base, 2048u);
    // levels of the trees: log2(2048) = 11 (rounded, in case log2f is a bit off)
    const int levels = __float2int_rn(log2f((float)BK_SECTION_SIZE));

    // load elements tid and tid + 1024, zeros past the end
    XY[tid] = tid < count ? in[base + tid] : 0.0f;
    XY[tid + BK_BLOCK_SIZE] = tid + BK_BLOCK_SIZE < count ? in[base + tid + BK_BLOCK_SIZE] : 0.0f;

    // up-sweep: stride 1, 2, ..., 1024; the first threads do the work
    for (int level = 0; level < levels; ++level) {
        const unsigned stride = 1u << level;
        __syncthreads();
        const unsigned idx = (tid + 1) * stride * 2 - 1;
        if (idx < BK_SECTION_SIZE) XY[idx] += XY[idx - stride];
    }

    // down-sweep: stride 512, 256, ..., 1
    for (int level = levels - 2; level >= 0; --level) {
        const unsigned stride = 1u << level;
        __syncthreads();
        const unsigned idx = (tid + 1) * stride * 2 - 1;
        if (idx + stride < BK_SECTION_SIZE) XY[idx + stride] += XY[idx];
    }

    __syncthreads();
    if (tid < count) out[base + tid] = XY[tid];
    if (tid + BK_BLOCK_SIZE < count) out[base + tid + BK_BLOCK_SIZE] = XY[tid + BK_BLOCK_SIZE];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = (n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE;
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
