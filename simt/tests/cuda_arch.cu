// A file that uses __CUDA_ARCH__ is compiled as a host pass and a device pass
// (rewrite.hpp): its kernels, and the __host__ __device__ functions they
// call, see __CUDA_ARCH__ defined (900); its host code does not.
#include "kernels.hpp"

namespace arch {

__device__ unsigned launches_seen;  // one variable, whichever pass names it
__constant__ int offset;

__host__ __device__ int arch_here() {
#ifdef __CUDA_ARCH__
    return __CUDA_ARCH__;
#else
    return -1;
#endif
}

// Launched with T deduced from the arguments, as nvcc allows.
template <typename T>
__global__ void fill(T* out, int n) {
    if (static_cast<int>(threadIdx.x) < n) out[threadIdx.x] = static_cast<T>(arch_here() + offset);
    if (threadIdx.x == 0) atomicAdd(&launches_seen, 1u);
}

}  // namespace arch

cudaError_t launch_cuda_arch(int* d_out, int n, int* host_arch, unsigned* launches) {
    arch::offset = 5;  // the host pass's variable: the device pass's kernels read the same one
    arch::fill<<<1, 32>>>(d_out, n);
    arch::fill<<<1, 32>>>(d_out + n, n);
    *host_arch = arch::arch_here();
    *launches = arch::launches_seen;
    return cudaGetLastError();
}
