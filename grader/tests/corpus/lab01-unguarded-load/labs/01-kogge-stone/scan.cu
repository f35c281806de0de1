// lab01 Kogge-Stone (inclusive), rewritten from the lecture version.
// One shared array of twice the section; the two halves take turns being
// the input and the output of a round (ping-pong), which removes the race.
// Every thread goes through all 10 rounds, so every thread hits every
// __syncthreads().
#include "scan.hpp"

#define S KS_SECTION_SIZE

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    __shared__ float temp[2 * S];
    const int t = threadIdx.x;
    const unsigned idx = blockIdx.x * S + t;
    int pout = 0, pin = 1;

    // load my element into the first half
    temp[pout * S + t] = in[idx];

    for (int offset = 1; offset < (int)S; offset *= 2) {
        __syncthreads();
        pout = 1 - pout;  // swap halves
        pin = 1 - pout;
        if (t >= offset)
            temp[pout * S + t] = temp[pin * S + t] + temp[pin * S + t - offset];
        else
            temp[pout * S + t] = temp[pin * S + t];
    }

    if (idx < n) out[idx] = temp[pout * S + t];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE != 0);
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
