// Warp functions: shuffles of every type CUDA overloads them for, at every
// width, with source lanes and deltas inside and outside the segment; votes
// with full and partial masks; __activemask in divergent code; matches;
// reductions (sm_80); __nanosleep as a look-back's back-off; clock() and
// clock64(), of which only the order is compared (the emulator's counter
// runs at no GPU's rate).
#include <vector>

#include "conformance.hpp"

namespace {

constexpr unsigned kThreads = 256;  // 8 warps, one block
constexpr unsigned kFull = 0xffffffffu;

// Shuffles: out[k * n + t] for the k-th (function, width, argument).
template <typename T>
__global__ void k_shuffles(const T* in, T* out) {
    const unsigned t = threadIdx.x, lane = t % 32, n = blockDim.x;
    const T v = in[t];
    unsigned k = 0;
    for (int width = 32; width >= 1; width /= 2) {
        out[k++ * n + t] = __shfl_sync(kFull, v, 0, width);
        out[k++ * n + t] = __shfl_sync(kFull, v, -1, width);  // the segment's last lane
        out[k++ * n + t] = __shfl_sync(kFull, v, 35, width);  // 35 modulo width
        out[k++ * n + t] = __shfl_sync(kFull, v, static_cast<int>(lane * 7 + 3), width);
        out[k++ * n + t] = __shfl_up_sync(kFull, v, 1, width);
        out[k++ * n + t] = __shfl_up_sync(kFull, v, 3, width);  // keeps its own below the segment
        out[k++ * n + t] = __shfl_down_sync(kFull, v, 1, width);
        out[k++ * n + t] = __shfl_down_sync(kFull, v, 3, width);  // keeps its own past the segment
        out[k++ * n + t] = __shfl_xor_sync(kFull, v, 1, width);
        out[k++ * n + t] = __shfl_xor_sync(kFull, v, 5, width);
        out[k++ * n + t] = __shfl_xor_sync(kFull, v, 16, width);  // an earlier segment, or its own
    }
}
constexpr unsigned kShuffles = 6 * 11;

template <typename T>
void record_shuffles(conformance::Results& r, const char* type, const std::vector<T>& in) {
    conformance::Buffer<T> d_in(in), d_out(kShuffles * kThreads);
    k_shuffles<T><<<1, kThreads>>>(d_in, d_out);
    const std::vector<T> out = d_out.get();
    static const char* const names[11] = {"__shfl_sync(v, 0)",        "__shfl_sync(v, -1)",      "__shfl_sync(v, 35)",
                                          "__shfl_sync(v, lane*7+3)", "__shfl_up_sync(v, 1)",    "__shfl_up_sync(v, 3)",
                                          "__shfl_down_sync(v, 1)",   "__shfl_down_sync(v, 3)",  "__shfl_xor_sync(v, 1)",
                                          "__shfl_xor_sync(v, 5)",    "__shfl_xor_sync(v, 16)"};
    for (unsigned k = 0; k < kShuffles; ++k)
        r.exact(std::string(names[k % 11]) + " width " + std::to_string(32 >> (k / 11)) + " " + type,
                std::vector<T>(out.begin() + k * kThreads, out.begin() + (k + 1) * kThreads));
}

// Partial masks: only the lanes of the mask call, each with the mask's own
// lanes as sources.
__global__ void k_shuffle_partial(const int* in, int* out) {
    const unsigned t = threadIdx.x, lane = t % 32, n = blockDim.x;
    const int v = in[t];
    out[t] = out[n + t] = out[2 * n + t] = -1;
    if (lane % 2 == 0) {  // the even lanes
        out[t] = __shfl_sync(0x55555555u, v, static_cast<int>((lane + 4) % 32));
        out[n + t] = __shfl_xor_sync(0x55555555u, v, 2);
    }
    if (lane < 16) out[2 * n + t] = __shfl_down_sync(0x0000ffffu, v, 4, 16);
}

__global__ void k_votes(const unsigned* in, unsigned* out) {
    const unsigned t = threadIdx.x, lane = t % 32, warp = t / 32, n = blockDim.x;
    const unsigned v = in[t];
    out[t] = __ballot_sync(kFull, v & 1u);
    out[n + t] = __any_sync(kFull, v == 0xffffffffu);
    out[2 * n + t] = __all_sync(kFull, v != 7u);
    out[3 * n + t] = __uni_sync(kFull, warp % 2 == 0 ? 1 : (v & 2u));
    out[4 * n + t] = __any_sync(kFull, warp == 3 && lane == 17);
    out[5 * n + t] = __all_sync(kFull, warp != 5 || lane != 30);
    out[6 * n + t] = __ballot_sync(kFull, 1);
    const unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;  // each half its own mask
    out[7 * n + t] = __ballot_sync(half, v % 3 == 0);
    out[8 * n + t] = __all_sync(half, v != 0u);
    out[9 * n + t] = __uni_sync(half, lane < 24);
    out[10 * n + t] = __any_sync(half, v % 5 == 1);
}

// __activemask: the lanes that took a branch; the lanes left after others
// returned.
__global__ void k_activemask(unsigned* out) {
    const unsigned t = threadIdx.x, lane = t % 32, n = blockDim.x;
    out[t] = out[n + t] = out[2 * n + t] = 0;
    if (t % 3 == 0) out[t] = __activemask();
    if (lane % 8 == 5) out[n + t] = __activemask();
    if (lane >= 20) return;
    out[2 * n + t] = __activemask();
}

template <typename T>
__global__ void k_match(const T* in, unsigned* out) {
    const unsigned t = threadIdx.x, warp = t / 32, n = blockDim.x;
    const T v = in[t];
    out[t] = __match_any_sync(kFull, v);
    int pred = -1;
    // Warps 0, 2, 4 and 6 hold one value in every lane, the others their own.
    const T w = warp % 2 == 0 ? static_cast<T>(warp) : v;
    out[n + t] = __match_all_sync(kFull, w, &pred);
    out[2 * n + t] = static_cast<unsigned>(pred);
    const unsigned low = 0x000000ffu << (warp % 4 * 8);  // 8 lanes of each warp
    out[3 * n + t] = out[4 * n + t] = out[5 * n + t] = 0xdeadu;
    if (low >> (t % 32) & 1u) {
        out[3 * n + t] = __match_any_sync(low, v);
        out[4 * n + t] = __match_all_sync(low, w, &pred);
        out[5 * n + t] = static_cast<unsigned>(pred);
    }
}

template <typename T>
void record_match(conformance::Results& r, const char* type, const std::vector<T>& in) {
    conformance::Buffer<T> d_in(in);
    conformance::Buffer<unsigned> d_out(6 * kThreads);
    k_match<T><<<1, kThreads>>>(d_in, d_out);
    const std::vector<unsigned> out = d_out.get();
    static const char* const names[6] = {"__match_any_sync(full, v)",    "__match_all_sync(full, w)",
                                         "its pred (full)",              "__match_any_sync(8 lanes, v)",
                                         "__match_all_sync(8 lanes, w)", "its pred (8 lanes)"};
    for (unsigned k = 0; k < 6; ++k)
        r.exact(std::string(names[k]) + " " + type,
                std::vector<unsigned>(out.begin() + k * kThreads, out.begin() + (k + 1) * kThreads));
}

// Values with repeats, so matches find groups: v % 5 (as T), in lanes' order.
template <typename T>
std::vector<T> repeating(const std::vector<T>& v, T modulus) {
    std::vector<T> out;
    for (const T& x : v) out.push_back(static_cast<T>(static_cast<unsigned long long>(x) % static_cast<unsigned long long>(modulus)));
    return out;
}

__global__ void k_reduce(const unsigned* in, unsigned* out) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800  // sm_80's warp reductions (the H100's code)
    const unsigned t = threadIdx.x, lane = t % 32, n = blockDim.x;
    const unsigned u = in[t];
    const int i = static_cast<int>(u);
    out[t] = __reduce_add_sync(kFull, u);
    out[n + t] = static_cast<unsigned>(__reduce_add_sync(kFull, i));
    out[2 * n + t] = __reduce_min_sync(kFull, u);
    out[3 * n + t] = static_cast<unsigned>(__reduce_min_sync(kFull, i));
    out[4 * n + t] = __reduce_max_sync(kFull, u);
    out[5 * n + t] = static_cast<unsigned>(__reduce_max_sync(kFull, i));
    out[6 * n + t] = __reduce_and_sync(kFull, u | 0x00f000f0u);
    out[7 * n + t] = __reduce_or_sync(kFull, u & 0x0f0f0f0fu);
    out[8 * n + t] = __reduce_xor_sync(kFull, u);
    out[9 * n + t] = 0xdeadu;
    out[10 * n + t] = 0xdeadu;
    if (lane % 3 == 0) {
        const unsigned thirds = 0x49249249u;
        out[9 * n + t] = static_cast<unsigned>(__reduce_min_sync(thirds, i));
        out[10 * n + t] = __reduce_add_sync(thirds, u);
    }
#else
    out[threadIdx.x] = 0;
#endif
}

// __nanosleep as a chained scan's back-off: each block takes a ticket, waits
// (polling with an atomic, sleeping between polls) for the block before it
// in ticket order to publish its running count, and publishes its own.
__global__ void k_nanosleep(unsigned* tickets, unsigned* counts) {
    if (threadIdx.x != 0) return;
    const unsigned ticket = atomicAdd(tickets, 1u);
    unsigned before = 0;
    if (ticket > 0) {
        unsigned ns = 8;
        while ((before = atomicAdd(&counts[ticket - 1], 0u)) == 0u) {
            __nanosleep(ns);
            if (ns < 256) ns *= 2;
        }
    }
    atomicExch(&counts[ticket], before + ticket + 1);
}

// clock() and clock64(): each thread's second reading is later than its
// first (clock() counts 32 bits, compared modulo 2^32).
__global__ void k_clocks(const unsigned* in, unsigned* out) {
    const unsigned t = threadIdx.x, n = blockDim.x;
    const long long a = clock64();
    const clock_t c = clock();
    unsigned x = in[t];
    for (int i = 0; i < 100; ++i) x = x * 1664525u + 1013904223u;
    __nanosleep(100);
    const clock_t d = clock();
    const long long b = clock64();
    out[t] = b > a ? 1u : 0u;
    const unsigned diff = static_cast<unsigned>(d) - static_cast<unsigned>(c);
    out[n + t] = diff > 0u && diff < 0x80000000u ? 1u : 0u;
    out[2 * n + t] = x == 12345u ? 2u : 1u;  // keeps the loop
}

template <typename T>
std::vector<T> first_n(const std::vector<T>& v) {
    return {v.begin(), v.begin() + kThreads};
}

template <typename T, typename U>
std::vector<T> as(const std::vector<U>& v) {
    std::vector<T> out;
    for (const U& x : v) out.push_back(static_cast<T>(x));
    return out;
}

std::vector<long long> i64_inputs() {
    std::vector<long long> out;
    for (unsigned long long x : conformance::u64_inputs()) out.push_back(static_cast<long long>(x));
    return out;
}

}  // namespace

CONFORMANCE_CASE(shuffles, "__shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync") {
    record_shuffles(r, "int", first_n(conformance::i32_inputs()));
    record_shuffles(r, "unsigned", first_n(conformance::u32_inputs()));
    record_shuffles(r, "float", first_n(conformance::f32_inputs()));
    record_shuffles(r, "long long", first_n(i64_inputs()));
    record_shuffles(r, "unsigned long long", first_n(conformance::u64_inputs()));
    record_shuffles(r, "double", first_n(conformance::f64_inputs()));
    record_shuffles(r, "long", as<long>(first_n(i64_inputs())));
    record_shuffles(r, "unsigned long", as<unsigned long>(first_n(conformance::u64_inputs())));
    conformance::Buffer<int> d_in(first_n(conformance::i32_inputs())), d_out(3 * kThreads);
    k_shuffle_partial<<<1, kThreads>>>(d_in, d_out);
    const std::vector<int> out = d_out.get();
    r.exact("__shfl_sync(even lanes, v, lane + 4)", std::vector<int>(out.begin(), out.begin() + kThreads));
    r.exact("__shfl_xor_sync(even lanes, v, 2)", std::vector<int>(out.begin() + kThreads, out.begin() + 2 * kThreads));
    r.exact("__shfl_down_sync(lanes 0-15, v, 4, 16)", std::vector<int>(out.begin() + 2 * kThreads, out.end()));
}

CONFORMANCE_CASE(votes, "__ballot_sync __any_sync __all_sync __uni_sync") {
    conformance::Buffer<unsigned> d_in(first_n(conformance::u32_inputs())), d_out(11 * kThreads);
    k_votes<<<1, kThreads>>>(d_in, d_out);
    const std::vector<unsigned> out = d_out.get();
    static const char* const names[11] = {"__ballot_sync(v & 1)",     "__any_sync(v == ~0)",    "__all_sync(v != 7)",
                                          "__uni_sync",              "__any_sync(one lane)",   "__all_sync(all but one lane)",
                                          "__ballot_sync(1)",        "__ballot_sync(half, v % 3 == 0)",
                                          "__all_sync(half, v != 0)", "__uni_sync(half, lane < 24)",
                                          "__any_sync(half, v % 5 == 1)"};
    for (unsigned k = 0; k < 11; ++k)
        r.exact(names[k], std::vector<unsigned>(out.begin() + k * kThreads, out.begin() + (k + 1) * kThreads));
}

CONFORMANCE_CASE(activemask, "__activemask") {
    conformance::Buffer<unsigned> d_out(3 * kThreads);
    k_activemask<<<1, kThreads>>>(d_out);
    const std::vector<unsigned> out = d_out.get();
    r.exact("__activemask() in if (t % 3 == 0)", std::vector<unsigned>(out.begin(), out.begin() + kThreads));
    r.exact("__activemask() in if (lane % 8 == 5)", std::vector<unsigned>(out.begin() + kThreads, out.begin() + 2 * kThreads));
    r.exact("__activemask() after lanes 20-31 returned", std::vector<unsigned>(out.begin() + 2 * kThreads, out.end()));
}

CONFORMANCE_CASE(matches, "__match_any_sync __match_all_sync") {
    const auto u = first_n(conformance::u32_inputs());
    record_match(r, "unsigned", repeating(u, 5u));
    record_match(r, "int", as<int>(repeating(u, 7u)));
    record_match(r, "long long", as<long long>(repeating(first_n(conformance::u64_inputs()), 3ull)));
    record_match(r, "unsigned long long", repeating(first_n(conformance::u64_inputs()), 4ull));
    record_match(r, "long", as<long>(repeating(u, 6u)));
    record_match(r, "unsigned long", as<unsigned long>(repeating(u, 2u)));
    std::vector<float> f;
    std::vector<double> d;
    for (unsigned i = 0; i < kThreads; ++i) {
        f.push_back(i % 11 == 0 ? -0.0f : static_cast<float>(u[i] % 4) * 0.5f);  // -0.0 matches only -0.0
        d.push_back(static_cast<double>(u[i] % 3) - 1.0);
    }
    record_match(r, "float", f);
    record_match(r, "double", d);
}

CONFORMANCE_CASE(reductions, "__reduce_add_sync __reduce_min_sync __reduce_max_sync __reduce_and_sync __reduce_or_sync __reduce_xor_sync") {
    conformance::Buffer<unsigned> d_in(first_n(conformance::u32_inputs())), d_out(11 * kThreads);
    k_reduce<<<1, kThreads>>>(d_in, d_out);
    const std::vector<unsigned> out = d_out.get();
    static const char* const names[11] = {"__reduce_add_sync unsigned", "__reduce_add_sync int",
                                          "__reduce_min_sync unsigned", "__reduce_min_sync int",
                                          "__reduce_max_sync unsigned", "__reduce_max_sync int",
                                          "__reduce_and_sync",          "__reduce_or_sync",
                                          "__reduce_xor_sync",          "__reduce_min_sync int, lanes 0, 3, ...",
                                          "__reduce_add_sync unsigned, lanes 0, 3, ..."};
    for (unsigned k = 0; k < 11; ++k)
        r.exact(names[k], std::vector<unsigned>(out.begin() + k * kThreads, out.begin() + (k + 1) * kThreads));
}

CONFORMANCE_CASE(nanosleep, "__nanosleep") {
    constexpr unsigned kBlocks = 12;
    conformance::Buffer<unsigned> tickets(1), counts(kBlocks);
    k_nanosleep<<<kBlocks, 32>>>(tickets, counts);
    r.exact("running counts published in ticket order", counts.get());
}

CONFORMANCE_CASE(clocks, "clock clock64") {
    conformance::Buffer<unsigned> d_in(first_n(conformance::u32_inputs())), d_out(3 * kThreads);
    k_clocks<<<1, kThreads>>>(d_in, d_out);
    const std::vector<unsigned> out = d_out.get();
    r.exact("clock64() later than before", std::vector<unsigned>(out.begin(), out.begin() + kThreads));
    r.exact("clock() later than before (mod 2^32)", std::vector<unsigned>(out.begin() + kThreads, out.begin() + 2 * kThreads));
}
