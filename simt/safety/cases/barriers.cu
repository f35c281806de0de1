// Barrier divergence: a __syncthreads() in a branch only some threads take,
// and threads that return early while the rest wait at a barrier.
#include <vector>

#include "safety.hpp"

namespace {

constexpr unsigned kThreads = 256, kBlocks = 4, kN = kThreads * kBlocks;

// An inclusive Kogge-Stone scan of each block's section. The bug puts the
// barrier between the read and the write inside `if (t >= stride)`, so the
// threads below the stride go round to the loop's other barrier.
__global__ void section_scan_bug(const int* in, int* out) {
    __shared__ int xy[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    xy[t] = in[i];
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        if (t >= stride) {
            const int left = xy[t - stride];
            __syncthreads();
            xy[t] += left;
        }
    }
    out[i] = xy[t];
}

__global__ void section_scan_clean(const int* in, int* out) {
    __shared__ int xy[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    xy[t] = in[i];
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        const int left = t >= stride ? xy[t - stride] : 0;
        __syncthreads();
        xy[t] += left;
    }
    out[i] = xy[t];
}

// Each element minus its block's first element. The bug checks the bounds
// with an early return, so in the last, partial block the threads past n
// leave while the others wait at the barrier.
__global__ void minus_first_bug(const int* in, int* out, unsigned n) {
    __shared__ int tile[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i >= n) return;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[t] - tile[0];
}

__global__ void minus_first_clean(const int* in, int* out, unsigned n) {
    __shared__ int tile[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i < n) tile[t] = in[i];
    __syncthreads();
    if (i < n) out[i] = tile[t] - tile[0];
}

}  // namespace

SAFETY_CASE(barrier_in_branch, "barrier divergence") {
    std::vector<int> input(kN), want(kN);
    for (unsigned i = 0; i < kN; ++i) input[i] = static_cast<int>(i % 5);
    for (unsigned i = 0; i < kN; ++i) want[i] = input[i] + (i % kThreads ? want[i - 1] : 0);
    safety::Buffer<int> in(input), out(kN);
    if (r.bug) section_scan_bug<<<kBlocks, kThreads>>>(in, out);
    else section_scan_clean<<<kBlocks, kThreads>>>(in, out);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("section scans", out.get(), want);
}

SAFETY_CASE(barrier_early_exit, "barrier divergence") {
    constexpr unsigned n = kN - 24;  // the last block has 232 elements
    std::vector<int> input(n), want(n);
    for (unsigned i = 0; i < n; ++i) input[i] = static_cast<int>(i * 7 % 11);
    for (unsigned i = 0; i < n; ++i) want[i] = input[i] - input[i / kThreads * kThreads];
    safety::Buffer<int> in(input), out(n);
    if (r.bug) minus_first_bug<<<kBlocks, kThreads>>>(in, out, n);
    else minus_first_clean<<<kBlocks, kThreads>>>(in, out, n);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("differences", out.get(), want);
}
