// Lab 03 -- exclusive scans
//
// Kogge-Stone: instead of shifting the load I reused my lab 01 kernel as is
// (inclusive scan of the section) and shift when storing: thread t writes
// what thread t-1 ended up with, and thread 0 writes 0. Needs one more
// barrier, because the value I store was written by my neighbour.
//
// Brent-Kung: up-sweep, set the root to 0, down-sweep (swap and add).
#include "scan.hpp"

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buf[2][KS_SECTION_SIZE];
    const unsigned tx = threadIdx.x;
    const unsigned gi = blockIdx.x * KS_SECTION_SIZE + tx;
    int cur = 0;

    buf[cur][tx] = (gi < n) ? in[gi] : 0.0f;

    // plain inclusive Kogge-Stone, double buffered
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride <<= 1) {
        __syncthreads();
        float v = buf[cur][tx];
        if (tx >= stride) v = v + buf[cur][tx - stride];
        buf[1 - cur][tx] = v;
        cur = 1 - cur;
    }
    __syncthreads();  // my left neighbour's final value must be there

    // inclusive -> exclusive: shift right by one
    float result = 0.0f;
    if (tx > 0) result = buf[cur][tx - 1];
    if (gi < n) out[gi] = result;
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float sh[BK_SECTION_SIZE];
    const unsigned tx = threadIdx.x;
    const unsigned first = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = tx; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        sh[k] = k < n - first ? in[first + k] : 0.0f;

    // up-sweep
    unsigned stride = 1;
    while (stride < BK_SECTION_SIZE) {
        __syncthreads();
        unsigned right = (tx + 1) * stride * 2 - 1;
        if (right < BK_SECTION_SIZE) sh[right] += sh[right - stride];
        stride *= 2;
    }

    // root := 0 (thread 0 did the last up-sweep step on it, so no barrier)
    if (tx == 0) sh[BK_SECTION_SIZE - 1] = 0.0f;

    // down-sweep: stride 1024 ... 1
    stride = BK_SECTION_SIZE / 2;
    while (stride > 0) {
        __syncthreads();
        unsigned right = (tx + 1) * stride * 2 - 1;
        if (right < BK_SECTION_SIZE) {
            float l = sh[right - stride];
            sh[right - stride] = sh[right];  // left child gets the parent
            sh[right] = sh[right] + l;       // right child: parent + old left
        }
        stride /= 2;
    }
    __syncthreads();

    for (unsigned k = tx; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - first) out[first + k] = sh[k];
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
