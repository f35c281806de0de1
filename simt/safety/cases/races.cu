// Data races: on a __shared__ array declared in a kernel and on one declared
// at namespace scope, on global memory between blocks and within one, and
// through a device memcpy.
#include <cstring>
#include <vector>

#include "safety.hpp"

// The staging tile of reverse_*: a __shared__ array at namespace scope, as
// the "reverse an array in shared memory" examples declare it.
__shared__ int reversed_tile[256];

namespace {

constexpr unsigned kThreads = 256, kBlocks = 4, kN = kThreads * kBlocks;

std::vector<float> small_floats() {  // sums of these are exact in any order
    std::vector<float> v(kN);
    for (unsigned i = 0; i < kN; ++i) v[i] = static_cast<float>(i % 7);
    return v;
}

std::vector<float> block_sums(const std::vector<float>& in) {
    std::vector<float> s(kBlocks, 0.0f);
    for (unsigned i = 0; i < kN; ++i) s[i / kThreads] += in[i];
    return s;
}

// Each block sums its elements by halving in shared memory. The bug leaves
// out the barrier between the steps: thread t reads partial[t + stride]
// while its owner may still be adding into it.
__global__ void tree_sum_bug(const float* in, float* out) {
    __shared__ float partial[256];
    const unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

__global__ void tree_sum_clean(const float* in, float* out) {
    __shared__ float partial[256];
    const unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}

// Each block reverses its section through the namespace-scope tile. The
// bug reads the mirrored element before its owner has stored it.
__global__ void reverse_bug(const int* in, int* out) {
    const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
    reversed_tile[t] = in[base + t];
    out[base + t] = reversed_tile[blockDim.x - 1 - t];
}

__global__ void reverse_clean(const int* in, int* out) {
    const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
    reversed_tile[t] = in[base + t];
    __syncthreads();
    out[base + t] = reversed_tile[blockDim.x - 1 - t];
}

// A grid-wide total: each block reduces its elements, then adds its sum into
// *total. The bug adds with a plain read-modify-write, which another block's
// can overlap (a lost update); the fix is atomicAdd.
__device__ float block_reduce(float* partial) {
    const unsigned t = threadIdx.x;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) partial[t] += partial[t + stride];
        __syncthreads();
    }
    return partial[0];
}

__global__ void total_bug(const float* in, float* total) {
    __shared__ float partial[256];
    partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    const float sum = block_reduce(partial);
    if (threadIdx.x == 0) *total += sum;
}

__global__ void total_clean(const float* in, float* total) {
    __shared__ float partial[256];
    partial[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    const float sum = block_reduce(partial);
    if (threadIdx.x == 0) atomicAdd(total, sum);
}

// Each thread scales its element in place, then stores the difference from
// its left neighbour's scaled element. The bug has no barrier between the
// two, so the neighbour's element may not be scaled yet (both threads are of
// one block: the first thread of a block takes no difference).
__global__ void scaled_diff_bug(float* data, float* diff) {
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    data[i] *= 2.0f;
    if (t > 0) diff[i] = data[i] - data[i - 1];
}

__global__ void scaled_diff_clean(float* data, float* diff) {
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    data[i] *= 2.0f;
    __syncthreads();
    if (t > 0) diff[i] = data[i] - data[i - 1];
}

// Per-block parameters copied into shared memory with memcpy. The bug has
// every thread copy them into the one shared struct; the fix lets thread 0
// copy and the others wait at the barrier.
struct Params {
    float scale, offset;
    int pad[6];  // 32 bytes, as a block's row of a parameter table
};

__global__ void apply_params_bug(const Params* params, const float* in, float* out) {
    __shared__ Params p;
    memcpy(&p, &params[blockIdx.x], sizeof p);
    __syncthreads();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * p.scale + p.offset;
}

__global__ void apply_params_clean(const Params* params, const float* in, float* out) {
    __shared__ Params p;
    if (threadIdx.x == 0) memcpy(&p, &params[blockIdx.x], sizeof p);
    __syncthreads();
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * p.scale + p.offset;
}

}  // namespace

SAFETY_CASE(shared_race_function, "race on a __shared__ array declared in a kernel") {
    const auto input = small_floats();
    safety::Buffer<float> in(input), out(kBlocks);
    if (r.bug) tree_sum_bug<<<kBlocks, kThreads>>>(in, out);
    else tree_sum_clean<<<kBlocks, kThreads>>>(in, out);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("block sums", out.get(), block_sums(input));
}

SAFETY_CASE(shared_race_namespace, "race on a __shared__ array declared at namespace scope") {
    std::vector<int> input(kN), want(kN);
    for (unsigned i = 0; i < kN; ++i) input[i] = static_cast<int>(i * 3);
    for (unsigned i = 0; i < kN; ++i) want[i] = input[(i / kThreads) * kThreads + kThreads - 1 - i % kThreads];
    safety::Buffer<int> in(input), out(kN);
    if (r.bug) reverse_bug<<<kBlocks, kThreads>>>(in, out);
    else reverse_clean<<<kBlocks, kThreads>>>(in, out);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("reversed sections", out.get(), want);
}

SAFETY_CASE(global_race_blocks, "race on global memory between blocks") {
    const auto input = small_floats();
    safety::Buffer<float> in(input), total(1);
    total.zero();
    if (r.bug) total_bug<<<kBlocks, kThreads>>>(in, total);
    else total_clean<<<kBlocks, kThreads>>>(in, total);
    r.require(cudaGetLastError(), "launch");
    float want = 0.0f;
    for (float s : block_sums(input)) want += s;
    r.clean_result("total", total.get(), std::vector<float>{want});
}

SAFETY_CASE(global_race_block, "race on global memory within a block") {
    const auto input = small_floats();
    safety::Buffer<float> data(input), diff(kN);
    diff.zero();
    if (r.bug) scaled_diff_bug<<<kBlocks, kThreads>>>(data, diff);
    else scaled_diff_clean<<<kBlocks, kThreads>>>(data, diff);
    r.require(cudaGetLastError(), "launch");
    std::vector<float> want(kN, 0.0f);
    for (unsigned i = 0; i < kN; ++i)
        if (i % kThreads) want[i] = 2.0f * input[i] - 2.0f * input[i - 1];
    r.clean_result("differences", diff.get(), want);
}

SAFETY_CASE(memcpy_race, "race through a device memcpy") {
    std::vector<Params> table(kBlocks);
    for (unsigned b = 0; b < kBlocks; ++b) table[b] = {static_cast<float>(b + 1), 0.5f, {}};
    const auto input = small_floats();
    safety::Buffer<Params> params(table);
    safety::Buffer<float> in(input), out(kN);
    if (r.bug) apply_params_bug<<<kBlocks, kThreads>>>(params, in, out);
    else apply_params_clean<<<kBlocks, kThreads>>>(params, in, out);
    r.require(cudaGetLastError(), "launch");
    std::vector<float> want(kN);
    for (unsigned i = 0; i < kN; ++i) want[i] = input[i] * static_cast<float>(i / kThreads + 1) + 0.5f;
    r.clean_result("scaled elements", out.get(), want);
}
