// Lab 04: a scan of any length. Read README.md first.
//
// One block scans one 2048-element section. For longer inputs: (1) scan every
// section and record its total, (2) scan the totals, (3) add the scanned
// total of all earlier sections to every element of each section. Step (2)
// is itself a scan that may need the whole hierarchy again.
#include <cuda_runtime.h>

#include "scan.hpp"

__device__ __forceinline__ unsigned P(unsigned k) { return k + (k >> 5); }
__device__ __forceinline__ unsigned nd(unsigned t, unsigned s) { return (t + 1) * (s << 1) - 1; }

// Kernel 1: scan each section; with block_sums, also record each section's
// total at block_sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE + (SECTION_SIZE >> 5)];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;  // < n
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        section[P(k)] = k < n - start ? in[start + k] : 0.0f;

    for (unsigned s = 1; s < SECTION_SIZE; s <<= 1) {
        __syncthreads();
        const unsigned d = nd(t, s);
        if (d < SECTION_SIZE) section[P(d)] += section[P(d - s)];
    }
    for (unsigned s = SECTION_SIZE >> 2; s; s >>= 1) {
        __syncthreads();
        const unsigned d = nd(t, s);
        if (d + s < SECTION_SIZE) section[P(d + s)] += section[P(d)];
    }

    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[P(k)];

    if (block_sums && t == BLOCK_SIZE - 1) block_sums[blockIdx.x] = section[P(SECTION_SIZE - 1)];
}

// Kernel 3: add the scanned totals back.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    const float v = scanned_sums[blockIdx.x];
    std::size_t i = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE + threadIdx.x;
    if (i < n) out[i] += v;
    if ((i += BLOCK_SIZE) < n) out[i] += v;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);
    float* sums = nullptr;
    if (sections > 1) cudaMalloc(&sums, sections * sizeof(float));
    scan_sections_kernel<<<static_cast<unsigned>(sections), BLOCK_SIZE>>>(d_in, d_out, n, sums);
    if (!sums) return;
    hierarchical_scan(sums, sums, sections);  // in place
    add_block_sums_kernel<<<static_cast<unsigned>(sections - 1), BLOCK_SIZE>>>(d_out, n, sums);
    cudaFree(sums);
}
