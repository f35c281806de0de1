// Lab 05 -- single-pass scan, decoupled look-back, libcu++ edition.
//
// Status of a tile = one 64-bit word {flag, value bits}, written with a
// release store and read with acquire loads through cuda::atomic_ref, so a
// reader can never see a flag without its value.  The look-back is serial (one
// thread walks the predecessors, nearest first) with an exponential
// __nanosleep back-off while a predecessor is NOT_READY.  The tile scan uses
// cooperative groups.  Temporaries: stream-ordered allocator.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstdint>

#include "scan.hpp"

namespace cg = cooperative_groups;

namespace {

enum : unsigned { NOT_READY = 0, AGGREGATE = 1, INCLUSIVE = 2 };

struct TileStatus {
    unsigned flag;
    float value;

    __device__ static TileStatus decode(unsigned long long w)
    {
        return {static_cast<unsigned>(w >> 32), __uint_as_float(static_cast<unsigned>(w & 0xffffffffull))};
    }
    __device__ unsigned long long encode() const
    {
        return (static_cast<unsigned long long>(flag) << 32) | __float_as_uint(value);
    }
};

using status_ref = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

__device__ void publish(unsigned long long* status, unsigned tile, unsigned flag, float value)
{
    status_ref(status[tile]).store(TileStatus{flag, value}.encode(), cuda::memory_order_release);
}

// Exclusive prefix of `tile` (> 0), by one thread.
__device__ float look_back(unsigned long long* status, unsigned tile)
{
    float prefix = 0.0f;
    for (unsigned pred = tile; pred-- > 0;) {
        TileStatus st;
        unsigned backoff = 8;
        for (;;) {
            st = TileStatus::decode(status_ref(status[pred]).load(cuda::memory_order_acquire));
            if (st.flag != NOT_READY) break;
            __nanosleep(backoff);
            backoff = min(backoff * 2, 256u);
        }
        prefix += st.value;
        if (st.flag == INCLUSIVE) break;   // it already holds everything before it
    }
    return prefix;
}

template <bool kAligned>
__global__ void __launch_bounds__(BLOCK_SIZE)
single_pass_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t n,
                   unsigned long long* status, unsigned* ticket)
{
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);

    __shared__ unsigned s_tile;
    __shared__ float s_warp[BLOCK_SIZE / 32];
    __shared__ float s_prefix;

    // tiles are numbered in the order blocks start, not by blockIdx.x
    if (block.thread_rank() == 0)
        s_tile = cuda::atomic_ref<unsigned, cuda::thread_scope_device>(*ticket).fetch_add(1u, cuda::memory_order_relaxed);
    block.sync();
    const unsigned tile = s_tile;

    const std::size_t first = std::size_t(tile) * TILE_SIZE + std::size_t(block.thread_rank()) * ITEMS_PER_THREAD;
    float v[ITEMS_PER_THREAD];
    const bool whole = kAligned && first + ITEMS_PER_THREAD <= n;
    if (whole) {
        const float4* p = reinterpret_cast<const float4*>(in + first);
#pragma unroll
        for (unsigned q = 0; q < ITEMS_PER_THREAD / 4; ++q) {
            const float4 f = p[q];
            v[4 * q] = f.x;
            v[4 * q + 1] = f.y;
            v[4 * q + 2] = f.z;
            v[4 * q + 3] = f.w;
        }
    } else {
#pragma unroll
        for (unsigned k = 0; k < ITEMS_PER_THREAD; ++k) v[k] = first + k < n ? in[first + k] : 0.0f;
    }

#pragma unroll
    for (unsigned k = 1; k < ITEMS_PER_THREAD; ++k) v[k] += v[k - 1];
    const float mine = v[ITEMS_PER_THREAD - 1];

    const float warp_incl = cg::inclusive_scan(warp, mine);
    float before_me = warp.shfl_up(warp_incl, 1);
    if (warp.thread_rank() == 0) before_me = 0.0f;
    if (warp.thread_rank() == warp.num_threads() - 1) s_warp[warp.meta_group_rank()] = warp_incl;
    block.sync();

    if (warp.meta_group_rank() == 0) {
        const float w = s_warp[warp.thread_rank()];
        const float aggregate = cg::reduce(warp, w, cg::plus<float>());
        s_warp[warp.thread_rank()] = cg::exclusive_scan(warp, w);
        if (warp.thread_rank() == 0) {
            float prefix = 0.0f;
            if (tile == 0) {
                publish(status, 0, INCLUSIVE, aggregate);
            } else {
                publish(status, tile, AGGREGATE, aggregate);
                prefix = look_back(status, tile);
                publish(status, tile, INCLUSIVE, prefix + aggregate);
            }
            s_prefix = prefix;
        }
    }
    block.sync();

    const float add = s_prefix + s_warp[warp.meta_group_rank()] + before_me;
    if (whole) {
        float4* p = reinterpret_cast<float4*>(out + first);
#pragma unroll
        for (unsigned q = 0; q < ITEMS_PER_THREAD / 4; ++q)
            p[q] = make_float4(v[4 * q] + add, v[4 * q + 1] + add, v[4 * q + 2] + add, v[4 * q + 3] + add);
    } else {
#pragma unroll
        for (unsigned k = 0; k < ITEMS_PER_THREAD; ++k)
            if (first + k < n) out[first + k] = v[k] + add;
    }
}

}  // namespace

void single_pass_scan(const float* d_in, float* d_out, std::size_t n)
{
    if (n == 0) return;
    const unsigned tiles = static_cast<unsigned>((n + TILE_SIZE - 1) / TILE_SIZE);
    const cudaStream_t stream = 0;

    unsigned long long* status = nullptr;
    unsigned* ticket = nullptr;
    cudaMallocAsync(&status, tiles * sizeof(unsigned long long), stream);
    cudaMallocAsync(&ticket, sizeof(unsigned), stream);
    cudaMemsetAsync(status, 0, tiles * sizeof(unsigned long long), stream);
    cudaMemsetAsync(ticket, 0, sizeof(unsigned), stream);

    const bool aligned = (reinterpret_cast<std::uintptr_t>(d_in) | reinterpret_cast<std::uintptr_t>(d_out)) % 16 == 0;
    if (aligned)
        single_pass_kernel<true><<<tiles, BLOCK_SIZE, 0, stream>>>(d_in, d_out, n, status, ticket);
    else
        single_pass_kernel<false><<<tiles, BLOCK_SIZE, 0, stream>>>(d_in, d_out, n, status, ticket);

    cudaFreeAsync(status, stream);
    cudaFreeAsync(ticket, stream);
    cudaStreamSynchronize(stream);
}
