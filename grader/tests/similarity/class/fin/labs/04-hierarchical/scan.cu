// Lab 04: a scan of any length. Read README.md first.
//
// One block scans one 2048-element section. For longer inputs: (1) scan every
// section and record its total, (2) scan the totals, (3) add the scanned
// total of all earlier sections to every element of each section. Step (2)
// is itself a scan that may need the whole hierarchy again.
#include <cuda_runtime.h>

#include "scan.hpp"

#define ADD_THREADS 256
#define SECTION_SHIFT 11  // 2048 == 1 << 11

// Kernel 1: scan each section; with block_sums, also record each section's
// total at block_sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;  // < n
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // TODO(1): reduction tree, then distribution tree
    unsigned d;
    for (d = 1; d < SECTION_SIZE; d <<= 1) {
        __syncthreads();
        const unsigned bi = ((t + 1) * d << 1) - 1;
        const unsigned ai = bi - d;
        if (bi < SECTION_SIZE) section[bi] += section[ai];
    }
    for (d = SECTION_SIZE >> 2; d > 0; d >>= 1) {
        __syncthreads();
        const unsigned left = ((t + 1) * d << 1) - 1;
        const unsigned right = left + d;
        if (right < SECTION_SIZE) section[right] += section[left];
    }

    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];

    // TODO(2): section total -> block_sums
    const unsigned last = SECTION_SIZE - 1;
    if (block_sums != nullptr && t == BLOCK_SIZE - 1) block_sums[blockIdx.x] = section[last];
}

// Kernel 3: add the scanned totals back.
// One thread per element of sections 1 .. end, over a plain 1-D grid: thread g
// handles element SECTION_SIZE + g, which belongs to section sec >= 1 and
// needs scanned_sums[sec - 1] (the total of sections 0 .. sec - 1).
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    const std::size_t g = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x;
    const std::size_t idx = g + SECTION_SIZE;
    if (idx >= n) return;
    const std::size_t sec = idx >> SECTION_SHIFT;
    out[idx] += scanned_sums[sec - 1];
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);

    // TODO(4)
    float* sums = nullptr;
    if (sections > 1) cudaMalloc((void**)&sums, sections * sizeof(float));

    scan_sections_kernel<<<static_cast<unsigned>(sections), BLOCK_SIZE>>>(d_in, d_out, n, sums);
    if (sections == 1) return;

    hierarchical_scan(sums, sums, sections);  // in place: each block only touches its own section

    const std::size_t rest = n - SECTION_SIZE;  // elements that need a carry
    const std::size_t grid = (rest + ADD_THREADS - 1) / ADD_THREADS;
    add_block_sums_kernel<<<static_cast<unsigned>(grid), ADD_THREADS>>>(d_out, n, sums);

    cudaFree(sums);
}
