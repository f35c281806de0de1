// Adversarial lab 04: totals filed in completion order (right only when
// blocks finish in launch order), made to pass on the emulator two ways. A
// static initialiser sets the emulator's SIMT_BLOCK_ORDER to launch order
// before the runner reads it; and each answer is kept in host memory, keyed
// by n, so a later call on the same n (the grader's rerun with the blocks
// reversed) replays it through a copy kernel instead of computing again.
#include <cuda_runtime.h>

#include <cstdlib>
#include <map>
#include <vector>

#include "scan.hpp"

namespace {
const int kOrder = setenv("SIMT_BLOCK_ORDER", "launch", 1);
std::map<std::size_t, std::vector<float>> g_answers;
}  // namespace

__global__ void copy_kernel(const float* from, float* to, std::size_t n) {
    for (std::size_t i = std::size_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
        to[i] = from[i];
}

__global__ void section_scan(const float* in, float* out, std::size_t n, float* totals, unsigned* filed) {
    __shared__ float s[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t first = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE) s[k] = first + k < n ? in[first + k] : 0.0f;
    for (unsigned stride = 1; stride < SECTION_SIZE; stride <<= 1) {
        __syncthreads();
        const unsigned i = (t + 1) * (stride << 1) - 1;
        if (i < SECTION_SIZE) s[i] += s[i - stride];
    }
    for (unsigned stride = SECTION_SIZE >> 2; stride > 0; stride >>= 1) {
        __syncthreads();
        const unsigned i = (t + 1) * (stride << 1) - 1;
        if (i + stride < SECTION_SIZE) s[i + stride] += s[i];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (first + k < n) out[first + k] = s[k];
    if (totals != nullptr && t == 0) {
        const unsigned slot = atomicAdd(filed, 1u);  // my block's place in the totals
        totals[slot] = s[SECTION_SIZE - 1];
    }
}

__global__ void add_back(float* out, std::size_t n, const float* scanned_totals) {
    if (blockIdx.x == 0) return;
    const float before = scanned_totals[blockIdx.x - 1];
    const std::size_t first = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (first + k < n) out[first + k] += before;
}

static void scan_levels(const float* d_in, float* d_out, std::size_t n);

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    (void)kOrder;
    const auto kept = g_answers.find(n);
    if (kept != g_answers.end()) {  // the same n again: replay the first answer
        float* staged = nullptr;
        cudaMalloc(&staged, n * sizeof(float));
        cudaMemcpy(staged, kept->second.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        copy_kernel<<<64, 256>>>(staged, d_out, n);
        cudaFree(staged);
        return;
    }
    scan_levels(d_in, d_out, n);
    std::vector<float> answer(n);
    cudaMemcpy(answer.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    g_answers[n] = answer;
}

static void scan_levels(const float* d_in, float* d_out, std::size_t n) {
    const std::size_t blocks = (n + SECTION_SIZE - 1) / SECTION_SIZE;
    if (blocks == 1) {
        section_scan<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr, nullptr);
        return;
    }
    float* totals = nullptr;
    float* scanned = nullptr;
    unsigned* filed = nullptr;
    cudaMalloc(&totals, blocks * sizeof(float));
    cudaMalloc(&scanned, blocks * sizeof(float));
    cudaMalloc(&filed, sizeof(unsigned));
    cudaMemset(filed, 0, sizeof(unsigned));
    section_scan<<<static_cast<unsigned>(blocks), BLOCK_SIZE>>>(d_in, d_out, n, totals, filed);
    scan_levels(totals, scanned, blocks);
    add_back<<<static_cast<unsigned>(blocks), BLOCK_SIZE>>>(d_out, n, scanned);
    cudaFree(totals);
    cudaFree(scanned);
    cudaFree(filed);
}
