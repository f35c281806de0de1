// Lab 04: a scan of any length. Thrust's CUDA backend scans it in one call:
// inclusive_scan_n, the form of inclusive_scan that takes a count, called in
// the backend's own namespace.
#include <cuda_runtime.h>
#include <thrust/execution_policy.h>
#include <thrust/functional.h>
#include <thrust/system/cuda/detail/scan.h>

#include "scan.hpp"

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    thrust::cuda_cub::par_t policy;  // the backend's policy, by reference
    thrust::cuda_cub::inclusive_scan_n(policy, d_in, n, d_out, thrust::plus<float>());
}
