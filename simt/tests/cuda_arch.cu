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

// A namespace-scope __shared__ array, in both passes: the device pass's
// kernels use the device pass's, checked as a function's would be.
__shared__ int tally[32];

// Scale written, T deduced; thread t reads what thread t - 1 wrote with no
// barrier between: a race.
template <int Scale, typename T>
__global__ void scaled_race(T* out) {
    tally[threadIdx.x] = Scale;  // line 34
    out[threadIdx.x] = static_cast<T>(tally[threadIdx.x > 0 ? threadIdx.x - 1 : 0]);  // line 35
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

cudaError_t launch_cuda_arch_race(int* d_out) {
    arch::scaled_race<3><<<1, 32>>>(d_out);  // line 50
    return cudaGetLastError();
}
