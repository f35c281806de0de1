// Lab 03: exclusive scans.
#include "scan.hpp"

// Kogge-Stone on the input shifted right by one.
__global__ void ks_exclusive(const float* in, float* out, int n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    int t = threadIdx.x;
    int i = blockIdx.x * KS_SECTION_SIZE + t;
    float prev = i <= n ? in[i - 1] : 0.0f;  // the element before mine
    buffer[0][t] = t == 0 ? 0.0f : prev;      // a section starts at 0
    int src = 0;
    for (int stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        float v = buffer[src][t];
        if (t >= stride) v += buffer[src][t - stride];
        buffer[1 - src][t] = v;
        src = 1 - src;
    }
    if (i < n) out[i] = buffer[src][t];
}

// Brent-Kung, Harris style: up-sweep, zero the root, down-sweep.
__global__ void bk_exclusive(const float* in, float* out, int n) {
    __shared__ float s[BK_SECTION_SIZE];
    int t = threadIdx.x;
    int base = blockIdx.x * BK_SECTION_SIZE;
    s[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0.0f;
    s[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0.0f;
    for (int d = 1; d < BK_SECTION_SIZE; d *= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * d - 1;
        if (k < BK_SECTION_SIZE) s[k] += s[k - d];
    }
    if (t == 0) s[BK_SECTION_SIZE - 1] = 0.0f;
    for (int d = BK_SECTION_SIZE / 2; d >= 1; d /= 2) {
        __syncthreads();
        int k = (t + 1) * 2 * d - 1;
        if (k < BK_SECTION_SIZE) {
            float left = s[k - d];
            s[k - d] = s[k];
            s[k] += left;
        }
    }
    __syncthreads();
    if (base + 2 * t < n) out[base + 2 * t] = s[2 * t];
    if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = s[2 * t + 1];
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    ks_exclusive<<<(n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE, KS_BLOCK_SIZE>>>(d_in, d_out, static_cast<int>(n));
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    bk_exclusive<<<(n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE, BK_BLOCK_SIZE>>>(d_in, d_out, static_cast<int>(n));
}
