// Exclusive scans. Kogge-Stone: shift the input right by one inside each
// section into a scratch buffer, then run lab 01's inclusive scan on it.
// Brent-Kung: up-sweep, clear the root, down-sweep (Harris).
#include "scan.hpp"

// The first element of each section must be 0; fresh memory from cudaMalloc
// is zero, so only the others are written.
__global__ void shift_right(const float* in, float* shifted, unsigned n) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i % KS_SECTION_SIZE != 0) shifted[i] = in[i - 1];
}

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buf[2][KS_SECTION_SIZE];
    unsigned tid = threadIdx.x;
    unsigned i = blockIdx.x * KS_SECTION_SIZE + tid;
    int cur = 0;
    buf[cur][tid] = i < n ? in[i] : 0.0f;
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        float v = buf[cur][tid];
        if (tid >= stride) v += buf[cur][tid - stride];
        buf[1 - cur][tid] = v;
        cur = 1 - cur;
    }
    if (i < n) out[i] = buf[cur][tid];
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    float* d_shifted;
    cudaMalloc(&d_shifted, n * sizeof(float));
    unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    shift_right<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_shifted, n);
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_shifted, d_out, n);
    cudaFree(d_shifted);
}

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float s[BK_SECTION_SIZE];
    unsigned t = threadIdx.x;
    unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        s[k] = start + k < n ? in[start + k] : 0.0f;
    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) s[index] += s[index - stride];
    }
    if (t == 0) s[BK_SECTION_SIZE - 1] = 0.0f;
    for (unsigned stride = BK_SECTION_SIZE / 2; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) {
            float left = s[index - stride];
            s[index - stride] = s[index];
            s[index] += left;
        }
    }
    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (start + k < n) out[start + k] = s[k];
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    unsigned blocks = (n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE;
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
