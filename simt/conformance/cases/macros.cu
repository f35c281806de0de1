// The macros nvcc defines (simt/include/simt/nvcc.hpp): code cannot tell the
// emulator from nvcc. __CUDA_ARCH__ is defined in device code only: a
// __host__ __device__ function sees it in a kernel and not on the host (the
// emulator compiles such a file twice, rewrite.hpp). Recorded from an
// sm_90 build (-Dgpu_arch=90), whose __CUDA_ARCH_LIST__ is 900.
#include <vector>

#include "conformance.hpp"

namespace {

__host__ __device__ int arch() {
#ifdef __CUDA_ARCH__
    return __CUDA_ARCH__;
#else
    return -1;
#endif
}

__host__ __device__ int defined_macros() {
    int bits = 0;
#ifdef __CUDACC__
    bits |= 1;
#endif
#ifdef __NVCC__
    bits |= 2;
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
    bits |= 4;
#endif
    return bits;
}

__global__ void k_arch(int* out) {
    out[0] = arch();
    out[1] = defined_macros();
}

}  // namespace

CONFORMANCE_CASE(nvcc_macros, "__CUDACC__ __NVCC__ __CUDACC_VER_MAJOR__ __CUDACC_VER_MINOR__ __CUDACC_VER_BUILD__ "
                              "__CUDA_API_VER_MAJOR__ __CUDA_API_VER_MINOR__ __CUDA_ARCH_LIST__ CUDART_VERSION") {
    r.exact("host: __CUDACC__, __NVCC__ defined (bits 0, 1)", std::vector<int>{defined_macros()});
    r.exact("__CUDACC_VER_MAJOR__, _MINOR__, _BUILD__",
            std::vector<int>{__CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__});
    r.exact("__CUDA_API_VER_MAJOR__, _MINOR__", std::vector<int>{__CUDA_API_VER_MAJOR__, __CUDA_API_VER_MINOR__});
    r.exact("__CUDA_ARCH_LIST__, CUDART_VERSION", std::vector<int>{__CUDA_ARCH_LIST__, CUDART_VERSION});
}

CONFORMANCE_CASE(cuda_arch, "__CUDA_ARCH__") {
    conformance::Buffer<int> out(2);
    k_arch<<<1, 1>>>(out);
    r.exact("in a kernel: __CUDA_ARCH__, then the macros' bits", out.get());
    r.exact("on the host: __CUDA_ARCH__ (-1: not defined)", std::vector<int>{arch()});
}
