// Lab 02: Brent-Kung after GPU Gems 3, ch. 39 (Harris, Sengupta & Owens):
// the work-efficient exclusive prescan in dynamic shared memory, padded
// against bank conflicts, then each element added back for the inclusive
// scan. The kernel is a template over the padding (B: 1 pads, 0 does not)
// and the element type, which the launch deduces from its arguments.
#include "scan.hpp"

#define LOG_NUM_BANKS 5

template <int B>
__device__ __forceinline__ int conflict_free(int i) { return B ? i + (i >> LOG_NUM_BANKS) : i; }

template <int B, typename T>
__global__ void prescan(T* out, const T* in, int n)
{
    extern __shared__ float temp[];
    const int thid = threadIdx.x;
    const int m = 2 * blockDim.x;
    const int base = blockIdx.x * m;
    const int ai = thid, bi = thid + blockDim.x;
    const T a = base + ai < n ? in[base + ai] : T(0);
    const T b = base + bi < n ? in[base + bi] : T(0);
    temp[conflict_free<B>(ai)] = a;
    temp[conflict_free<B>(bi)] = b;

    int offset = 1;
    for (int d = m >> 1; d > 0; d >>= 1) {  // up-sweep
        __syncthreads();
        if (thid < d) {
            const int i = offset * (2 * thid + 1) - 1;
            const int j = offset * (2 * thid + 2) - 1;
            temp[conflict_free<B>(j)] += temp[conflict_free<B>(i)];
        }
        offset *= 2;
    }
    if (thid == 0) temp[conflict_free<B>(m - 1)] = 0;
    for (int d = 1; d < m; d *= 2) {  // down-sweep
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            const int i = offset * (2 * thid + 1) - 1;
            const int j = offset * (2 * thid + 2) - 1;
            const T t = temp[conflict_free<B>(i)];
            temp[conflict_free<B>(i)] = temp[conflict_free<B>(j)];
            temp[conflict_free<B>(j)] += t;
        }
    }
    __syncthreads();
    if (base + ai < n) out[base + ai] = temp[conflict_free<B>(ai)] + a;
    if (base + bi < n) out[base + bi] = temp[conflict_free<B>(bi)] + b;
}

void brent_kung_scan(const float* d_in, float* d_out, unsigned n)
{
    if (n == 0) return;
    const unsigned grid = (n + BK_SECTION_SIZE - 1) / BK_SECTION_SIZE;
    const size_t bytes = (BK_SECTION_SIZE + (BK_SECTION_SIZE >> LOG_NUM_BANKS)) * sizeof(float);
    prescan<1><<<grid, BK_BLOCK_SIZE, bytes>>>(d_out, d_in, static_cast<int>(n));
}
