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
// per iteration; the emulator's rendezvous merges them (simt/README.md).
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

// A wait that polls only through __nanosleep (its flag read with __ldca, a
// plain load, not a poll): the back-off yields, so the block it waits for runs.
__global__ void nanosleep_wait(unsigned* tickets, unsigned* flags) {
    if (threadIdx.x != 0) return;
    const unsigned ticket = atomicAdd(tickets, 1u);
    if (ticket > 0)
        while (__ldca(&flags[ticket - 1]) == 0u) __nanosleep(64);
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

// Block 0 writes data[0], fences and raises a flag with a volatile store;
// block 1 waits for it with __ldcv, fences and reads the data with __ldcg
// (weak: reported), then again with a plain load (ordered: not).
__global__ void weak_publication(unsigned* data, unsigned* flag, unsigned* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 7;
        __threadfence();
        *(volatile unsigned*)flag = 1u;
    } else {
        while (__ldcv(flag) == 0u) {
        }
        __threadfence();
        out[0] = __ldcg(&data[0]);  // line 100
        out[1] = data[0];
    }
}

cudaError_t launch_weak_publication(unsigned* d_data, unsigned* d_flag, unsigned* d_out) {
    weak_publication<<<2, 32>>>(d_data, d_flag, d_out);  // line 106
    return cudaGetLastError();
}

// The H100's stale totals: the flag raised with __stcg after the fence (a
// plain store here, as the compiler may move it before the fence): block 1's
// __ldcv poll of it and its read of the data are races.
__global__ void stcg_publication(unsigned* data, unsigned* flag, unsigned* out) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        data[0] = 7;
        __threadfence();
        __stcg(flag, 1u);  // line 118
    } else {
        while (__ldcv(flag) == 0u) {  // line 120
        }
        __threadfence();
        out[0] = data[0];  // line 123
    }
}

cudaError_t launch_stcg_publication(unsigned* d_data, unsigned* d_flag, unsigned* d_out) {
    stcg_publication<<<2, 32>>>(d_data, d_flag, d_out);  // line 128
    return cudaGetLastError();
}
