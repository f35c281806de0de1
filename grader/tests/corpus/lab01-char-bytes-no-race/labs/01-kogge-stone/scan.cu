// Kogge-Stone scan, double buffered. Each thread also notes in a byte flag
// whether its element is real input or padding past n, so the last step can
// test the flag instead of recomputing the index.
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float bufA[KS_SECTION_SIZE];
    __shared__ float bufB[KS_SECTION_SIZE];
    __shared__ bool valid[KS_SECTION_SIZE];

    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * blockDim.x + tid;
    valid[tid] = gid < n;
    bufA[tid] = valid[tid] ? in[gid] : 0.0f;

    float* src = bufA;
    float* dst = bufB;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float v = src[tid];
        if (tid >= stride) v += src[tid - stride];
        dst[tid] = v;
        float* tmp = src;
        src = dst;
        dst = tmp;
    }
    if (valid[tid]) out[gid] = src[tid];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
