// Reads of memory nothing wrote: a cudaMalloc'd accumulator never cleared, a
// string copied without its terminator and read a word at a time, a shared
// tile a partial block fills only in part, and atomicExch into slots never
// cleared (initcheck's rule: an atomic reads the old value, used or not).
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include "safety.hpp"

namespace {

constexpr unsigned kThreads = 256, kBlocks = 4, kN = kThreads * kBlocks;

// acc += x, one launch per input array.
__global__ void accumulate(float* acc, const float* x) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    acc[i] += x[i];
}

// Counts the spaces of a text padded to whole words, a word (4 bytes) a thread.
__global__ void count_spaces(const uchar4* text, unsigned words, unsigned* spaces) {
    const unsigned w = blockIdx.x * blockDim.x + threadIdx.x;
    if (w >= words) return;
    const uchar4 c = text[w];
    const unsigned n = (c.x == ' ') + (c.y == ' ') + (c.z == ' ') + (c.w == ' ');
    if (n) atomicAdd(spaces, n);
}

// Each block's maximum by halving in shared memory. The bug loads only the
// elements that exist, so in the last, partial block the reduction reads
// slots no thread wrote; the fix fills them with INT_MIN, which no maximum is below.
__global__ void tile_max_bug(const int* in, int* out, unsigned n) {
    __shared__ int tile[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    if (i < n) tile[t] = in[i];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) tile[t] = max(tile[t], tile[t + stride]);
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = tile[0];
}

__global__ void tile_max_clean(const int* in, int* out, unsigned n) {
    __shared__ int tile[256];
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    tile[t] = i < n ? in[i] : INT_MIN;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride) tile[t] = max(tile[t], tile[t + stride]);
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = tile[0];
}

// For each key, the index of some element with that key (the last writer
// wins); a key no element has keeps the slot's value, -1 once it is cleared.
__global__ void any_index(const int* keys, int* slot, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicExch(&slot[keys[i]], static_cast<int>(i));
}

}  // namespace

SAFETY_CASE(uninit_global, "uninitialised global memory read") {
    std::vector<float> a(kN), b(kN), want(kN);
    for (unsigned i = 0; i < kN; ++i) a[i] = static_cast<float>(i % 3), b[i] = static_cast<float>(i % 5);
    for (unsigned i = 0; i < kN; ++i) want[i] = a[i] + b[i];
    safety::Buffer<float> da(a), db(b), acc(kN);
    if (!r.bug) acc.zero();  // the bug: cudaMalloc leaves the accumulator as it was
    accumulate<<<kBlocks, kThreads>>>(acc, da);
    accumulate<<<kBlocks, kThreads>>>(acc, db);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("sums", acc.get(), want);
}

SAFETY_CASE(uninit_global_byte, "uninitialised global memory read") {
    const std::string text = "a b c d e f g h";  // 15 characters: with its terminator, 4 words
    const unsigned words = static_cast<unsigned>(text.size() + 1 + 3) / 4;
    safety::Buffer<uchar4> d_text(words);
    safety::Buffer<unsigned> spaces(1);
    spaces.zero();
    // The bug copies the characters without the terminator, so the last
    // word's fourth byte is never written.
    r.require(cudaMemcpy(d_text, text.c_str(), r.bug ? text.size() : text.size() + 1, cudaMemcpyHostToDevice),
              "cudaMemcpy");
    count_spaces<<<1, 32>>>(d_text, words, spaces);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("spaces", spaces.get(), std::vector<unsigned>{7});
}

SAFETY_CASE(uninit_shared, "uninitialised shared memory read") {
    constexpr unsigned n = kN - 24;  // the last block has 232 elements
    std::vector<int> input(n), want(kBlocks, INT_MIN);
    for (unsigned i = 0; i < n; ++i) input[i] = static_cast<int>(i * 7919 % 1000) - 500;
    for (unsigned i = 0; i < n; ++i) want[i / kThreads] = std::max(want[i / kThreads], input[i]);
    safety::Buffer<int> in(input), out(kBlocks);
    if (r.bug) tile_max_bug<<<kBlocks, kThreads>>>(in, out, n);
    else tile_max_clean<<<kBlocks, kThreads>>>(in, out, n);
    r.require(cudaGetLastError(), "launch");
    r.clean_result("block maxima", out.get(), want);
}

SAFETY_CASE(atomic_exch_uninit, "atomicExch into memory never cleared") {
    constexpr unsigned n = 500, keys = 64;
    std::vector<int> key(n);
    for (unsigned i = 0; i < n; ++i) key[i] = static_cast<int>(i * 13 % 61);  // keys 61-63: no element
    safety::Buffer<int> d_key(key), slot(keys);
    if (!r.bug) cudaMemset(slot, 0xff, slot.bytes());  // the bug: slots never cleared to -1
    any_index<<<(n + kThreads - 1) / kThreads, kThreads>>>(d_key, slot, n);
    r.require(cudaGetLastError(), "launch");
    // Right: each slot names an element with its key, or is -1 where none has it.
    const auto got = slot.get();
    std::vector<int> right(keys, 1), ok(keys);
    for (unsigned k = 0; k < keys; ++k)
        ok[k] = k >= 61 ? got[k] == -1 : got[k] >= 0 && got[k] < static_cast<int>(n) && key[got[k]] == static_cast<int>(k);
    r.clean_result("slots", ok, right);
}
