// Test kernels of CUDA's math functions for the emulator, in CUDA syntax: the
// build rewrites this file with simt-rewrite as it rewrites a lab's scan.cu.
// test_simt.cpp asserts the line numbers below.
#include "kernels.hpp"

// CUDA's math functions that store through a pointer (math.cpp, not
// instrumented) check each store as the instrumentation would, at the
// kernel's line: thread 31's sincosf writes s[32], past the end, and
// threads 2k and 2k + 1 both write e[k] through frexpf.
__global__ void math_stores(const float* in, float* s, float* c, int* e) {
    const unsigned t = threadIdx.x;
    sincosf(in[t], &s[t + 1], &c[t]);  // line 12
    frexpf(in[t], &e[t / 2]);          // line 13
}

cudaError_t launch_math_stores(const float* d_in, float* d_s, float* d_c, int* d_e) {
    math_stores<<<1, 32>>>(d_in, d_s, d_c, d_e);  // line 17
    return cudaGetLastError();
}
