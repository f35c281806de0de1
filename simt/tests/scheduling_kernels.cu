// Test kernels for the emulator (the build rewrites them as kernels.cu's):
// the order blocks start in, blocks that wait for one another, and loops
// the watchdog stops. test_scheduling.cpp asserts the line numbers below.
#include "kernels.hpp"

// Block order: each block takes a ticket as it starts and files its blockIdx
// under it, so order[k] is the k-th block to start.
__global__ void start_order(unsigned* order, unsigned* tickets) {
    if (threadIdx.x == 0) order[atomicAdd(tickets, 1u)] = blockIdx.x + gridDim.x * blockIdx.y;
}

cudaError_t launch_start_order(unsigned* d_order, unsigned* d_tickets, dim3 grid) {
    start_order<<<grid, 32>>>(d_order, d_tickets);
    return cudaGetLastError();
}

// Blocks that wait for the block before them by blockIdx (right only where
// every block gets started): thread 0 spins on the flag of block x - 1, with
// an atomic or a volatile load, then raises its own; out[x] is the running
// count of blocks done when x finished.
__global__ void wait_for_previous(int* flags, int* out, int use_volatile) {
    const unsigned x = blockIdx.x;
    if (threadIdx.x == 0) {
        if (x > 0) {
            if (use_volatile) {
                volatile int* seen = flags;
                while (seen[x - 1] == 0) {
                }
            } else {
                while (atomicAdd(&flags[x - 1], 0) == 0) {
                }
            }
        }
        out[x] = atomicAdd(&flags[gridDim.x], 1);
        __threadfence();
        atomicExch(&flags[x], 1);
    }
    __syncthreads();
}

cudaError_t launch_wait_for_previous(int* d_flags, int* d_out, unsigned blocks, bool use_volatile) {
    wait_for_previous<<<blocks, 64>>>(d_flags, d_out, use_volatile ? 1 : 0);  // line 42
    return cudaGetLastError();
}

// The watchdog. endless_loop's update adds `step`, 0 here (as `stride * 2`
// leaves stride as it was), so its loop never ends: with no barrier in it
// (thread 0 would run on alone) or with one (every thread passes it again and
// again). long_loop runs long but ends: with `staggered`, thread t runs
// (t + 1) * rounds rounds with no barrier and exits, so the block's threads
// finish one after another; without, every thread runs `rounds` rounds with
// a barrier in each.
__global__ void endless_loop(int* out, unsigned step, int with_barrier) {
    const unsigned t = threadIdx.x;
    for (unsigned i = 0; i < blockDim.x; i += step) {  // line 55
        out[blockIdx.x * blockDim.x + t] = static_cast<int>(i);
        if (with_barrier) __syncthreads();  // line 57
    }
}

cudaError_t launch_endless_loop(int* d_out, unsigned blocks, unsigned step, bool with_barrier) {
    endless_loop<<<blocks, 64>>>(d_out, step, with_barrier ? 1 : 0);  // line 62
    return cudaGetLastError();
}

__global__ void long_loop(int* out, unsigned rounds, int staggered) {
    const unsigned t = threadIdx.x, mine = blockIdx.x * blockDim.x + t;
    for (unsigned i = 0; i < (staggered ? (t + 1) * rounds : rounds); ++i) {
        out[mine] += 1;
        if (!staggered) __syncthreads();
    }
}

cudaError_t launch_long_loop(int* d_out, unsigned blocks, unsigned rounds, bool staggered) {
    long_loop<<<blocks, 64>>>(d_out, rounds, staggered ? 1 : 0);
    return cudaGetLastError();
}

// Threads the emulator puts aside inside a hook that GCC's instrumentation
// calls, one it declares as never throwing (__tsan_volatile_read4,
// __sanitizer_cov_trace_pc), before the function's first call that may throw
// (threadIdx.x, after which it has a cleanup to run): its unwind table has no
// entry for the hook's call, as in lab 05's look_back when tiles are numbered
// by blockIdx.x. wait_first: blocks wait by blockIdx for the block before
// them, as in wait_for_previous; loop_first: the loop never ends (step 0).
__device__ __noinline__ unsigned wait_for_flag(const int* flags, unsigned x) {
    const volatile int* seen = flags;
    while (seen[x] == 0) {  // line 88
    }
    return threadIdx.x;
}

__device__ __noinline__ unsigned loop_for(int* out, unsigned step) {
    unsigned i = 0;
    for (; i < 64; i += step) out[i % 4] = static_cast<int>(i);  // line 95
    return i + threadIdx.x;
}

__global__ void wait_first(int* flags, int* out, int endless) {
    const unsigned x = blockIdx.x;
    if (threadIdx.x == 0) {
        if (endless) out[x] = static_cast<int>(loop_for(out, 0));
        else if (x > 0) out[x] = static_cast<int>(wait_for_flag(flags, x - 1));
        atomicExch(&flags[x], 1);
    }
    __syncthreads();
}

cudaError_t launch_wait_first(int* d_flags, int* d_out, unsigned blocks, bool endless) {
    wait_first<<<blocks, 64>>>(d_flags, d_out, endless ? 1 : 0);  // line 110
    return cudaGetLastError();
}
