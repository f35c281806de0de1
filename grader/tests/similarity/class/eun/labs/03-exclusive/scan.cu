// Lab 03: exclusive scans. Read README.md first.
//
// out[i] is the sum of the elements of i's section *before* i; every section
// starts with the identity 0. Two kernels, two ways of getting there.
#include "scan.hpp"

// The handed-in file may not add includes (no <cstdio>), so the check cannot
// print; it stops the program at the first failing call, where a debugger or
// compute-sanitizer shows which one it was.
#define CUDA_CHECK(call)                         \
    do {                                         \
        const cudaError_t err_ = (call);         \
        if (err_ != cudaSuccess) abort();        \
    } while (0)

namespace {

constexpr float kIdentity = 0.0f;

// Up-sweep of a Blelloch tree over a section of Size elements, Size / 2
// threads. Leaves the section total in s[Size - 1].
template <unsigned Size>
__device__ void upsweep(float* s, unsigned tid) {
    static_assert((Size & (Size - 1)) == 0, "section size must be a power of two");
    for (unsigned stride = 1; stride < Size; stride *= 2) {
        __syncthreads();
        const auto node = (tid + 1) * 2 * stride - 1;
        if (node < Size) s[node] += s[node - stride];
    }
}

// Down-sweep (Harris): expects the identity at s[Size - 1], leaves the
// exclusive scan in s.
template <unsigned Size>
__device__ void downsweep_exclusive(float* s, unsigned tid) {
    for (unsigned stride = Size / 2; stride >= 1; stride /= 2) {
        __syncthreads();
        const auto node = (tid + 1) * 2 * stride - 1;
        if (node < Size) {
            const auto left = s[node - stride];
            s[node - stride] = s[node];
            s[node] += left;
        }
    }
}

template <std::size_t Size>
constexpr std::size_t blocks_for(std::size_t n) {
    return n / Size + (n % Size != 0);
}

}  // namespace

__global__ void kogge_stone_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float buffer[2][KS_SECTION_SIZE];
    const unsigned i = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
    unsigned src = 0;
    // shifted load: 0 at the section start, x[i - 1] elsewhere
    const bool first = threadIdx.x == 0;
    buffer[src][threadIdx.x] = (!first && i < n) ? in[i - 1] : kIdentity;

    for (unsigned stride = 1; stride < KS_SECTION_SIZE; stride <<= 1) {
        __syncthreads();
        const auto dst = src ^ 1u;
        auto value = buffer[src][threadIdx.x];
        if (threadIdx.x >= stride) value += buffer[src][threadIdx.x - stride];
        buffer[dst][threadIdx.x] = value;
        src = dst;
    }

    if (i < n) out[i] = buffer[src][threadIdx.x];
}

__global__ void brent_kung_exclusive_kernel(const float* in, float* out, unsigned n) {
    __shared__ float section[BK_SECTION_SIZE];
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        section[k] = k < n - start ? in[start + k] : 0.0f;

    upsweep<BK_SECTION_SIZE>(section, t);

    __syncthreads();
    if (t == BK_BLOCK_SIZE - 1) section[BK_SECTION_SIZE - 1] = kIdentity;

    downsweep_exclusive<BK_SECTION_SIZE>(section, t);

    __syncthreads();
    for (unsigned k = t; k < BK_SECTION_SIZE; k += BK_BLOCK_SIZE)
        if (k < n - start) out[start + k] = section[k];
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const std::size_t blocks = blocks_for<KS_SECTION_SIZE>(n);
    kogge_stone_exclusive_kernel<<<static_cast<unsigned>(blocks), KS_BLOCK_SIZE>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n) {
    if (n == 0) return;
    const std::size_t blocks = blocks_for<BK_SECTION_SIZE>(n);
    brent_kung_exclusive_kernel<<<static_cast<unsigned>(blocks), BK_BLOCK_SIZE>>>(d_in, d_out, n);
    CUDA_CHECK(cudaGetLastError());
}
