// A leak: a scratch buffer a host function allocates for its kernels and
// never frees.
#include <algorithm>
#include <vector>

#include "safety.hpp"

namespace {

constexpr unsigned kThreads = 256, kBlocks = 4, kN = kThreads * kBlocks;

__global__ void block_max(const int* in, int* maxima) {
    __shared__ int tile[256];
    const unsigned t = threadIdx.x;
    tile[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) tile[t] = max(tile[t], tile[t + stride]);
        __syncthreads();
    }
    if (t == 0) maxima[blockIdx.x] = tile[0];
}

// Each element divided by its block's maximum (in percent).
__global__ void percent_of_max(const int* in, const int* maxima, int* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * 100 / maxima[blockIdx.x];
}

// The host function: block maxima in a scratch buffer, then the
// percentages. The bug returns without freeing the scratch buffer.
cudaError_t percent_bug(const int* d_in, int* d_out) {
    int* d_maxima = nullptr;
    cudaMalloc(&d_maxima, kBlocks * sizeof(int));
    block_max<<<kBlocks, kThreads>>>(d_in, d_maxima);
    percent_of_max<<<kBlocks, kThreads>>>(d_in, d_maxima, d_out);
    return cudaGetLastError();
}

cudaError_t percent_clean(const int* d_in, int* d_out) {
    int* d_maxima = nullptr;
    cudaMalloc(&d_maxima, kBlocks * sizeof(int));
    block_max<<<kBlocks, kThreads>>>(d_in, d_maxima);
    percent_of_max<<<kBlocks, kThreads>>>(d_in, d_maxima, d_out);
    const cudaError_t e = cudaGetLastError();
    cudaFree(d_maxima);
    return e;
}

}  // namespace

SAFETY_CASE(leak, "leak (device memory never freed)") {
    std::vector<int> input(kN), want(kN);
    for (unsigned i = 0; i < kN; ++i) input[i] = static_cast<int>(1 + i * 37 % 200);
    for (unsigned b = 0; b < kBlocks; ++b) {
        int m = 0;
        for (unsigned t = 0; t < kThreads; ++t) m = std::max(m, input[b * kThreads + t]);
        for (unsigned t = 0; t < kThreads; ++t) want[b * kThreads + t] = input[b * kThreads + t] * 100 / m;
    }
    safety::Buffer<int> in(input), out(kN);
    r.require(r.bug ? percent_bug(in, out) : percent_clean(in, out), "launch");
    r.clean_result("percentages", out.get(), want);
}
