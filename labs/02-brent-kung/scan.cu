// Lab 02: the Brent-Kung scan. Read README.md first.
//
// One block of 1024 threads scans one 2048-element section, two elements per
// thread. Loading and storing are done; write the two trees.
#include "scan.hpp"

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;  // < n, so n - start cannot wrap
    // Each thread loads elements t and t + 1024 (zeros past n).
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // TODO(1): the reduction tree. For stride = 1, 2, 4, ..., 1024, after a
    // __syncthreads(), add section[index - stride] into section[index] for
    // index = (t + 1) * 2 * stride - 1 when index < BK_SECTION_SIZE. Use this
    // contiguous mapping (threads 0, 1, 2, ... stay busy), not
    // `if ((t + 1) % (2 * stride) == 0)`, which idles threads inside every warp.

    // TODO(2): the distribution tree. For stride = 512, 256, ..., 1, after a
    // __syncthreads(), add section[index] into section[index + stride] for the
    // same index, when index + stride < BK_SECTION_SIZE.

    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE != 0);
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
