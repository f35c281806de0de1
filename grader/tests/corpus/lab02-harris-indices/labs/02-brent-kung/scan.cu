// Lab 02: Brent-Kung scan, 2048 elements per block, 1024 threads.
//
// I wrote the up-sweep the way Harris's paper indexes it: `d` threads are
// busy at each level, thread t combines the pair ending at
// ai = offset*(2t+1)-1 and bi = offset*(2t+2)-1. Threads 0..d-1 work, the
// rest idle, so whole warps drop out together.
// Each thread loads/stores the two neighbouring elements 2t and 2t+1.
#include "scan.hpp"

__global__ void brent_kung_kernel(const float* in, float* out, unsigned n) {
    __shared__ float s[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned base = blockIdx.x * BK_SECTION_SIZE;
    const unsigned left = n - base;  // elements left from here on (> 0)

    s[2 * t] = (2 * t < left) ? in[base + 2 * t] : 0.0f;
    s[2 * t + 1] = (2 * t + 1 < left) ? in[base + 2 * t + 1] : 0.0f;

    // up-sweep (reduction tree): d = 1024, 512, ..., 1 active threads
    unsigned offset = 1;
    for (unsigned d = BK_SECTION_SIZE / 2; d > 0; d /= 2) {
        __syncthreads();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1;
            unsigned bi = offset * (2 * t + 2) - 1;
            s[bi] += s[ai];
        }
        offset *= 2;
    }

    // down (distribution) tree: at stride st the finished prefix at
    // 2*st*(t+1)-1 is pushed st to the right; 1024/st - 1 threads have one.
    for (unsigned st = BK_SECTION_SIZE / 4; st >= 1; st /= 2) {
        __syncthreads();
        unsigned busy = BK_SECTION_SIZE / (2 * st) - 1;
        if (t < busy) {
            unsigned from = 2 * st * (t + 1) - 1;
            s[from + st] += s[from];
        }
    }
    __syncthreads();

    if (2 * t < left) out[base + 2 * t] = s[2 * t];
    if (2 * t + 1 < left) out[base + 2 * t + 1] = s[2 * t + 1];
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE != 0);
    brent_kung_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
