// The macros nvcc defines, as nvcc 13.0 defines them for an sm_90 build
// (nvcc -E -Xcompiler -dM), so a lab's code cannot tell the emulator from
// nvcc. The rewriter includes this first, before any system header (glibc's
// and libstdc++'s headers read __CUDACC__ as they do under nvcc); the
// device pass of a file that uses __CUDA_ARCH__ adds that one (rewrite.hpp).
#pragma once

#define __CUDACC__ 1
#define __NVCC__ 1
#define __CUDACC_VER_MAJOR__ 13
#define __CUDACC_VER_MINOR__ 0
#define __CUDACC_VER_BUILD__ 88
#define __CUDA_API_VER_MAJOR__ 13
#define __CUDA_API_VER_MINOR__ 0
#define __CUDA_ARCH_LIST__ 900
