// Lab 02: the Brent-Kung scan. Read README.md first.
//
// One block of 1024 threads scans one 2048-element section, two elements per
// thread.
#include "scan.hpp"

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float XY[BK_SECTION_SIZE];
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;  // my global index

    // each thread loads two elements, one in each half of the section
    XY[threadIdx.x] = i < n ? in[i] : 0.0f;
    XY[threadIdx.x + blockDim.x] = i + blockDim.x < n ? in[i + blockDim.x] : 0.0f;

    // reduction tree
    for (unsigned stride = 1; stride <= blockDim.x; stride *= 2) {
        __syncthreads();
        unsigned index = (threadIdx.x + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) XY[index] += XY[index - stride];
    }

    // distribution tree
    for (unsigned stride = BK_SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned index = (threadIdx.x + 1) * 2 * stride - 1;
        if (index + stride < BK_SECTION_SIZE) XY[index + stride] += XY[index];
    }

    __syncthreads();
    if (i < n) out[i] = XY[threadIdx.x];
    if (i + blockDim.x < n) out[i + blockDim.x] = XY[threadIdx.x + blockDim.x];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE != 0);
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
