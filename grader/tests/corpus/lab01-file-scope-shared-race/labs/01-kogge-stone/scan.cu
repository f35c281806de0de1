// Lab 01: Kogge-Stone scan, PMPP-style (Fig. 11.3), with the section buffer
// declared once at file scope, as in the slides' examples.
#include "scan.hpp"

__shared__ float XY[KS_SECTION_SIZE];

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) XY[threadIdx.x] = in[i];
    else XY[threadIdx.x] = 0.0f;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        if (threadIdx.x >= stride) XY[threadIdx.x] += XY[threadIdx.x - stride];
    }
    if (i < n) out[i] = XY[threadIdx.x];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    kogge_stone_kernel<<<(n + KS_BLOCK_SIZE - 1) / KS_BLOCK_SIZE, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
