// Lab 01 with cooperative groups (CUDA Programming Guide, "Cooperative
// Groups"): every warp scans its 32 values with cg::inclusive_scan, the last
// lane of each warp files the warp's total in shared memory, warp 0 scans the
// 32 totals the same way, and each thread adds the total of the warps before
// its own. No shared-memory Kogge-Stone steps, so no double buffer needed.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>

#include "scan.hpp"

namespace cg = cooperative_groups;

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float warp_totals[KS_BLOCK_SIZE / 32];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + block.thread_rank();

    // 1. scan inside the warp (shuffles, no shared memory)
    float x = i < n ? in[i] : 0.0f;
    x = cg::inclusive_scan(warp, x);
    if (warp.thread_rank() == warp.size() - 1) warp_totals[warp.meta_group_rank()] = x;
    block.sync();

    // 2. warp 0 turns the warp totals into running totals
    if (warp.meta_group_rank() == 0) {
        const float total = warp_totals[warp.thread_rank()];
        warp_totals[warp.thread_rank()] = cg::inclusive_scan(warp, total);
    }
    block.sync();

    // 3. add everything before my warp
    if (warp.meta_group_rank() > 0) x += warp_totals[warp.meta_group_rank() - 1];
    if (i < n) out[i] = x;
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
