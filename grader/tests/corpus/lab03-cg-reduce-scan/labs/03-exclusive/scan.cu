// Lab 03 -- exclusive scans with cooperative groups.
//
// Kogge-Stone: no shifted load needed -- cg::exclusive_scan over each warp gives
// the exclusive value directly, cg::reduce gives the warp total, and warp 0
// exclusive-scans the 32 totals.
// Brent-Kung: Blelloch's up-sweep / clear / down-sweep, written against the
// cg::thread_block API; the number of tree levels comes from __clz.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <cstddef>

#include "scan.hpp"

namespace cg = cooperative_groups;

__global__ void ks_exclusive_cg(const float* in, float* out, unsigned n)
{
    auto block = cg::this_thread_block();
    auto tile = cg::tiled_partition<32>(block);
    __shared__ float warp_base[KS_BLOCK_SIZE / 32];

    const size_t i = size_t(block.group_index().x) * KS_SECTION_SIZE + block.thread_rank();
    const float x = i < n ? in[i] : 0.0f;

    const float before_me = cg::exclusive_scan(tile, x);                 // within my warp
    const float warp_sum = cg::reduce(tile, x, cg::plus<float>());       // same in every lane
    if (tile.thread_rank() == 0) warp_base[tile.meta_group_rank()] = warp_sum;
    block.sync();

    if (tile.meta_group_rank() == 0) {
        const unsigned w = tile.thread_rank();
        warp_base[w] = cg::exclusive_scan(tile, warp_base[w]);
    }
    block.sync();

    if (i < n) out[i] = warp_base[tile.meta_group_rank()] + before_me;
}

__global__ void bk_exclusive_cg(const float* in, float* out, unsigned n)
{
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[BK_SECTION_SIZE];

    const unsigned t = block.thread_index().x;
    const unsigned threads = block.dim_threads().x;           // BK_BLOCK_SIZE
    const size_t base = size_t(block.group_index().x) * BK_SECTION_SIZE;
    const size_t len = n - base < BK_SECTION_SIZE ? n - base : BK_SECTION_SIZE;

    for (unsigned k = t; k < BK_SECTION_SIZE; k += threads) s[k] = k < len ? in[base + k] : 0.0f;

    const int levels = 31 - __clz(BK_SECTION_SIZE);          // log2(2048) = 11

    // up-sweep
    for (int l = 0; l < levels; ++l) {
        block.sync();
        const unsigned stride = 1u << l;
        const unsigned right = (t + 1) * (2 * stride) - 1;
        if (right < BK_SECTION_SIZE) s[right] += s[right - stride];
    }
    block.sync();
    if (t == 0) s[BK_SECTION_SIZE - 1] = 0.0f;
    // down-sweep
    for (int l = levels - 1; l >= 0; --l) {
        block.sync();
        const unsigned stride = 1u << l;
        const unsigned right = (t + 1) * (2 * stride) - 1;
        if (right < BK_SECTION_SIZE) {
            const float left_old = s[right - stride];
            s[right - stride] = s[right];
            s[right] += left_old;
        }
    }
    block.sync();

    for (unsigned k = t; k < len; k += threads) out[base + k] = s[k];
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n)
{
    if (!n) return;
    const unsigned grid = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE ? 1 : 0);
    ks_exclusive_cg<<<grid, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n)
{
    if (!n) return;
    const unsigned grid = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE ? 1 : 0);
    bk_exclusive_cg<<<grid, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
