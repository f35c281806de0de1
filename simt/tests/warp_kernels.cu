// Test kernels of grid syncs, warp and cache-hinted functions for the
// emulator, in CUDA syntax: the build rewrites this file with simt-rewrite
// as it rewrites a lab's scan.cu. test_simt.cpp asserts the line numbers below.
#include "kernels.hpp"

// ---- grid syncs, cooperative launches, __activemask, hinted accesses ----------
#include <cooperative_groups.h>

// Each block files its index, the grid syncs, each reads its neighbour's:
// right under a cooperative launch; a grid sync under <<<>>> stops the launch.
__global__ void grid_exchange(unsigned* slots, unsigned* out, int exit_block) {
    namespace cg = cooperative_groups;
    const cg::grid_group grid = cg::this_grid();
    if (static_cast<int>(blockIdx.x) == exit_block) return;
    if (threadIdx.x == 0) slots[blockIdx.x] = blockIdx.x + 1;
    grid.sync();  // line 16
    if (threadIdx.x == 0) out[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
}

cudaError_t launch_grid_exchange(unsigned* d_slots, unsigned* d_out, unsigned blocks, unsigned threads,
                                 int cooperative, int exit_block) {
    if (!cooperative) {
        grid_exchange<<<blocks, threads>>>(d_slots, d_out, exit_block);  // line 23
        return cudaGetLastError();
    }
    void* args[] = {&d_slots, &d_out, &exit_block};
    return cudaLaunchCooperativeKernel((void*)grid_exchange, dim3(blocks), dim3(threads), args);  // line 27
}

// __activemask in a loop whose iterations pick lanes: a GPU gives one group
// per iteration; the emulator's rendezvous merges them (simt/docs/warp.md).
__global__ void activemask_loop(unsigned* out) {
    for (unsigned i = 0; i < 4; ++i)
        if (threadIdx.x % 4 == i) out[threadIdx.x] = __activemask();
}

// __ldcg on a __shared__ array (global-only on a GPU); plain data read with
// __ldcg from another block without a flag (a race).
__global__ void hinted_misuse(unsigned* data, unsigned* out, int which) {
    __shared__ unsigned tile[32];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (which == 0) out[threadIdx.x] = __ldcg(&tile[threadIdx.x]);  // line 43
    if (which == 1) {
        if (blockIdx.x == 0) data[threadIdx.x] = 5;  // line 45
        else out[threadIdx.x] = __ldcg(&data[threadIdx.x]);  // line 46
    }
}

cudaError_t launch_activemask_loop(unsigned* d_out) {
    activemask_loop<<<1, 32>>>(d_out);
    return cudaGetLastError();
}

cudaError_t launch_hinted_misuse(unsigned* d_data, unsigned* d_out, int which) {
    hinted_misuse<<<2, 32>>>(d_data, d_out, which);  // line 56
    return cudaGetLastError();
}

// A wait that polls only through __nanosleep (its flag read with a plain
// load, not a poll): the back-off yields, so the block it waits for runs.
__global__ void nanosleep_wait(unsigned* tickets, unsigned* flags) {
    if (threadIdx.x != 0) return;
    const unsigned ticket = atomicAdd(tickets, 1u);
    if (ticket > 0)
        while (flags[ticket - 1] == 0u) __nanosleep(64);
    atomicExch(&flags[ticket], 1u);
}

cudaError_t launch_nanosleep_wait(unsigned* d_tickets, unsigned* d_flags, unsigned blocks) {
    nanosleep_wait<<<blocks, 32>>>(d_tickets, d_flags);
    return cudaGetLastError();
}

// A dynamic tile of 3 threads, which CUDA's cooperative groups trap on.
__global__ void bad_tile(unsigned* out) {
    namespace cg = cooperative_groups;
    const cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 3);  // line 78
    out[threadIdx.x] = static_cast<unsigned>(tile.size());
}

cudaError_t launch_bad_tile(unsigned* d_out) {
    bad_tile<<<1, 32>>>(d_out);  // line 83
    return cudaGetLastError();
}

// A publication between two blocks, as ptxas compiles the hinted accesses
// for an H100 (simt/docs/warp.md): block 0 writes data[0],
// fences and raises a flag; block 1 waits for it, fences and reads the data.
// `how`: 0 volatile flag, data read with __ldcg; 1 flag raised with __stcg;
// 2 with __stwt; 3 the wait polls with __ldcv; 4 with __ldcg; 5 the data is
// read with __ldg; 6 the flag is raised with __stcs.
__global__ void hinted_publication(unsigned* data, unsigned* flag, unsigned* out, int how) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 7;  // line 96
        __threadfence();
        if (how == 1) __stcg(flag, 1u);
        else if (how == 2) __stwt(flag, 1u);
        else if (how == 6) __stcs(flag, 1u);  // line 100
        else *(volatile unsigned*)flag = 1u;  // line 101
    } else {
        if (how == 3) while (__ldcv(flag) == 0u) {}  // line 103
        else if (how == 4) while (__ldcg(flag) == 0u) {}  // line 104
        else while (*(volatile unsigned*)flag == 0u) {}  // line 105
        __threadfence();
        if (how == 0) out[0] = __ldcg(&data[0]);
        else if (how == 5) out[0] = __ldg(&data[0]);  // line 108
        else out[0] = data[0];
    }
}

cudaError_t launch_hinted_publication(unsigned* d_data, unsigned* d_flag, unsigned* d_out, int how) {
    hinted_publication<<<2, 32>>>(d_data, d_flag, d_out, how);
    return cudaGetLastError();
}

// A launch from device code (dynamic parallelism; nvcc needs -rdc=true).
__global__ void nested_child(unsigned* out) { out[threadIdx.x] = 1u; }
__global__ void nested_parent(unsigned* out) {
    if (threadIdx.x == 0) nested_child<<<1, 32>>>(out);  // line 121
}

cudaError_t launch_nested(unsigned* d_out) {
    nested_parent<<<1, 32>>>(d_out);
    return cudaGetLastError();
}

// Warp functions whose mask leaves out the calling lane (compute-sanitizer
// synccheck's invalid arguments): every lane of the warp calls, the mask
// names lanes 0-15 alone. which 0: __syncwarp; 1: a shuffle; 2 (clean): only
// lanes 0-15 call, each named.
__global__ void mask_without_caller(int* out, int which) {
    const int lane = static_cast<int>(threadIdx.x % 32);
    int v = lane;
    if (which == 0) __syncwarp(0x0000ffffu);  // line 136
    if (which == 1) v = __shfl_sync(0x0000ffffu, lane, 0);  // line 137
    if (which == 2 && lane < 16) __syncwarp(0x0000ffffu);
    out[threadIdx.x] = v;
}

cudaError_t launch_mask_without_caller(int* d_out, int which) {
    mask_without_caller<<<1, 32>>>(d_out, which);
    return cudaGetLastError();
}
