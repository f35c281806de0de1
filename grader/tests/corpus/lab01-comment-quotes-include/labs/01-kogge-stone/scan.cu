/*
 * Lab 01: Kogge-Stone inclusive scan, one section of KS_SECTION_SIZE
 * elements per block.
 *
 * Notes to self while reading the kit: the tests pull in
 *     #include "../common/harness.hpp"
 * and the emulator turns each kernel<<<...>>> into a simt::launch call,
 * so nothing here needs either of them.
 */
#include "scan.hpp"

static_assert(KS_BLOCK_SIZE == KS_SECTION_SIZE,
              "one thread per element; the data comes from d_in, no #embed of a table");

// One shared array, updated in place: every step reads its partner into a
// register, waits for everyone to read, then writes (so simt::launch's race
// check and a real GPU agree: no read overlaps a write of the same step).
__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float xs[KS_SECTION_SIZE];
    const unsigned tid = threadIdx.x;
    const unsigned gid = blockIdx.x * blockDim.x + tid;

    xs[tid] = (gid < n) ? in[gid] : 0.0f;
    __syncthreads();

    for (unsigned offset = 1; offset < blockDim.x; offset <<= 1) {
        float partner = 0.0f;
        if (tid >= offset) partner = xs[tid - offset];
        __syncthreads();  /* all reads of this step done */
        if (tid >= offset) xs[tid] += partner;
        __syncthreads();  /* all writes of this step done */
    }

    if (gid < n) out[gid] = xs[tid];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;  // nothing to launch
    const unsigned sections = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE ? 1 : 0);
    kogge_stone_kernel<<<sections, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
