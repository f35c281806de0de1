// Lab 03: exclusive scans. Read README.md first.
//
// out[i] is the sum of the elements of i's section *before* i; every section
// starts with the identity 0. Two kernels, two ways of getting there.
#include "scan.hpp"

// pad one word every 32 (bank conflicts)
__device__ __forceinline__ unsigned P(unsigned k) { return k + (k >> 5); }
// tree node of thread t at stride s
__device__ __forceinline__ unsigned nd(unsigned t, unsigned s) { return (t + 1) * (s << 1) - 1; }

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    const unsigned t = threadIdx.x;
    buffer[src][t] = t && i < n ? in[i - 1] : 0.0f;  // shift by 1, 0 first

    for (unsigned s = 1; s < KS_SECTION_SIZE; s <<= 1, src ^= 1) {
        __syncthreads();
        buffer[src ^ 1][t] = buffer[src][t] + (t >= s ? buffer[src][t - s] : 0.0f);
    }

    if (i < n) out[i] = buffer[src][threadIdx.x];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE + (BK_SECTION_SIZE >> 5)];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[P(k)] = k < n - start ? in[start + k] : 0.0f;

    // up
    for (unsigned s = 1; s < BK_SECTION_SIZE; s <<= 1) {
        __syncthreads();
        const unsigned d = nd(t, s);
        if (d < BK_SECTION_SIZE) section[P(d)] += section[P(d - s)];
    }

    // root := 0
    __syncthreads();
    if (t == BK_BLOCK_SIZE - 1) section[P(BK_SECTION_SIZE - 1)] = 0.0f;

    // down
    for (unsigned s = BK_BLOCK_SIZE; s; s >>= 1) {
        __syncthreads();
        const unsigned d = nd(t, s);
        if (d < BK_SECTION_SIZE) {
            const float l = section[P(d - s)];
            section[P(d - s)] = section[P(d)];
            section[P(d)] += l;
        }
    }

    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[P(k)];
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
