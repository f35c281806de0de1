// Out-of-bounds accesses: one element past a __shared__ array, and a grid
// rounded up to whole blocks with no bounds check.
#include <vector>

#include "safety.hpp"

namespace {

constexpr unsigned kThreads = 256, kBlocks = 4;

// Forward differences of each block's tile: out[i] = in[i + 1] - in[i]. The
// bug reads the right neighbour from the tile for every thread, so the last
// thread reads tile[256]; the fix reads it from global memory there (and
// takes 0 past the input's end).
__global__ void forward_diff_bug(const float* in, float* out, unsigned /* n: unused */) {
    __shared__ float tile[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = in[i];
    __syncthreads();
    out[i] = tile[t + 1] - tile[t];
}

__global__ void forward_diff_clean(const float* in, float* out, unsigned n) {
    __shared__ float tile[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = in[i];
    __syncthreads();
    const float right = t + 1 < blockDim.x ? tile[t + 1] : i + 1 < n ? in[i + 1] : tile[t];
    out[i] = right - tile[t];
}

// y = a * x over n elements with the grid rounded up to whole blocks. The
// bug has no bounds check: the last block's threads past n read and write
// past both arrays' ends.
__global__ void saxpy_bug(float a, const float* x, float* y, unsigned /* n: unused */) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i] + y[i];
}

__global__ void saxpy_clean(float a, const float* x, float* y, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}

}  // namespace

SAFETY_CASE(oob_shared, "out of bounds: shared memory") {
    constexpr unsigned n = kThreads * kBlocks;
    std::vector<float> input(n), want(n);
    for (unsigned i = 0; i < n; ++i) input[i] = static_cast<float>(i * i % 13);
    for (unsigned i = 0; i < n; ++i) want[i] = (i + 1 < n ? input[i + 1] : input[i]) - input[i];
    safety::Buffer<float> in(input), out(n);
    if (r.bug) forward_diff_bug<<<kBlocks, kThreads>>>(in, out, n);
    else forward_diff_clean<<<kBlocks, kThreads>>>(in, out, n);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("differences", out.get(), want);
}

SAFETY_CASE(oob_global, "out of bounds: global memory") {
    constexpr unsigned n = 1000;  // 4 blocks of 256: 24 threads past the end
    std::vector<float> xs(n), ys(n), want(n);
    for (unsigned i = 0; i < n; ++i) xs[i] = static_cast<float>(i % 9), ys[i] = static_cast<float>(i % 4);
    for (unsigned i = 0; i < n; ++i) want[i] = 2.0f * xs[i] + ys[i];
    safety::Buffer<float> x(xs), y(ys);
    const unsigned blocks = (n + kThreads - 1) / kThreads;
    if (r.bug) saxpy_bug<<<blocks, kThreads>>>(2.0f, x, y, n);
    else saxpy_clean<<<blocks, kThreads>>>(2.0f, x, y, n);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("y", y.get(), want);
}
