// Accesses of less than a word: neighbouring bytes written by neighbouring
// threads share a word but no byte (no race); a byte read by one thread and
// written by another is a race.
#include <vector>

#include "safety.hpp"

namespace {

constexpr unsigned kThreads = 256, kBlocks = 2, kN = kThreads * kBlocks;

// A [1 2 1] / 4 smoothing of 8-bit samples, the ends of each block's section
// kept. The bug smooths in place: thread t reads the bytes of t - 1 and
// t + 1, which those threads overwrite; the fix writes a second array.
__global__ void smooth_bug(const unsigned char* in, unsigned char* out) {
    __shared__ unsigned char s[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    if (t > 0 && t + 1 < blockDim.x) s[t] = static_cast<unsigned char>((s[t - 1] + 2 * s[t] + s[t + 1]) / 4);
    __syncthreads();
    out[i] = s[t];
}

__global__ void smooth_clean(const unsigned char* in, unsigned char* out) {
    __shared__ unsigned char s[256];
    __shared__ unsigned char smoothed[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    s[t] = in[i];
    __syncthreads();
    smoothed[t] = t > 0 && t + 1 < blockDim.x ? static_cast<unsigned char>((s[t - 1] + 2 * s[t] + s[t + 1]) / 4) : s[t];
    __syncthreads();
    out[i] = smoothed[t];
}

}  // namespace

SAFETY_CASE(subword, "sub-word accesses (bytes of one word)") {
    std::vector<unsigned char> input(kN), want(kN);
    for (unsigned i = 0; i < kN; ++i) input[i] = static_cast<unsigned char>(i * 29 % 256);
    for (unsigned i = 0; i < kN; ++i) {
        const unsigned t = i % kThreads;
        want[i] = t > 0 && t + 1 < kThreads ? static_cast<unsigned char>((input[i - 1] + 2 * input[i] + input[i + 1]) / 4)
                                            : input[i];
    }
    safety::Buffer<unsigned char> in(input), out(kN);
    if (r.bug) smooth_bug<<<kBlocks, kThreads>>>(in, out);
    else smooth_clean<<<kBlocks, kThreads>>>(in, out);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("smoothed samples", out.get(), want);
}
