// Lab 01: double-buffered Kogge-Stone. The two section buffers live at file
// scope in the lab's own namespace (one declaration, two names); each block
// gets its own copy of them, as every block gets its own shared memory.
#include "scan.hpp"

namespace ks {

static __shared__ float ping[KS_SECTION_SIZE], pong[KS_SECTION_SIZE];

// One step: read `from`, write `to`; nobody writes what another thread reads.
__device__ void step(const float* from, float* to, unsigned t, unsigned stride) {
    to[t] = t >= stride ? from[t] + from[t - stride] : from[t];
}

}  // namespace ks

__global__ void kogge_stone_kernel(const float* in, float* out, unsigned n) {
    const unsigned t = threadIdx.x;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + t;
    ks::ping[t] = i < n ? in[i] : 0.0f;
    bool in_ping = true;
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        if (in_ping) ks::step(ks::ping, ks::pong, t, stride);
        else ks::step(ks::pong, ks::ping, t, stride);
        in_ping = !in_ping;
    }
    if (i < n) out[i] = in_ping ? ks::ping[t] : ks::pong[t];
}

void kogge_stone_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const unsigned blocks = (n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE;
    kogge_stone_kernel<<<blocks, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
