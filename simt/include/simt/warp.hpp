// Warp functions: __syncwarp, the shuffles, votes, matches and reductions,
// met at a rendezvous of the warp's lanes (builtins.cpp's warp_exchange), and
// __activemask, the lanes that reach its call site together. Each is declared
// with CUDA's overloads (so a call resolves, converts and fails to compile as
// under nvcc) and two trailing defaulted parameters that name the caller's
// line for the emulator's reports.
#pragma once

#include <cstddef>
#include <cstring>
#include <ctime>
#include <type_traits>

// The shim's own device code is left out of the basic-block traces (SIMT
// divergence, the watchdog): its branches are the emulator's, not the
// kernel's, and a GPU runs these as single instructions or predicated code.
#define SIMT_NO_COVERAGE __attribute__((no_sanitize_coverage))

namespace simt {

// Every lane named in `mask` deposits a value and waits for the others; the
// result points at the 32 deposits of that round, by lane. `orders_memory`
// for __syncwarp, which (unlike the shuffles and votes) orders the
// participants' memory accesses.
const unsigned long long* warp_exchange(unsigned mask, unsigned long long deposit, const char* file, int line,
                                        bool orders_memory = false);
unsigned lane_id();
// The lanes of the calling warp that reach this call site before any of them
// waits anywhere else (scheduler.cpp): the group a divergent branch leaves.
unsigned active_mask(const char* file, int line);

template <typename T>
SIMT_NO_COVERAGE unsigned long long to_bits(T v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "simt: a deposit holds at most 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    return bits;
}

template <typename T>
SIMT_NO_COVERAGE T from_bits(unsigned long long bits) {
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

enum class Shuffle { Idx, Up, Down, Xor };

// The lane a shuffle reads, as PTX's shfl.sync defines it: CUDA passes
// c = ((32 - width) << 8) | 0x1f (0 for up) and the instruction takes the
// low 5 bits of the lane, delta or lane mask `b`. A segment of `width` lanes
// reads only within itself (up: not below it; down and xor: not above it;
// idx: lane b modulo width of its own segment, so -1 is the segment's last
// lane), and a lane whose source falls outside reads its own value.
SIMT_NO_COVERAGE constexpr unsigned shuffle_source(Shuffle mode, unsigned lane, unsigned b, int width) {
    const unsigned segment = static_cast<unsigned>(32 - width) & 31u;  // c[12:8]: the bits that pick the segment
    const unsigned cval = mode == Shuffle::Up ? 0u : 31u;
    const unsigned max_lane = (lane & segment) | (cval & ~segment & 31u);
    const unsigned min_lane = lane & segment;
    b &= 31u;
    switch (mode) {
        case Shuffle::Up: return static_cast<int>(lane) - static_cast<int>(b) >= static_cast<int>(max_lane) ? lane - b : lane;
        case Shuffle::Down: return lane + b <= max_lane ? lane + b : lane;
        case Shuffle::Xor: return (lane ^ b) <= max_lane ? lane ^ b : lane;
        case Shuffle::Idx: break;
    }
    return min_lane | (b & ~segment & 31u);
}

// A shuffle of any trivially copyable value, 8 bytes per rendezvous (CUDA's
// intrinsics take the arithmetic types below; cooperative groups move any
// such type in pieces). A source lane outside `mask` gives the lane its own
// value (CUDA leaves it undefined). Not instrumented: it reads the runtime's
// deposit buffer, not kernel data.
template <typename T>
__attribute__((no_sanitize_thread)) SIMT_NO_COVERAGE T shuffle(Shuffle mode, unsigned mask, T var, unsigned b, int width,
                                              const char* file, int line) {
    static_assert(std::is_trivially_copyable_v<T>, "simt: a shuffled value must be trivially copyable");
    const unsigned src = shuffle_source(mode, lane_id(), b, width);
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &var, sizeof(T));
    for (std::size_t at = 0; at < sizeof(T); at += 8) {
        const std::size_t n = sizeof(T) - at < 8 ? sizeof(T) - at : 8;
        unsigned long long mine = 0;
        std::memcpy(&mine, bytes + at, n);
        const unsigned long long* all = warp_exchange(mask, mine, file, line);
        const unsigned long long got = (mask >> src & 1u) ? all[src] : mine;
        std::memcpy(bytes + at, &got, n);
    }
    T out;
    std::memcpy(&out, bytes, sizeof(T));
    return out;
}

__attribute__((no_sanitize_thread)) SIMT_NO_COVERAGE inline unsigned ballot_at(const char* file, int line, unsigned mask,
                                                              int predicate) {
    const unsigned long long* all = warp_exchange(mask, predicate != 0 ? 1u : 0u, file, line);
    unsigned bits = 0;
    for (unsigned l = 0; l < 32; ++l)
        if ((mask >> l & 1u) && all[l]) bits |= 1u << l;
    return bits;
}

// The lanes of `mask` whose value has the same bits as the caller's.
template <typename T>
__attribute__((no_sanitize_thread)) SIMT_NO_COVERAGE unsigned match_at(const char* file, int line, unsigned mask, T value,
                                                      int* all_equal) {
    const unsigned long long mine = to_bits(value);
    const unsigned long long* all = warp_exchange(mask, mine, file, line);
    unsigned same = 0;
    for (unsigned l = 0; l < 32; ++l)
        if ((mask >> l & 1u) && all[l] == mine) same |= 1u << l;
    if (all_equal) *all_equal = same == mask;
    return same;
}

enum class Reduce { Add, Min, Max, And, Or, Xor };

template <typename T>
__attribute__((no_sanitize_thread)) SIMT_NO_COVERAGE T reduce_at(const char* file, int line, Reduce op, unsigned mask, T value) {
    const unsigned long long* all = warp_exchange(mask, to_bits(value), file, line);
    bool first = true;
    T r{};
    for (unsigned l = 0; l < 32; ++l) {
        if (!(mask >> l & 1u)) continue;
        const T v = from_bits<T>(all[l]);
        if (first) r = v;
        else switch (op) {
                case Reduce::Add: r = static_cast<T>(static_cast<unsigned>(r) + static_cast<unsigned>(v)); break;
                case Reduce::Min: r = v < r ? v : r; break;
                case Reduce::Max: r = v > r ? v : r; break;
                case Reduce::And: r = r & v; break;
                case Reduce::Or: r = r | v; break;
                case Reduce::Xor: r = r ^ v; break;
            }
        first = false;
    }
    return r;
}

}  // namespace simt

#define SIMT_AT const char *simt_file = __builtin_FILE(), int simt_line = __builtin_LINE()

SIMT_NO_COVERAGE inline void __syncwarp(unsigned mask = 0xffffffffu, SIMT_AT) {
    ::simt::warp_exchange(mask, 0, simt_file, simt_line, true);
}

// ---- shuffles, with CUDA's overloads (8-byte ones in one rendezvous here,
// two 4-byte shuffles on a GPU: the same values either way)
#define SIMT_SHUFFLES(T)                                                                                          \
    SIMT_NO_COVERAGE inline T __shfl_sync(unsigned mask, T var, int srcLane, int width = 32, SIMT_AT) {                           \
        return ::simt::shuffle(::simt::Shuffle::Idx, mask, var, static_cast<unsigned>(srcLane), width, simt_file, \
                               simt_line);                                                                        \
    }                                                                                                             \
    SIMT_NO_COVERAGE inline T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, SIMT_AT) {                      \
        return ::simt::shuffle(::simt::Shuffle::Up, mask, var, delta, width, simt_file, simt_line);               \
    }                                                                                                             \
    SIMT_NO_COVERAGE inline T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, SIMT_AT) {                    \
        return ::simt::shuffle(::simt::Shuffle::Down, mask, var, delta, width, simt_file, simt_line);             \
    }                                                                                                             \
    SIMT_NO_COVERAGE inline T __shfl_xor_sync(unsigned mask, T var, int laneMask, int width = 32, SIMT_AT) {                       \
        return ::simt::shuffle(::simt::Shuffle::Xor, mask, var, static_cast<unsigned>(laneMask), width, simt_file, \
                               simt_line);                                                                        \
    }
SIMT_SHUFFLES(int)
SIMT_SHUFFLES(unsigned)
SIMT_SHUFFLES(long)
SIMT_SHUFFLES(unsigned long)
SIMT_SHUFFLES(long long)
SIMT_SHUFFLES(unsigned long long)
SIMT_SHUFFLES(float)
SIMT_SHUFFLES(double)
#undef SIMT_SHUFFLES

// ---- votes
SIMT_NO_COVERAGE inline unsigned __ballot_sync(unsigned mask, int predicate, SIMT_AT) {
    return ::simt::ballot_at(simt_file, simt_line, mask, predicate);
}
SIMT_NO_COVERAGE inline int __any_sync(unsigned mask, int predicate, SIMT_AT) {
    return ::simt::ballot_at(simt_file, simt_line, mask, predicate) != 0u;
}
SIMT_NO_COVERAGE inline int __all_sync(unsigned mask, int predicate, SIMT_AT) {
    return ::simt::ballot_at(simt_file, simt_line, mask, predicate) == mask;
}
SIMT_NO_COVERAGE inline int __uni_sync(unsigned mask, int predicate, SIMT_AT) {
    const unsigned bits = ::simt::ballot_at(simt_file, simt_line, mask, predicate);
    return bits == 0u || bits == mask;
}
SIMT_NO_COVERAGE inline unsigned __activemask(SIMT_AT) { return ::simt::active_mask(simt_file, simt_line); }

// ---- matches: equal bits (so 0.0f and -0.0f differ, as on a GPU)
#define SIMT_MATCHES(T)                                                                   \
    SIMT_NO_COVERAGE inline unsigned __match_any_sync(unsigned mask, T value, SIMT_AT) {                  \
        return ::simt::match_at(simt_file, simt_line, mask, value, nullptr);              \
    }                                                                                     \
    SIMT_NO_COVERAGE inline unsigned __match_all_sync(unsigned mask, T value, int* pred, SIMT_AT) {       \
        int all = 0;                                                                      \
        ::simt::match_at(simt_file, simt_line, mask, value, &all);                        \
        *pred = all;                                                                      \
        return all ? mask : 0u;                                                           \
    }
SIMT_MATCHES(unsigned)
SIMT_MATCHES(int)
SIMT_MATCHES(unsigned long)
SIMT_MATCHES(long)
SIMT_MATCHES(unsigned long long)
SIMT_MATCHES(long long)
SIMT_MATCHES(float)
SIMT_MATCHES(double)
#undef SIMT_MATCHES

// ---- reductions (sm_80), with CUDA's overloads: add, min and max on int and
// unsigned (add wraps), and, or and xor on unsigned
#define SIMT_REDUCE(name, op, T)                                                  \
    SIMT_NO_COVERAGE inline T name(unsigned mask, T value, SIMT_AT) {                              \
        return ::simt::reduce_at(simt_file, simt_line, ::simt::Reduce::op, mask, value); \
    }
SIMT_REDUCE(__reduce_add_sync, Add, unsigned)
SIMT_REDUCE(__reduce_min_sync, Min, unsigned)
SIMT_REDUCE(__reduce_max_sync, Max, unsigned)
SIMT_REDUCE(__reduce_add_sync, Add, int)
SIMT_REDUCE(__reduce_min_sync, Min, int)
SIMT_REDUCE(__reduce_max_sync, Max, int)
SIMT_REDUCE(__reduce_and_sync, And, unsigned)
SIMT_REDUCE(__reduce_or_sync, Or, unsigned)
SIMT_REDUCE(__reduce_xor_sync, Xor, unsigned)
#undef SIMT_REDUCE
#undef SIMT_AT

// ---- time: __nanosleep yields (builtins.cpp: a look-back's back-off counts as
// a poll of the word it last polled, so a block that waits lets others run);
// clock() and clock64() give a counter that grows with every read (nothing
// here runs at a GPU's clock: only their order means anything).
void __nanosleep(unsigned ns);
long long clock64();
// clock() is C's (declared in <ctime>), which the runtime answers inside a
// kernel with the same counter (device_clock.cpp).

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
