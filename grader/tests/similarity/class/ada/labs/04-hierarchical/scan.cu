// Lab 04: a scan of any length. Read README.md first.
//
// One block scans one 2048-element section. For longer inputs: (1) scan every
// section and record its total, (2) scan the totals, (3) add the scanned
// total of all earlier sections to every element of each section. Step (2)
// is itself a scan that may need the whole hierarchy again.
#include <cuda_runtime.h>

#include "scan.hpp"

// Kernel 1: scan each section; with block_sums, also record each section's
// total at block_sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;  // < n
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // TODO(1): scan `section` in place (your Brent-Kung trees of lab 02).
    // Reduction tree: stride = 1, 2, ..., 1024.
    for (unsigned stride = 1; stride <= BLOCK_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < SECTION_SIZE) {
            section[index] += section[index - stride];
        }
    }
    // Distribution tree: stride = 512, 256, ..., 1.
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < SECTION_SIZE) {
            section[index + stride] += section[index];
        }
    }

    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];

    // TODO(2): if block_sums is not null, one thread writes the section's
    // total (its last scanned element) to block_sums[blockIdx.x].
    // (the padding zeros make section[2047] the total of a partial section too)
    if (block_sums != nullptr && t == BLOCK_SIZE - 1) {
        block_sums[blockIdx.x] = section[SECTION_SIZE - 1];
    }
}

// Kernel 3: add the scanned totals back.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    // TODO(3): block b adds scanned_sums[b], the total of sections 0..b, to
    // every element of section b + 1 (mind the partial last section).
    const unsigned t = threadIdx.x;
    const std::size_t start = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;  // section b + 1
    const float previous_total = scanned_sums[blockIdx.x];
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE) {
        if (k < n - start) {
            out[start + k] += previous_total;
        }
    }
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);
    // TODO(4): with more than one section: cudaMalloc the block sums, launch
    // kernel 1 with them, scan them (call hierarchical_scan on them: as many
    // levels as n needs), launch kernel 3 over sections - 1 blocks, and
    // cudaFree the sums before returning.
    if (sections == 1) {
        // one section: no block sums needed
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }

    float* d_block_sums = nullptr;
    float* d_scanned_sums = nullptr;
    cudaMalloc(&d_block_sums, sections * sizeof(float));
    cudaMalloc(&d_scanned_sums, sections * sizeof(float));

    // step 1: scan each section and record its total
    scan_sections_kernel<<<static_cast<unsigned>(sections), BLOCK_SIZE>>>(d_in, d_out, n, d_block_sums);

    // step 2: scan the totals (recursion: as many levels as needed)
    hierarchical_scan(d_block_sums, d_scanned_sums, sections);

    // step 3: add the totals of the earlier sections to sections 1 .. sections - 1
    add_block_sums_kernel<<<static_cast<unsigned>(sections - 1), BLOCK_SIZE>>>(d_out, n, d_scanned_sums);

    cudaFree(d_block_sums);
    cudaFree(d_scanned_sums);
}
