// Lab 03: exclusive scans. Read README.md first.
//
// out[i] is the sum of the elements of i's section *before* i; every section
// starts with the identity 0. Two kernels, two ways of getting there.
#include "scan.hpp"

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    // TODO(1): the shifted load. Load 0 at the section start (threadIdx.x == 0)
    // and x[i - 1] elsewhere (0 past the end); the inclusive scan of the
    // shifted section is the exclusive scan of the section.
    if (threadIdx.x != 0 && i < n) {
        buffer[src][threadIdx.x] = in[i - 1];  // shift right by one
    } else {
        buffer[src][threadIdx.x] = 0.0f;  // identity at the start (and past the end)
    }

    // TODO(2): the double-buffered Kogge-Stone loop of lab 01, reading
    // buffer[src] and writing buffer[src ^ 1] in each step.
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();  // previous step (or the load) is finished
        const unsigned dst = src ^ 1;
        if (threadIdx.x >= stride) {
            buffer[dst][threadIdx.x] = buffer[src][threadIdx.x] + buffer[src][threadIdx.x - stride];
        } else {
            buffer[dst][threadIdx.x] = buffer[src][threadIdx.x];
        }
        src = dst;  // swap the buffers
    }

    if (i < n) out[i] = buffer[src][threadIdx.x];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // TODO(3): the up-sweep: lab 02's reduction tree (stride = 1 ... 1024).
    for (unsigned stride = 1; stride <= BK_SECTION_SIZE / 2; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) {
            section[index] += section[index - stride];
        }
    }

    // TODO(4): clear the last element (one thread sets section[2047] to 0):
    // it is the identity that the down-sweep hands down to every position.
    // (thread 0 did the last up-sweep step itself, so no barrier is needed)
    if (t == 0) {
        section[BK_SECTION_SIZE - 1] = 0.0f;
    }

    // TODO(5): the down-sweep. For stride = 1024, 512, ..., 1, after a
    // __syncthreads(), for index = (t + 1) * 2 * stride - 1 < BK_SECTION_SIZE:
    // the left child section[index - stride] takes the parent's value
    // section[index], and the parent becomes parent + old left child.
    for (unsigned stride = BK_SECTION_SIZE / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) {
            const float left = section[index - stride];  // old left child
            section[index - stride] = section[index];
            section[index] += left;
        }
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
