// Lab 01 - fixed HSH scan
//
// Fix 1 (race): two shared arrays instead of one. Every round reads from
// `src` and writes into `dst`, then the two pointers are swapped, so nobody
// overwrites a value that another thread still has to read this round.
// Fix 2 (barrier): the loop runs the same number of rounds for every thread
// (stride goes up to the block size), and only the add is inside an if.
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float bufA[KS_SECTION_SIZE];
    __shared__ float bufB[KS_SECTION_SIZE];

    unsigned tid = threadIdx.x;
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;

    float* src = bufA;
    float* dst = bufB;

    if (gid < n) {
        src[tid] = in[gid];
    } else {
        src[tid] = 0.0f;  // padding for the last block
    }

    for (unsigned stride = 1; stride < blockDim.x; stride = stride * 2) {
        __syncthreads();  // src is complete before anyone reads it
        if (tid >= stride) {
            dst[tid] = src[tid] + src[tid - stride];
        } else {
            dst[tid] = src[tid];  // still copy, otherwise dst has an old value
        }
        float* tmp = src;
        src = dst;
        dst = tmp;
    }

    // after the last swap the result is in src (my own slot, no sync needed)
    if (gid < n) {
        out[gid] = src[tid];
    }
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE != 0);
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
