// Ordering between blocks: data published before a flag with no fence, and
// a block that waits for a flag a block not yet started would set.
#include <vector>

#include "safety.hpp"

namespace {

constexpr unsigned kThreads = 256;

__device__ int tile_sum(const int* tile_in, int* partial) {
    const unsigned t = threadIdx.x;
    partial[t] = tile_in[t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    return partial[0];
}

// A sum in one pass, as the Programming Guide's __threadfence() example
// does it: each block stores its sum, takes a ticket, and the block with the
// last ticket adds up the sums. The bug leaves out the fences: the ticket
// may be visible before the sum stored ahead of it, and the last block may
// read a sum before it arrives.
__global__ void sum_last_block_bug(const int* in, int* sums, unsigned* tickets, int* total) {
    __shared__ int partial[256];
    __shared__ bool last;
    const int sum = tile_sum(in + blockIdx.x * blockDim.x, partial);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = sum;
        last = atomicAdd(tickets, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int all = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) all += sums[b];
        *total = all;
    }
}

__global__ void sum_last_block_clean(const int* in, int* sums, unsigned* tickets, int* total) {
    __shared__ int partial[256];
    __shared__ bool last;
    const int sum = tile_sum(in + blockIdx.x * blockDim.x, partial);
    if (threadIdx.x == 0) {
        sums[blockIdx.x] = sum;
        __threadfence();  // the sum is visible to every block before the ticket is
        last = atomicAdd(tickets, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        __threadfence();  // and read after the ticket (the PTX memory model asks for both)
        int all = 0;
        for (unsigned b = 0; b < gridDim.x; ++b) all += sums[b];
        *total = all;
    }
}

// Running totals of the tiles' sums, carried from tile to tile (a chained
// scan): a tile's block waits for the flag of the tile before it. The bug
// takes the tile from blockIdx.x, so a block may wait for a block that has
// not started and need not start until a running block ends; the fix takes
// tiles in the order blocks start, from a counter.
__global__ void carry_bug(const int* in, int* carries, int* flags, int* before_tile) {
    __shared__ int partial[256];
    const unsigned tile = blockIdx.x;
    const int sum = tile_sum(in + tile * blockDim.x, partial);
    if (threadIdx.x == 0) {
        int before = 0;
        if (tile > 0) {
            while (atomicAdd(&flags[tile - 1], 0) == 0) {
            }
            __threadfence();
            before = carries[tile - 1];
        }
        carries[tile] = before + sum;
        __threadfence();
        atomicExch(&flags[tile], 1);
        before_tile[tile] = before;
    }
}

__global__ void carry_clean(const int* in, int* carries, int* flags, int* before_tile, unsigned* next_tile) {
    __shared__ int partial[256];
    __shared__ unsigned tile;
    if (threadIdx.x == 0) tile = atomicAdd(next_tile, 1u);
    __syncthreads();
    const int sum = tile_sum(in + tile * blockDim.x, partial);
    if (threadIdx.x == 0) {
        int before = 0;
        if (tile > 0) {
            while (atomicAdd(&flags[tile - 1], 0) == 0) {
            }
            __threadfence();
            before = carries[tile - 1];
        }
        carries[tile] = before + sum;
        __threadfence();
        atomicExch(&flags[tile], 1);
        before_tile[tile] = before;
    }
}

std::vector<int> inputs(unsigned n) {
    std::vector<int> v(n);
    for (unsigned i = 0; i < n; ++i) v[i] = static_cast<int>(i % 17) - 8;
    return v;
}

}  // namespace

SAFETY_CASE(missing_fence, "missing fence between blocks") {
    constexpr unsigned blocks = 8;
    const auto input = inputs(blocks * kThreads);
    safety::Buffer<int> in(input), sums(blocks), total(1);
    safety::Buffer<unsigned> tickets(1);
    tickets.zero();
    total.zero();
    if (r.bug) sum_last_block_bug<<<blocks, kThreads>>>(in, sums, tickets, total);
    else sum_last_block_clean<<<blocks, kThreads>>>(in, sums, tickets, total);
    r.require(cudaGetLastError(), "launch");
    int want = 0;
    for (int x : input) want += x;
    r.clean_result("total", total.get(), std::vector<int>{want});
}

SAFETY_CASE(block_order, "block-order dependence (possible deadlock)") {
    constexpr unsigned blocks = 16;
    const auto input = inputs(blocks * kThreads);
    safety::Buffer<int> in(input), carries(blocks), flags(blocks), before(blocks);
    safety::Buffer<unsigned> next_tile(1);
    flags.zero();
    next_tile.zero();
    if (r.bug) carry_bug<<<blocks, kThreads>>>(in, carries, flags, before);
    else carry_clean<<<blocks, kThreads>>>(in, carries, flags, before, next_tile);
    r.require(cudaGetLastError(), "launch");
    std::vector<int> want(blocks, 0);
    for (unsigned b = 1; b < blocks; ++b)
        for (unsigned t = 0; t < kThreads; ++t) want[b] += input[(b - 1) * kThreads + t];
    for (unsigned b = 1; b < blocks; ++b) want[b] += want[b - 1];
    r.clean_result("running totals before each tile", before.get(), want);
}
