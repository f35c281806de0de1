// Warp functions: a mask that leaves out lanes that call with it, and a full
// mask after some of its lanes returned.
#include <algorithm>
#include <climits>
#include <vector>

#include "safety.hpp"

namespace {

constexpr unsigned kThreads = 128;
constexpr unsigned kN = 100;  // warp 3 has 4 elements: lanes 4-31 have none

// Each warp's sum by shuffles. The bug takes the mask from a ballot of the
// lanes that have an element, but every lane calls the shuffles, so lanes
// past n call with a mask that leaves them out; the fix has every lane in
// the mask and the lanes past n add 0.
__global__ void warp_sums_bug(const int* in, int* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned mask = __ballot_sync(0xffffffffu, i < n);
    int v = i < n ? in[i] : 0;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(mask, v, offset);
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

__global__ void warp_sums_clean(const int* in, int* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : 0;
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

// Each warp's maximum by butterfly shuffles. The bug returns early past n,
// and the lanes that stay call with the full mask, which names the lanes
// that left; the fix keeps every lane, those past n with INT_MIN.
__global__ void warp_max_bug(const int* in, int* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = in[i];
    for (int offset = 16; offset > 0; offset /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, offset));
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

__global__ void warp_max_clean(const int* in, int* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = i < n ? in[i] : INT_MIN;
    for (int offset = 16; offset > 0; offset /= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, offset));
    if (threadIdx.x % 32 == 0) out[i / 32] = v;
}

std::vector<int> inputs() {
    std::vector<int> v(kN);
    for (unsigned i = 0; i < kN; ++i) v[i] = static_cast<int>(i * 31 % 97);
    return v;
}

}  // namespace

SAFETY_CASE(warp_mask_excludes_caller, "warp function whose mask leaves out its caller") {
    const auto input = inputs();
    std::vector<int> want(kThreads / 32, 0);
    for (unsigned i = 0; i < kN; ++i) want[i / 32] += input[i];
    safety::Buffer<int> in(input), out(kThreads / 32);
    if (r.bug) warp_sums_bug<<<1, kThreads>>>(in, out, kN);
    else warp_sums_clean<<<1, kThreads>>>(in, out, kN);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("warp sums", out.get(), want);
}

SAFETY_CASE(warp_lanes_exit, "warp function whose mask names lanes that exited") {
    const auto input = inputs();
    std::vector<int> want(kThreads / 32, INT_MIN);
    for (unsigned i = 0; i < kN; ++i) want[i / 32] = std::max(want[i / 32], input[i]);
    safety::Buffer<int> in(input), out(kThreads / 32);
    if (r.bug) warp_max_bug<<<1, kThreads>>>(in, out, kN);
    else warp_max_clean<<<1, kThreads>>>(in, out, kN);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("warp maxima", out.get(), want);
}
