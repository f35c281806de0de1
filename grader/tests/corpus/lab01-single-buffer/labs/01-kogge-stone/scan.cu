// Lab 01: fix the HSH (Kogge-Stone) scan. Read README.md first.
//
// kogge_stone_kernel below is a first attempt at the Hillis-Steele-Horn scan
// of one 1024-element section per block. It compiles and often even looks
// right, but it has two errors. Fix both; keep the function names and the
// launch in kogge_stone_scan.
#include "scan.hpp"

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    // TODO(1): a read/write race. In each step thread t reads partial[t - stride]
    // while thread t - stride may be rewriting it. Double-buffer: keep two
    // arrays, read one and write the other in each step, swap between steps.
    __shared__ float partial[KS_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + t;
    partial[t] = i < n ? in[i] : 0.0f;

    // TODO(2): barrier divergence. The trip count depends on threadIdx.x, so
    // threads leave the loop (and its __syncthreads) at different steps. Make
    // every thread run every step (stride < KS_SECTION_SIZE) and let an `if`
    // inside the loop decide which threads add.
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {  // corpus: TODO(2) fixed (every thread runs every step); the mistake left is the single buffer below
        __syncthreads();
        if (t >= stride) partial[t] += partial[t - stride];  // corpus: one buffer read and written in the same step (race: partial[t - stride] may already hold its new value)
    }
    if (i < n) out[i] = partial[t];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE != 0);
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
