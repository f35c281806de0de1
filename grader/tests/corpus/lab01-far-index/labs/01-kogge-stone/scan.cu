// Lab 01: Kogge-Stone scan of each 1024-element section.
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float a[KS_SECTION_SIZE];
    __shared__ float b[KS_SECTION_SIZE];
    unsigned i = blockIdx.x * n + threadIdx.x;  // my element
    a[threadIdx.x] = threadIdx.x < n ? in[i] : 0.0f;

    float* from = a;
    float* to = b;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        to[threadIdx.x] = from[threadIdx.x] + (threadIdx.x >= stride ? from[threadIdx.x - stride] : 0.0f);
        float* swap = from;
        from = to;
        to = swap;
    }
    if (threadIdx.x < n) out[i] = from[threadIdx.x];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
