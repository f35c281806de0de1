// Lab 03: exclusive scans. Read README.md first.
#include "scan.hpp"

// The shifted load four elements at a time: thread t < 256 fills buf[0][4t ..
// 4t + 3] with in[i - 1 .. i + 2] for i = start + 4t, as one float4 where all
// four are inside [0, n), element by element at the two ends.
__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buf[2][KS_SECTION_SIZE];
    const unsigned tx = threadIdx.x;
    const unsigned start = blockIdx.x * KS_SECTION_SIZE;
    if (tx < KS_SECTION_SIZE / 4) {
        const unsigned i = start + 4 * tx;
        if (i >= 1 && i + 3 <= n) {
            const float4 v = *reinterpret_cast<const float4*>(in + i - 1);
            buf[0][4 * tx] = v.x;
            buf[0][4 * tx + 1] = v.y;
            buf[0][4 * tx + 2] = v.z;
            buf[0][4 * tx + 3] = v.w;
        } else {
            for (unsigned k = 0; k < 4; ++k) {
                const unsigned j = i + k;  // buf[0][4t + k] holds in[j - 1]
                buf[0][4 * tx + k] = (j >= 1 && j - 1 < n) ? in[j - 1] : 0.0f;
            }
        }
    }
    __syncthreads();
    if (tx == 0) buf[0][0] = 0.0f;  // every section starts with the identity
    unsigned cur = 0;
    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        float v = buf[cur][tx];
        if (tx >= stride) v += buf[cur][tx - stride];
        buf[cur ^ 1][tx] = v;
        cur ^= 1;
    }
    const unsigned i = start + tx;
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
