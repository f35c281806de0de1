// Lab 04 in one kernel launch: every block scans its 2048 elements, then
// waits for the block before it to publish the running total up to its
// section, adds that in and publishes its own. Blocks take their section
// from a ticket counter, not blockIdx.x, so the section before mine belongs
// to a block that started before me and cannot be stuck behind me.
#include <cuda_runtime.h>

#include "scan.hpp"

namespace {

struct Chain {
    unsigned next_ticket;  // hands out sections in the order blocks start
    unsigned pad;
};

__global__ void chained_scan(const float* in, float* out, std::size_t n, Chain* chain, int* ready, float* running) {
    __shared__ float buf[SECTION_SIZE];
    __shared__ unsigned my_section;
    __shared__ float carry;
    const unsigned tid = threadIdx.x;

    if (tid == 0) my_section = atomicAdd(&chain->next_ticket, 1u);
    __syncthreads();
    const unsigned sec = my_section;
    const std::size_t base = std::size_t{sec} * SECTION_SIZE;
    const std::size_t left = n - base;

    // Two elements a thread, neighbours, so the loads are coalesced pairs.
    for (unsigned i = tid; i < SECTION_SIZE; i += blockDim.x) buf[i] = i < left ? in[base + i] : 0.0f;

    // Up-sweep: contiguous threads do the work at every level.
    for (unsigned gap = 1; gap < SECTION_SIZE; gap *= 2) {
        __syncthreads();
        const unsigned at = (tid + 1) * 2 * gap - 1;
        if (at < SECTION_SIZE) buf[at] += buf[at - gap];
    }
    // Down-sweep: push the partial sums to the elements in between.
    for (unsigned gap = SECTION_SIZE / 4; gap >= 1; gap /= 2) {
        __syncthreads();
        const unsigned at = (tid + 1) * 2 * gap - 1;
        if (at + gap < SECTION_SIZE) buf[at + gap] += buf[at];
    }
    __syncthreads();

    // One thread talks to the neighbours: wait for section sec-1's running
    // total, then publish mine (the total, then the flag, a fence between).
    if (tid == 0) {
        float before = 0.0f;
        if (sec > 0) {
            while (atomicAdd(&ready[sec - 1], 0) == 0) {
            }
            before = atomicAdd(&running[sec - 1], 0.0f);
        }
        atomicExch(&running[sec], before + buf[SECTION_SIZE - 1]);
        __threadfence();
        atomicExch(&ready[sec], 1);
        carry = before;
    }
    __syncthreads();

    const float add = carry;
    for (unsigned i = tid; i < SECTION_SIZE; i += blockDim.x)
        if (i < left) out[base + i] = buf[i] + add;
}

}  // namespace

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const std::size_t sections = (n + SECTION_SIZE - 1) / SECTION_SIZE;

    // One allocation for the ticket counter, the flags and the totals.
    const std::size_t bytes = sizeof(Chain) + sections * (sizeof(int) + sizeof(float));
    void* scratch = nullptr;
    cudaMalloc(&scratch, bytes);
    cudaMemset(scratch, 0, bytes);
    Chain* chain = static_cast<Chain*>(scratch);
    int* ready = reinterpret_cast<int*>(chain + 1);
    float* running = reinterpret_cast<float*>(ready + sections);

    chained_scan<<<static_cast<unsigned>(sections), BLOCK_SIZE>>>(d_in, d_out, n, chain, ready, running);
    cudaDeviceSynchronize();
    cudaFree(scratch);
}
