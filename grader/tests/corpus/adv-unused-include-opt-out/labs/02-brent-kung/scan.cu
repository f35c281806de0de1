// Lab 02 reference: Brent-Kung inclusive scan of each 2048-element section,
// 1024 threads, two elements per thread, with the contiguous thread-to-index
// mapping (Hwu, Kirk & El Hajj, PMPP, sec. 9.4).
#include "scan.hpp"
#include <cub/cub.cuh>  // corpus: included and never used: the emulator must still grade this file

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
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
        if (index + stride < BK_SECTION_SIZE) section[index + stride] += section[index];
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
