// lab 3: exclusive scans (Kogge-Stone with a shifted load, Brent-Kung with
// Blelloch's up-sweep / down-sweep)
#include "scan.hpp"

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float ping[KS_SECTION_SIZE];
    __shared__ float pong[KS_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + t;

    // shifted load: element i gets x[i-1], the first of a section gets 0
    float x = 0.0f;
    if (t != 0 && i - 1 < n) x = in[i - 1];
    ping[t] = x;

    bool inPing = true;  // where the current values are
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        float* from = inPing ? ping : pong;
        float* to = inPing ? pong : ping;
        to[t] = t >= stride ? from[t] + from[t - stride] : from[t];
        inPing = !inPing;
    }
    if (i < n) out[i] = inPing ? ping[t] : pong[t];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    // up-sweep, same as lab 02's reduction tree
    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) section[index] += section[index - stride];
    }

    // the total at the end becomes the identity
    if (t == 0) section[BK_SECTION_SIZE - 1] = 0.0f;

    // down-sweep (loop from my lab 02 distribution tree)
    for (unsigned stride = BK_SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) {
            float tmp = section[index - stride];
            section[index - stride] = section[index];
            section[index] += tmp;
        }
    }
    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / KS_SECTION_SIZE + (n % KS_SECTION_SIZE != 0);
    kogge_stone_exclusive_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = n / BK_SECTION_SIZE + (n % BK_SECTION_SIZE != 0);
    brent_kung_exclusive_kernel<<<blocks, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
