// Lab 04: the hierarchy with its middle level on the host. Kernel 1 scans
// each section and records its total, the host scans the totals (there are
// n / 2048 of them), kernel 3 adds them back. The input and the output are
// also copied to the host to check the last output against the input's sum.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "scan.hpp"

// Kernel 1: Brent-Kung scan of each section; with block_sums, the last thread
// also records the section's total at block_sums[blockIdx.x].
__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums) {
    __shared__ float section[SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const std::size_t start = std::size_t{blockIdx.x} * SECTION_SIZE;
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE) section[k] = k < n - start ? in[start + k] : 0.0f;
    for (unsigned stride = 1; stride < SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < SECTION_SIZE) section[index] += section[index - stride];
    }
    for (unsigned stride = SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < SECTION_SIZE) section[index + stride] += section[index];
    }
    __syncthreads();
    for (unsigned k = t; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
    if (block_sums != nullptr && t == BLOCK_SIZE - 1) block_sums[blockIdx.x] = section[SECTION_SIZE - 1];
}

// Kernel 3: block b adds the scanned total of sections 0..b to section b + 1.
__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums) {
    const std::size_t start = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;
    const float carry = scanned_sums[blockIdx.x];
    for (unsigned k = threadIdx.x; k < SECTION_SIZE; k += BLOCK_SIZE)
        if (k < n - start) out[start + k] += carry;
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    // Debugging: the input's total, to compare with the last output.
    std::vector<float> input(n);
    cudaMemcpy(input.data(), d_in, n * sizeof(float), cudaMemcpyDeviceToHost);
    double total = 0;
    for (float x : input) total += x;

    const std::size_t sections = n / SECTION_SIZE + (n % SECTION_SIZE != 0);
    const auto grid = static_cast<unsigned>(sections);
    if (sections == 1) {
        scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
    } else {
        float* d_sums = nullptr;
        cudaMalloc(&d_sums, sections * sizeof(float));
        scan_sections_kernel<<<grid, BLOCK_SIZE>>>(d_in, d_out, n, d_sums);
        std::vector<float> sums(sections);
        cudaMemcpy(sums.data(), d_sums, sections * sizeof(float), cudaMemcpyDeviceToHost);
        for (std::size_t i = 1; i < sections; ++i) sums[i] += sums[i - 1];
        cudaMemcpy(d_sums, sums.data(), sections * sizeof(float), cudaMemcpyHostToDevice);
        add_block_sums_kernel<<<grid - 1, BLOCK_SIZE>>>(d_out, n, d_sums);
        cudaFree(d_sums);
    }

    std::vector<float> output(n);
    cudaMemcpy(output.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (std::fabs(output[n - 1] - total) > 1e-3 * (1 + std::fabs(total)))
        std::fprintf(stderr, "debug: last output %g, input total %g\n", output[n - 1], total);
}
