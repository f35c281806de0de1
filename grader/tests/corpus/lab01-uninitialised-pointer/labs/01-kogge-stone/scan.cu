// Lab 01: fix the HSH (Kogge-Stone) scan. Read README.md first.
//
// My version scans in place, like the lecture's slides: the kernel reads and
// writes one array, so the host copies the input into a work buffer first
// (d_in must not change) and copies the result out at the end.
#include "scan.hpp"

__global__ void kogge_stone_kernel(float* data, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + t;
    unsigned cur = 0;
    buffer[cur][t] = i < n ? data[i] : 0.0f;

    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        float sum = buffer[cur][t];
        if (t >= stride) sum += buffer[cur][t - stride];
        buffer[1 - cur][t] = sum;
        cur = 1 - cur;
    }
    if (i < n) data[i] = buffer[cur][t];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    float* d_work;  // work buffer for the in-place scan
    cudaMemcpy(d_work, d_in, n * sizeof(float), cudaMemcpyDeviceToDevice);
    const unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_work, n);
    cudaMemcpy(d_out, d_work, n * sizeof(float), cudaMemcpyDeviceToDevice);
}
