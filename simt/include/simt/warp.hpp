// Warp functions: __syncwarp, shuffles and votes, met at a rendezvous of the
// warp's lanes (runtime.cpp's warp_exchange).
#pragma once

#include <cstring>
#include <type_traits>

namespace simt {

// Every lane named in `mask` deposits a value and waits for the others; the
// result points at the 32 deposits of that round, by lane.
// The lanes of `mask` meet; `orders_memory` for __syncwarp, which (unlike the
// shuffles and votes) orders the participants' memory accesses.
const unsigned long long* warp_exchange(unsigned mask, unsigned long long deposit, const char* file, int line,
                                        bool orders_memory = false);
unsigned lane_id();

template <typename T>
unsigned long long to_bits(T v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "simt: shuffles move values of at most 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    return bits;
}

template <typename T>
T from_bits(unsigned long long bits) {
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

// src_of(lane) gives the source lane; out of the segment or the mask, a lane
// keeps its own value (CUDA leaves such results undefined or unchanged).
// Not instrumented: it reads the runtime's deposit buffer, not kernel data.
template <typename T, typename Source>
__attribute__((no_sanitize_thread)) T shuffle(const char* file, int line, unsigned mask, T var, int width,
                                              Source src_of) {
    const unsigned lane = lane_id();
    const unsigned long long* all = warp_exchange(mask, to_bits(var), file, line);
    const int w = (width > 0 && width <= 32) ? width : 32;
    const int base = static_cast<int>(lane) / w * w;
    const int src = src_of(static_cast<int>(lane), base, w);
    if (src < base || src >= base + w || !(mask >> src & 1u)) return var;
    return from_bits<T>(all[src]);
}

}  // namespace simt

#define __syncwarp(...) ::simt::SyncWarp{__FILE__, __LINE__}(__VA_ARGS__)
#define __shfl_sync(mask, var, src, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int, int base, int w) { return base + static_cast<int>(src) % w; })
#define __shfl_up_sync(mask, var, delta, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int lane, int base, int) { int s = lane - static_cast<int>(delta); return s < base ? lane : s; })
#define __shfl_down_sync(mask, var, delta, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int lane, int base, int w) { int s = lane + static_cast<int>(delta); return s >= base + w ? lane : s; })
#define __shfl_xor_sync(mask, var, lane_mask, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int lane, int, int) { return lane ^ static_cast<int>(lane_mask); })
#define __ballot_sync(mask, predicate) ::simt::ballot_at(__FILE__, __LINE__, mask, (predicate) ? 1 : 0)
#define __any_sync(mask, predicate) (__ballot_sync(mask, predicate) != 0u)
#define __all_sync(mask, predicate) (__ballot_sync(mask, predicate) == (mask))
#define __activemask() 0xffffffffu

namespace simt {
constexpr int width_or_32(int width = 32) { return width; }
struct SyncWarp {  // __syncwarp() and __syncwarp(mask), at the caller's line
    const char* file;
    int line;
    void operator()(unsigned mask = 0xffffffffu) const { warp_exchange(mask, 0, file, line, true); }
};
__attribute__((no_sanitize_thread)) inline unsigned ballot_at(const char* file, int line, unsigned mask,
                                                              int predicate) {
    const unsigned long long* all = warp_exchange(mask, static_cast<unsigned long long>(predicate), file, line);
    unsigned bits = 0;
    for (unsigned l = 0; l < 32; ++l)
        if ((mask >> l & 1u) && all[l]) bits |= 1u << l;
    return bits;
}
}  // namespace simt

// The shuffles and votes without a mask were removed from CUDA for Volta and
// newer GPUs (nvcc rejects them there): a compile error that says what to use.
#define SIMT_REMOVED(name, instead)                                                                     \
    template <typename... Args>                                                                         \
    int name(Args&&...) {                                                                               \
        static_assert(sizeof...(Args) < 0, "simt: " #name " was removed from CUDA for Volta and newer " \
                                           "GPUs (nvcc rejects it too): use " #instead " with a mask");  \
        return 0;                                                                                       \
    }
SIMT_REMOVED(__shfl, __shfl_sync)
SIMT_REMOVED(__shfl_up, __shfl_up_sync)
SIMT_REMOVED(__shfl_down, __shfl_down_sync)
SIMT_REMOVED(__shfl_xor, __shfl_xor_sync)
SIMT_REMOVED(__ballot, __ballot_sync)
SIMT_REMOVED(__any, __any_sync)
SIMT_REMOVED(__all, __all_sync)
#undef SIMT_REMOVED
