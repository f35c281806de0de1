// Lab 03: exclusive scans. Read README.md first.
#include "scan.hpp"

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buf[2][KS_SECTION_SIZE];
    const unsigned tx = threadIdx.x;
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + tx;
    // shift right by one: the section's first element gets the identity
    buf[0][tx] = (tx > 0 && i - 1 < n) ? in[i - 1] : 0.0f;
    // no more steps than the elements left need (a short partial section
    // finishes early); a short counter is plenty for 1024 threads
    const unsigned len = n - blockIdx.x * KS_SECTION_SIZE;
    unsigned cur = 0;
    for (unsigned short stride = 1; stride < len; stride *= 2) {
        __syncthreads();
        float v = buf[cur][tx];
        if (tx >= stride) v += buf[cur][tx - stride];
        buf[cur ^ 1][tx] = v;
        cur ^= 1;
    }
    if (i < n) out[i] = buf[cur][tx];
}

// Up-sweep, clear the root, down-sweep (Blelloch's work-efficient exclusive scan).
__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float tree[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned base = blockIdx.x * BK_SECTION_SIZE;
    const unsigned a = t, b = t + BK_BLOCK_SIZE;
    tree[a] = base + a < n ? in[base + a] : 0.0f;
    tree[b] = base + b < n ? in[base + b] : 0.0f;

    unsigned offset = 1;
    for (unsigned d = BK_SECTION_SIZE >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            const unsigned left = offset * (2 * t + 1) - 1, right = offset * (2 * t + 2) - 1;
            tree[right] += tree[left];
        }
        offset <<= 1;
    }
    if (t == 0) tree[BK_SECTION_SIZE - 1] = 0.0f;
    for (unsigned d = 1; d < BK_SECTION_SIZE; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            const unsigned left = offset * (2 * t + 1) - 1, right = offset * (2 * t + 2) - 1;
            const float keep = tree[left];
            tree[left] = tree[right];
            tree[right] += keep;
        }
    }
    __syncthreads();
    if (base + a < n) out[base + a] = tree[a];
    if (base + b < n) out[base + b] = tree[b];
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    kogge_stone_exclusive_kernel<<<(n + KS_SECTION_SIZE - 1) / KS_SECTION_SIZE, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    brent_kung_exclusive_kernel<<<(n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}
