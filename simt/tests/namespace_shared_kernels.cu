// Test kernels for the emulator (the build rewrites them as kernels.cu's):
// `__shared__` variables declared at namespace scope, in the forms CUDA
// allows there, each checked as a function's are. test_namespace_shared.cpp
// asserts the line numbers below.
#include "kernels.hpp"

__shared__ float XY[64];  // line 7: Kogge-Stone's section, PMPP-style at file scope

namespace lab {

static __shared__ float ping[64], pong[64];  // line 11: two names, `static`
__shared__ int grid2[4][8], grid3[2][3][4];  // line 12
struct Pair {
    int key;
    float value;
};
__shared__ Pair pair;  // line 17
volatile __shared__ unsigned flag;  // line 18
__shared__ int seen[64];  // line 19
__shared__ float edge[33];  // line 20: 132 bytes; the next 16-byte-aligned variable starts 12 bytes on at the least

}  // namespace lab

extern __shared__ float dynamic_part[];  // line 24

// 0: Kogge-Stone in place: thread t reads XY[t - stride] while thread
// t - stride writes it, between the same two barriers.
__global__ void ks_in_place(float* out) {
    XY[threadIdx.x] = 1.0f;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        if (threadIdx.x >= stride) XY[threadIdx.x] += XY[threadIdx.x - stride];  // line 32
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = XY[threadIdx.x];
}

// 1: double-buffered Kogge-Stone through ping and pong: right, no finding,
// each block on its own copies.
__global__ void ks_double_buffered(float* out) {
    const unsigned t = threadIdx.x;
    lab::ping[t] = static_cast<float>(blockIdx.x + 1);
    bool in_ping = true;
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        const float* from = in_ping ? lab::ping : lab::pong;
        float* to = in_ping ? lab::pong : lab::ping;
        to[t] = t >= stride ? from[t] + from[t - stride] : from[t];
        in_ping = !in_ping;
    }
    out[blockIdx.x * blockDim.x + t] = in_ping ? lab::ping[t] : lab::pong[t];
}

// 2: only block 0 fills `seen`; every block reads it. A later block finds
// block 0's values there, which it never wrote (a GPU's would find garbage).
__global__ void read_other_blocks(int* out) {
    if (blockIdx.x == 0) lab::seen[threadIdx.x] = 7;
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = lab::seen[threadIdx.x];  // line 58
}

// 3: thread 32 of 33 writes edge[33], one past the end.
__global__ void past_edge() {
    lab::edge[threadIdx.x + 1] = 1.0f;  // line 63
}

// 4: a 2-D array read where nothing was written, a 3-D one written by every thread.
__global__ void grids(int* out) {
    if (threadIdx.x != 10) lab::grid2[threadIdx.x / 8][threadIdx.x % 8] = 1;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = lab::grid2[1][2];  // line 70: thread 10's, never written
    lab::grid3[1][2][3] = static_cast<int>(threadIdx.x);  // line 71
}

// 5: a struct's member written by two threads.
__global__ void pair_race() {
    if (threadIdx.x < 2) lab::pair.key = static_cast<int>(threadIdx.x);  // line 76
}

// 6: a block reverses its elements through dynamic shared memory, with the
// barrier (right) or (7) without it (a race).
__global__ void reverse_dynamic(const float* in, float* out, int with_barrier) {
    dynamic_part[threadIdx.x] = in[threadIdx.x];  // line 82
    if (with_barrier) __syncthreads();
    out[threadIdx.x] = dynamic_part[blockDim.x - 1 - threadIdx.x];  // line 84
}

// 8: a volatile flag raised by thread 0 and read by the others with no barrier.
__global__ void volatile_flag(int* out) {
    if (threadIdx.x == 0) lab::flag = 1;  // line 89
    out[threadIdx.x] = static_cast<int>(lab::flag);  // line 90
}

// 9: each block fills XY with its own values; block 0 then waits for block 1
// to finish (its thread 0 spins), so it is put aside while block 1 runs: its
// XY must come back as it left it.
__global__ void wait_keeps_shared(float* out, int* done) {
    XY[threadIdx.x] = static_cast<float>(100 * (blockIdx.x + 1) + threadIdx.x);
    __syncthreads();
    if (blockIdx.x == 0 && threadIdx.x == 0)
        while (atomicAdd(done, 0) == 0) {
        }
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = XY[threadIdx.x];
    __syncthreads();
    if (blockIdx.x == 1 && threadIdx.x == 0) atomicExch(done, 1);
}

void launch_namespace_shared(float* f_in, float* f_out, int* i_out, unsigned which) {
    switch (which) {
        case 0: ks_in_place<<<1, 64>>>(f_out); break;  // line 110
        case 1: ks_double_buffered<<<4, 64>>>(f_out); break;
        case 2: read_other_blocks<<<2, 64>>>(i_out); break;  // line 112
        case 3: past_edge<<<1, 33>>>(); break;  // line 113
        case 4: grids<<<1, 32>>>(i_out); break;  // line 114
        case 5: pair_race<<<1, 32>>>(); break;  // line 115
        case 6: reverse_dynamic<<<1, 64, 64 * sizeof(float)>>>(f_in, f_out, 1); break;
        case 7: reverse_dynamic<<<1, 64, 64 * sizeof(float)>>>(f_in, f_out, 0); break;  // line 117
        case 8: volatile_flag<<<1, 32>>>(i_out); break;  // line 118
        case 9: wait_keeps_shared<<<2, 64>>>(f_out, i_out); break;
    }
}

// The static shared memory cudaFuncGetAttributes gives kernel `which` above
// after its launch: the namespace-scope arrays it touched.
std::size_t namespace_shared_static_bytes(unsigned which) {
    cudaFuncAttributes attr{};
    cudaError_t status = cudaErrorInvalidValue;
    switch (which) {
        case 0: status = cudaFuncGetAttributes(&attr, ks_in_place); break;
        case 1: status = cudaFuncGetAttributes(&attr, ks_double_buffered); break;
        case 4: status = cudaFuncGetAttributes(&attr, grids); break;
        case 6: status = cudaFuncGetAttributes(&attr, reverse_dynamic); break;
    }
    return status == cudaSuccess ? attr.sharedSizeBytes : ~std::size_t{0};
}

// For comparison, volatile_flag with its flag declared in the kernel, `static`
// written too: the same finding, naming it.
__global__ void volatile_flag_in_function(int* out) {
    static volatile __shared__ unsigned local_flag;
    if (threadIdx.x == 0) local_flag = 1;  // line 141
    out[threadIdx.x] = static_cast<int>(local_flag);  // line 142
}

void launch_function_scope_flag(int* i_out) {
    volatile_flag_in_function<<<1, 32>>>(i_out);  // line 146
}
