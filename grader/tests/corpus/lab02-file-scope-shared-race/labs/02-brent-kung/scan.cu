// Lab 02: Brent-Kung, contiguous mapping (PMPP sec. 9.4), with the section
// kept in a namespace of the lab's own at file scope.
#include "scan.hpp"

namespace bk {
__shared__ float section[BK_SECTION_SIZE];
}

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        bk::section[k] = start + k < n ? in[start + k] : 0.0f;

    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) bk::section[index] += bk::section[index - stride];
    }
    __syncthreads();
    for (unsigned stride = BK_SECTION_SIZE / 4; stride > 0; stride /= 2) {
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < BK_SECTION_SIZE) bk::section[index + stride] += bk::section[index];
    }
    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (start + k < n) out[start + k] = bk::section[k];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = (n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE;
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
