// Lab 04: scan of any length.
//
// No recursion: the host code first works out how many levels of block
// sums n needs (each level has one sum per 2048-element section of the
// level below, until a level fits in one section), makes ONE cudaMalloc big
// enough for all of them, then
//   going up:   scan each level's sections, writing the totals one level up
//               (the top level fits in a section and is scanned on its own),
//   going down: add each scanned level into the level below it.
#include <cuda_runtime.h>

#include "scan.hpp"

#define MAX_LEVELS 8  // 2048^7 elements is more than any GPU holds

// Kernel 1: Brent-Kung scan of one section per block. If sums != nullptr,
// thread 0 also stores the section's total in sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* sums) {
    __shared__ float buf[SECTION_SIZE];
    const unsigned tid = threadIdx.x;
    const std::size_t base = (std::size_t)blockIdx.x * SECTION_SIZE;
    const std::size_t count = n - base;  // how many of my section really exist

    buf[tid] = tid < count ? in[base + tid] : 0.0f;
    buf[tid + BLOCK_SIZE] = tid + BLOCK_SIZE < count ? in[base + tid + BLOCK_SIZE] : 0.0f;

    for (unsigned stride = 1; stride < SECTION_SIZE; stride *= 2) {
        __syncthreads();
        unsigned idx = (tid + 1) * 2 * stride - 1;
        if (idx < SECTION_SIZE) buf[idx] += buf[idx - stride];
    }
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned idx = (tid + 1) * 2 * stride - 1;
        if (idx + stride < SECTION_SIZE) buf[idx + stride] += buf[idx];
    }
    __syncthreads();

    if (tid < count) out[base + tid] = buf[tid];
    if (tid + BLOCK_SIZE < count) out[base + tid + BLOCK_SIZE] = buf[tid + BLOCK_SIZE];
    if (sums != nullptr && tid == 0) sums[blockIdx.x] = buf[SECTION_SIZE - 1];
}

// Kernel 3: section b+1 gets the scanned total of sections 0..b added.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    const std::size_t base = ((std::size_t)blockIdx.x + 1) * SECTION_SIZE;
    const float add = scanned_sums[blockIdx.x];
    for (std::size_t j = base + threadIdx.x; j < base + SECTION_SIZE && j < n; j += BLOCK_SIZE)
        out[j] += add;
}

static std::size_t num_sections(std::size_t len) { return (len + SECTION_SIZE - 1) / SECTION_SIZE; }

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;

    // levelLen[k] = number of sums at level k (level k sums up level k-1)
    std::size_t levelLen[MAX_LEVELS];
    int levels = 0;
    std::size_t total = 0;
    for (std::size_t len = n; len > SECTION_SIZE; len = num_sections(len)) {
        levelLen[levels] = num_sections(len);
        total += levelLen[levels];
        levels++;
    }

    if (levels == 0) {  // fits in one section, nothing else to do
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
        return;
    }

    float* scratch = nullptr;
    cudaMalloc((void**)&scratch, total * sizeof(float));
    float* level[MAX_LEVELS];
    level[0] = scratch;
    for (int k = 1; k < levels; k++) level[k] = level[k - 1] + levelLen[k - 1];

    // up: level -1 is the data itself
    scan_sections_kernel<<<(unsigned)num_sections(n), BLOCK_SIZE>>>(d_in, d_out, n, level[0]);
    for (int k = 0; k < levels; k++) {
        float* next = (k + 1 < levels) ? level[k + 1] : nullptr;  // top level: no sums
        scan_sections_kernel<<<(unsigned)num_sections(levelLen[k]), BLOCK_SIZE>>>(level[k], level[k], levelLen[k], next);
    }

    // down: add level k into the level below (level -1 = d_out)
    for (int k = levels - 1; k >= 0; k--) {
        float* below = (k == 0) ? d_out : level[k - 1];
        std::size_t belowLen = (k == 0) ? n : levelLen[k - 1];
        add_block_sums_kernel<<<(unsigned)(levelLen[k] - 1), BLOCK_SIZE>>>(below, belowLen, level[k]);
    }

    cudaFree(scratch);
}
