// Lab 04 -- scan of any length.
//
// Kernel 1 scans a 2048-element section with 1024 threads: each thread owns two
// CONSECUTIVE elements (one float2 load), the 1024 pair sums are scanned with
// thread_block_tile<32>::shfl_up and a second level over the 32 warp totals.
// Kernel 2 is the same function called recursively on the section totals.
// Kernel 3 adds the carries in a grid-stride loop whose grid comes from the
// occupancy calculator; lanes of a warp that need the same carry elect one
// loader with __match_any_sync (the Volta "match" idiom).
// Temporaries come from the stream-ordered allocator on a stream of my own.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "scan.hpp"

namespace cg = cooperative_groups;

constexpr unsigned WARPS = BLOCK_SIZE / 32;
constexpr unsigned ADD_THREADS = 256;

// in may equal out (the recursion scans the totals in place): no __restrict__.
__global__ void __launch_bounds__(BLOCK_SIZE)
section_scan(const float* in, float* out, size_t n, float* sums, bool vec)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ float warp_incl[WARPS];

    const size_t j = size_t(blockIdx.x) * SECTION_SIZE + 2 * size_t(threadIdx.x);
    float a = 0.0f, b = 0.0f;
    if (vec && j + 1 < n) {
        const float2 p = *reinterpret_cast<const float2*>(in + j);
        a = p.x;
        b = p.y;
    } else {
        if (j < n) a = in[j];
        if (j + 1 < n) b = in[j + 1];
    }

    float s = a + b;   // inclusive scan of the pair sums within the warp
    for (unsigned d = 1; d < tile.size(); d *= 2) {
        const float y = tile.shfl_up(s, d);
        if (tile.thread_rank() >= d) s += y;
    }
    float ex = tile.shfl_up(s, 1);
    if (tile.thread_rank() == 0) ex = 0.0f;
    if (tile.thread_rank() == tile.size() - 1) warp_incl[tile.meta_group_rank()] = s;
    block.sync();

    if (tile.meta_group_rank() == 0) {
        float w = warp_incl[tile.thread_rank()];
        for (unsigned d = 1; d < tile.size(); d *= 2) {
            const float y = tile.shfl_up(w, d);
            if (tile.thread_rank() >= d) w += y;
        }
        warp_incl[tile.thread_rank()] = w;
    }
    block.sync();

    const unsigned wid = tile.meta_group_rank();
    const float base = (wid ? warp_incl[wid - 1] : 0.0f) + ex;
    const float ra = base + a, rb = base + a + b;
    if (vec && j + 1 < n) {
        *reinterpret_cast<float2*>(out + j) = make_float2(ra, rb);
    } else {
        if (j < n) out[j] = ra;
        if (j + 1 < n) out[j + 1] = rb;
    }
    if (sums != nullptr && threadIdx.x == 0) sums[blockIdx.x] = warp_incl[WARPS - 1];
}

// out[i] += (scanned total of sections 0 .. i/SECTION_SIZE - 1), for i >= SECTION_SIZE
__global__ void add_carry(float* out, size_t n, const float* scanned)
{
    const unsigned lane = threadIdx.x % 32;
    const size_t warp_id = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
    const size_t warp_count = size_t(gridDim.x) * (blockDim.x / 32);

    for (size_t first = SECTION_SIZE + warp_id * 32; first < n; first += warp_count * 32) {
        const size_t idx = first + lane;
        const bool ok = idx < n;
        const unsigned active = __ballot_sync(0xffffffffu, ok);
        if (ok) {
            const unsigned long long section = idx / SECTION_SIZE;   // >= 1
            const unsigned peers = __match_any_sync(active, section);
            const int leader = __ffs(peers) - 1;
            float carry = 0.0f;
            if (static_cast<int>(lane) == leader) carry = __ldcg(scanned + (section - 1));
            carry = __shfl_sync(peers, carry, leader);
            __stcg(out + idx, __ldcg(out + idx) + carry);
        }
    }
}

static void scan_level(const float* in, float* out, size_t n, cudaStream_t st, unsigned max_add_blocks)
{
    const size_t sections = (n + SECTION_SIZE - 1) / SECTION_SIZE;
    const bool vec = ((reinterpret_cast<std::uintptr_t>(in) | reinterpret_cast<std::uintptr_t>(out)) % alignof(float2)) == 0;
    if (sections == 1) {
        section_scan<<<1, BLOCK_SIZE, 0, st>>>(in, out, n, nullptr, vec);
        return;
    }
    float* sums = nullptr;
    cudaMallocAsync(reinterpret_cast<void**>(&sums), sections * sizeof(float), st);
    section_scan<<<static_cast<unsigned>(sections), BLOCK_SIZE, 0, st>>>(in, out, n, sums, vec);
    scan_level(sums, sums, sections, st, max_add_blocks);   // the totals, in place
    const size_t warps_needed = (n - SECTION_SIZE + 31) / 32;
    const size_t blocks_needed = (warps_needed + ADD_THREADS / 32 - 1) / (ADD_THREADS / 32);
    const unsigned blocks = static_cast<unsigned>(std::min<size_t>(max_add_blocks, blocks_needed));
    add_carry<<<blocks, ADD_THREADS, 0, st>>>(out, n, sums);
    cudaFreeAsync(sums, st);
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n)
{
    if (n == 0) return;

    static unsigned max_add_blocks = 0;   // enough blocks to fill the GPU once
    if (max_add_blocks == 0) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, dev);
        int per_sm = 0;
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, add_carry, ADD_THREADS, 0);
        max_add_blocks = static_cast<unsigned>(std::max(per_sm, 1) * prop.multiProcessorCount);
    }

    cudaStream_t st;
    cudaStreamCreate(&st);   // blocking: ordered after the caller's copies on the legacy stream
    scan_level(d_in, d_out, n, st, max_add_blocks);
    cudaStreamSynchronize(st);   // results ready and every cudaFreeAsync done before returning
    cudaStreamDestroy(st);
}
