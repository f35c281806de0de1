// Lab 02: Brent-Kung in its own namespace. The section's layout is a policy
// type (padded against bank conflicts, or not); the kernel takes it as its
// first template argument and deduces the element type from the pointers.
// The shared section is declared once, at namespace scope.
#include <cstdio>

#include "scan.hpp"

// Device-side tracing for debugging, compiled out unless BK_DEBUG is defined.
#if defined(__CUDA_ARCH__) && defined(BK_DEBUG)
#define BK_TRACE(...) printf(__VA_ARGS__)
#else
#define BK_TRACE(...) ((void)0)
#endif

namespace bk {

template <unsigned SECTION, unsigned BANKS = 32>
struct Padded {
    static constexpr unsigned words = SECTION + SECTION / BANKS;
    __device__ static unsigned at(unsigned i) { return i + i / BANKS; }
};

__shared__ float section[Padded<BK_SECTION_SIZE>::words];

template <typename Layout, typename T>
__global__ void scan_section(T* out, const T* in, unsigned n)
{
    const unsigned t = threadIdx.x;
    const unsigned start = blockIdx.x * BK_SECTION_SIZE;
    for (unsigned k = t; k < BK_SECTION_SIZE; k += blockDim.x)
        section[Layout::at(k)] = k < n - start ? in[start + k] : T(0);

    for (unsigned stride = 1; stride < BK_SECTION_SIZE; stride *= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < BK_SECTION_SIZE) section[Layout::at(index)] += section[Layout::at(index - stride)];
    }
    for (unsigned stride = BK_SECTION_SIZE / 4; stride > 0; stride /= 2) {
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < BK_SECTION_SIZE) section[Layout::at(index + stride)] += section[Layout::at(index)];
    }
    __syncthreads();
    BK_TRACE("block %u: section total %f\n", blockIdx.x, section[Layout::at(BK_SECTION_SIZE - 1)]);
    for (unsigned k = t; k < BK_SECTION_SIZE; k += blockDim.x)
        if (k < n - start) out[start + k] = section[Layout::at(k)];
}

}  // namespace bk

void brent_kung_scan(const float* d_in, float* d_out, unsigned n)
{
    if (n == 0) return;
    const dim3 grid((n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE);
    bk::scan_section<bk::Padded<BK_SECTION_SIZE>><<<grid, BK_BLOCK_SIZE>>>(d_out, d_in, n);
}
