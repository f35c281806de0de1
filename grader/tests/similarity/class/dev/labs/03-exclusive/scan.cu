// Lab 03: exclusive scans. Read README.md first.
//
// out[i] is the sum of the elements of i's section *before* i; every section
// starts with the identity 0. Two kernels, two ways of getting there.
#include "scan.hpp"

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    // The exclusive scan of x equals the inclusive scan of x shifted right by
    // one place with a zero in front.  So the first thread of the section
    // loads the identity 0 and every other thread loads its left neighbour
    // x[i - 1].  Positions past the end of the input are padded with 0,
    // which does not change any sum that we actually store.
    const int tid = static_cast<int>(threadIdx.x);
    float shifted = 0.0f;
    if (tid > 0 && i < n) {
        shifted = in[i - 1];
    }
    buffer[src][tid] = shifted;

    // Kogge-Stone: after the step with a given offset, every position holds
    // the sum of the (2 * offset) shifted inputs that end at it.  We read
    // from one half of the buffer and write into the other, so no thread
    // ever overwrites a value that another thread still has to read.
    int offset = 1;
    while (offset < static_cast<int>(KS_SECTION_SIZE)) {
        // All writes of the previous step (or of the load) must be visible
        // before anyone reads them in this step.
        __syncthreads();
        const unsigned dst = src ^ 1u;
        if (tid >= offset) {
            buffer[dst][tid] = buffer[src][tid] + buffer[src][tid - offset];
        } else {
            buffer[dst][tid] = buffer[src][tid];
        }
        src = dst;
        offset = offset * 2;
    }

    // Each thread reads back only the element it wrote itself in the last
    // step, so no further barrier is needed here.
    if (i < n) out[i] = buffer[src][threadIdx.x];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    const int tid = static_cast<int>(t);
    const int size = static_cast<int>(BK_SECTION_SIZE);

    // Up-sweep (reduction tree).  With a given offset, thread tid owns the
    // node at position (tid + 1) * 2 * offset - 1 and adds in the partial sum
    // that sits offset places to its left.  Using consecutive thread ids for
    // consecutive nodes keeps the busy threads packed into the first warps.
    int offset = 1;
    while (offset < size) {
        // The children computed in the previous level must be complete.
        __syncthreads();
        const int index = (tid + 1) * 2 * offset - 1;
        if (index < size) {
            section[index] += section[index - offset];
        }
        offset = offset * 2;
    }

    // The root now holds the total of the whole section.  Thread 0 was the
    // one that wrote the root in the last level, so it can replace it with
    // the identity 0 without waiting: this zero is what the down-sweep hands
    // down to the first element.
    if (tid == 0) {
        section[size - 1] = 0.0f;
    }

    // Down-sweep.  Going back down the same tree, every node passes its own
    // value (the sum of everything to the left of its subtree) to its left
    // child, and keeps for itself that value plus the left child's old
    // value, which is the sum of the left subtree.  At the bottom every
    // element holds exactly the sum of the elements before it.
    offset = size / 2;
    while (offset > 0) {
        // The parents written in the previous level (or the cleared root)
        // must be visible before we read them.
        __syncthreads();
        const int index = (tid + 1) * 2 * offset - 1;
        if (index < size) {
            const float left = section[index - offset];
            section[index - offset] = section[index];
            section[index] += left;
        }
        offset = offset / 2;
    }

    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
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
