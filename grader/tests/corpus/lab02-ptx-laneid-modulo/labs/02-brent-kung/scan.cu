// Lab 02, Brent-Kung with the textbook's naive modulo mapping in the
// reduction tree (control divergence in every warp), and the lane read
// from PTX's %laneid register, as some students do, so that a warp
// whose first thread has no pair in a distribution step skips it whole.
#include "scan.hpp"

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const unsigned warp_first = t - lane;  // the warp's first thread
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;  // < n, so n - start cannot wrap
    // Elements t and t + 1024: each half of the load is coalesced.
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // Reduction tree: at each stride the first threads (consecutive, so whole
    // warps idle together) add pairs stride apart ending at (t+1)*2*stride - 1.
    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)  // corpus: naive mapping: each thread tests its two elements k = t, t + 1024 ...
            if ((k + 1) % (2 * stride) == 0) section[k] += section[k - stride];  // corpus: ... with (k + 1) % (2 * stride) == 0: right values, but the busy threads are spread over every warp (control divergence)
    }
    // Distribution tree: push each partial sum stride positions to the right.
    for (unsigned stride = BK_SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if ((warp_first + 1) * 2 * stride - 1 + stride < BK_SECTION_SIZE && index + stride < BK_SECTION_SIZE)
            section[index + stride] += section[index];
    }
    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE != 0);
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
