// Lab 02 -- Brent-Kung, written generically.
//
// The kernel is a template over the section size and the operator (a functor
// passed by value), the tree levels are counted with a constexpr log2, and the
// load/store use small lambdas.  Launched with cudaLaunchKernel() as in the
// Programming Guide's "Execution Configuration" section, with error checking.
#include <cstdio>

#include <cuda_runtime.h>

#include "scan.hpp"

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess)                                                  \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorName(err_), \
                    __FILE__, __LINE__, cudaGetErrorString(err_));                \
    } while (0)

__host__ __device__ constexpr unsigned ilog2(unsigned x) { return x <= 1 ? 0 : 1 + ilog2(x / 2); }

struct Plus {
    __device__ float operator()(float a, float b) const { return a + b; }
    __device__ static constexpr float identity() { return 0.0f; }
};

template <unsigned SECTION, typename Op>
__global__ void brent_kung_kernel(const float* __restrict__ in, float* __restrict__ out, unsigned n, Op op)
{
    static_assert((SECTION & (SECTION - 1)) == 0, "power of two");
    constexpr unsigned LEVELS = ilog2(SECTION);
    constexpr unsigned THREADS = SECTION / 2;

    __shared__ float XY[SECTION];

    const unsigned t = threadIdx.x;
    const unsigned first = blockIdx.x * SECTION;
    const unsigned left = n - first;   // elements of this section that exist (may exceed SECTION)

    auto load = [&](unsigned k) { XY[k] = (k < left) ? in[first + k] : Op::identity(); };
    auto store = [&](unsigned k) { if (k < left) out[first + k] = XY[k]; };

    load(t);
    load(t + THREADS);

    // reduction tree: level l combines pairs 2^l apart
#pragma unroll
    for (unsigned l = 0; l < LEVELS; ++l) {
        const unsigned stride = 1u << l;
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index < SECTION) XY[index] = op(XY[index - stride], XY[index]);
    }
    // distribution tree: level l pushes partial sums 2^l to the right
#pragma unroll
    for (int l = static_cast<int>(LEVELS) - 2; l >= 0; --l) {
        const unsigned stride = 1u << l;
        __syncthreads();
        const unsigned index = (t + 1) * 2 * stride - 1;
        if (index + stride < SECTION) XY[index + stride] = op(XY[index], XY[index + stride]);
    }
    __syncthreads();

    store(t);
    store(t + THREADS);
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n)
{
    if (n == 0) return;
    const dim3 grid((n - 1) / BK_SECTION_SIZE + 1);
    const dim3 block(BK_BLOCK_SIZE);
    Plus op;
    void* args[] = {&d_in, &d_out, &n, &op};
    CUDA_CHECK(cudaLaunchKernel((const void*)brent_kung_kernel<BK_SECTION_SIZE, Plus>, grid, block, args, 0, nullptr));
}
