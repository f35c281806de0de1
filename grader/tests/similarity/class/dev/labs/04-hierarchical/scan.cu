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

    // Inside one section all positions are below 2048, so plain ints are
    // safe for the shared-memory indices.  Only the global offsets need the
    // 64-bit std::size_t.
    const int tid = static_cast<int>(t);
    const int size = static_cast<int>(SECTION_SIZE);

    // Reduction tree.  At a given offset the node at (tid + 1) * 2 * offset - 1
    // absorbs the partial sum offset places to its left, so after the last
    // level the final element holds the total of the section.
    int offset = 1;
    while (offset < size) {
        // The level below must be finished before we combine its results.
        __syncthreads();
        const int index = (tid + 1) * 2 * offset - 1;
        if (index < size) {
            section[index] += section[index - offset];
        }
        offset = offset * 2;
    }

    // Distribution tree.  The partial sum stored at a node covers a block of
    // offset * 2 elements ending there; the element offset places to its
    // right still misses exactly that block, so we add it in.  Going from
    // large offsets to small ones completes every prefix.
    offset = size / 4;
    while (offset > 0) {
        // The previous level's additions must be visible first.
        __syncthreads();
        const int index = (tid + 1) * 2 * offset - 1;
        if (index + offset < size) {
            section[index + offset] += section[index];
        }
        offset = offset / 2;
    }

    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];

    // The last element of the scanned section is the sum of the whole
    // section (the padding zeros of a partial section add nothing), so the
    // thread that owns the last element publishes it as the section total.
    if (block_sums != nullptr && tid == static_cast<int>(BLOCK_SIZE) - 1) {
        block_sums[blockIdx.x] = section[size - 1];
    }
}

// Kernel 3: add the scanned totals back.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    // This kernel runs with one block for every section except the first.
    // Block b works on section b + 1, and scanned_sums[b] is the sum of all
    // elements of sections 0 to b, which is exactly what the local scan of
    // section b + 1 is missing.
    const float carry = scanned_sums[blockIdx.x];
    const std::size_t start = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;
    // The last section may be shorter than SECTION_SIZE, so every element is
    // checked against n before we touch it.
    unsigned k = threadIdx.x;
    while (k < SECTION_SIZE) {
        const std::size_t i = start + k;
        if (i < n) {
            out[i] += carry;
        }
        k += BLOCK_SIZE;
    }
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);

    // A single section needs no hierarchy: its local scan is the answer.
    if (sections == 1) {
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }

    // One total per section.  The scanned totals are written back into the
    // same array, which is safe because every block of kernel 1 reads and
    // writes only its own elements, and each element through the same thread.
    float* d_sums = nullptr;
    cudaMalloc(reinterpret_cast<void**>(&d_sums), sections * sizeof(float));

    scan_sections_kernel<<<static_cast<unsigned>(sections), BLOCK_SIZE>>>(d_in, d_out, n, d_sums);

    // The totals form an array of their own whose inclusive scan gives, for
    // every section, the sum of everything up to its end.  The recursion
    // adds as many levels as the length requires.
    hierarchical_scan(d_sums, d_sums, sections);

    // Section 0 already has its final values, so only sections - 1 blocks
    // are needed for the add-back.
    add_block_sums_kernel<<<static_cast<unsigned>(sections - 1), BLOCK_SIZE>>>(d_out, n, d_sums);

    cudaFree(d_sums);
}
