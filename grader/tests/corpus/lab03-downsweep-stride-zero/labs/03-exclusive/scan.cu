// Lab 03 reference: exclusive scans of each section.
//  - Kogge-Stone: the double-buffered kernel of lab 01 on the input shifted
//    right by one, 0 at each section start (PMPP sec. 9.2, exercise 9.4).
//  - Brent-Kung after Harris ("Parallel Prefix Sum (Scan) with CUDA", 2007):
//    up-sweep, clear the last element, down-sweep. Unpadded: padding the
//    shared array as lab 02's reference does measured 1.17x slower here on an
//    H100 (fewer bank conflicts, more instructions; bench/results).
#include "scan.hpp"

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    // Shifted load: the identity at the section start, x[i - 1] elsewhere.
    buffer[src][threadIdx.x] = threadIdx.x > 0 && i - 1 < n ? in[i - 1] : 0.0f;

    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        float value = buffer[src][threadIdx.x];
        if (threadIdx.x >= stride) value += buffer[src][threadIdx.x - stride];
        buffer[src ^ 1][threadIdx.x] = value;
        src ^= 1;
    }
    if (i < n) out[i] = buffer[src][threadIdx.x];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // Up-sweep: the reduction tree; the last element ends up holding the total.
    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) section[index] += section[index - stride];
    }
    // Clear the last element: it becomes the identity that flows down.
    if (t == 0) section[BK_SECTION_SIZE - 1] = 0.0f;
    // Down-sweep: each node passes its value to its left child and the sum of
    // its value and the left child's old value to its right child.
    for (int stride = BK_SECTION_SIZE / 2; stride >= 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) {
            const float left = section[index - stride];
            section[index - stride] = section[index];
            section[index] += left;
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
