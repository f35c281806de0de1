// Beyond the emulator (labs/meson.build, inline-ptx-skipped): lab 01's
// reference with a device function of inline PTX added at its end.
// Lab 01 reference: double-buffered Kogge-Stone inclusive scan of each
// 1024-element section (Hwu, Kirk & El Hajj, PMPP, sec. 9.2; the corrected HSH
// kernel of Sexton's lecture 04).
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    // Two buffers: each step reads one and writes the other, so no thread reads
    // a value another thread rewrites in the same step.
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    buffer[src][threadIdx.x] = i < n ? in[i] : 0.0f;

    // Every thread runs every step, so all of them reach each barrier.
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        float value = buffer[src][threadIdx.x];
        if (threadIdx.x >= stride) value += buffer[src][threadIdx.x - stride];
        buffer[src ^ 1][threadIdx.x] = value;
        src ^= 1;
    }
    if (i < n) out[i] = buffer[src][threadIdx.x];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE != 0);
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
__device__ unsigned lane_id() { unsigned l; asm("mov.u32 %0, %%laneid;" : "=r"(l)); return l; }
