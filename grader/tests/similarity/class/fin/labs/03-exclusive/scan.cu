// Lab 03: exclusive scans. Read README.md first.
//
// out[i] is the sum of the elements of i's section *before* i; every section
// starts with the identity 0. Two kernels, two ways of getting there.
#include "scan.hpp"

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    // shifted load (TODO 1)
    const unsigned tx = threadIdx.x;
    const unsigned prev = i - 1;          // only used when tx != 0
    float v = 0.0f;
    if (tx != 0 && prev < n) v = in[prev];
    buffer[src][tx] = v;

    // double-buffered Kogge-Stone (TODO 2)
    for (unsigned d = 1; d < KS_SECTION_SIZE; d <<= 1) {
        __syncthreads();
        const unsigned dst = 1 - src;
        const unsigned right = tx;
        const unsigned left = tx - d;     // wraps when tx < d, then unused
        float sum = buffer[src][right];
        if (tx >= d) sum += buffer[src][left];
        buffer[dst][right] = sum;
        src = dst;
    }

    if (i < n) out[i] = buffer[src][threadIdx.x];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // up-sweep (TODO 3)
    unsigned d = 1;
    for (; d < BK_SECTION_SIZE; d <<= 1) {
        __syncthreads();
        const unsigned bi = ((t + 1) * d << 1) - 1;   // right child / node
        const unsigned ai = bi - d;                    // left child
        if (bi < BK_SECTION_SIZE) section[bi] += section[ai];
    }

    // clear the root (TODO 4)
    __syncthreads();
    if (t == 0) section[BK_SECTION_SIZE - 1] = 0.0f;

    // down-sweep (TODO 5)
    for (d = BK_SECTION_SIZE >> 1; d > 0; d >>= 1) {
        __syncthreads();
        const unsigned bi = ((t + 1) * d << 1) - 1;
        const unsigned ai = bi - d;
        if (bi < BK_SECTION_SIZE) {
            const float left = section[ai];
            const float right = section[bi];
            section[ai] = right;
            section[bi] = right + left;
        }
    }

    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE != 0);
    kogge_stone_exclusive_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE != 0);
    brent_kung_exclusive_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
