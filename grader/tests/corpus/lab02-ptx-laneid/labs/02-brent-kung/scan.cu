// Lab 02, Brent-Kung with the contiguous mapping (the reference's
// kernel), and the lane read from PTX's %laneid register, as some
// students do, so that a warp whose first thread has no pair in a
// distribution step skips it whole.
#include "scan.hpp"

// One padding word after every 32: the trees' indices, spaced by powers of
// two, then fall into different banks of the 32.
__device__ __forceinline__ unsigned padded(unsigned i) { return i + (i >> 5); }

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE + BK_SECTION_SIZE / 32];
    const unsigned t = threadIdx.x;
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    const unsigned warp_first = t - lane;  // the warp's first thread
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;  // < n, so n - start cannot wrap
    // Elements t and t + 1024: each half of the load is coalesced.
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[padded(k)] = k < n - start ? in[start + k] : 0.0f;

    // Reduction tree: at each stride the first threads (consecutive, so whole
    // warps idle together) add pairs stride apart ending at (t+1)*2*stride - 1.
    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) section[padded(index)] += section[padded(index - stride)];
    }
    // Distribution tree: push each partial sum stride positions to the right.
    for (unsigned stride = BK_SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if ((warp_first + 1) * 2 * stride - 1 + stride < BK_SECTION_SIZE && index + stride < BK_SECTION_SIZE)
            section[padded(index + stride)] += section[padded(index)];
    }
    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[padded(k)];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE != 0);
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
