// Device built-ins of the running GPU thread: its indices, the block barrier
// and block votes, fences and the cache-hinted loads and stores.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>

#include "simt/vector_types.hpp"

namespace simt {

// The calling GPU thread's indices, by value, so the kernel file never loads
// the runtime's own memory (the host-memory check would see that as a kernel
// touching host data). Each is one call into the runtime (builtins.cpp),
// which counts one basic block, as the trace-pc hook did for the body of the
// inline function it replaces: the kernels' code, their divergence and the
// watchdog's count are as they were, at a third of the calls.
uint3 thread_idx();
uint3 block_idx();
dim3 block_dim();
dim3 grid_dim();
void syncthreads(const char* file, int line);
void* dynamic_shared();

}  // namespace simt

#define threadIdx (::simt::thread_idx())
#define blockIdx (::simt::block_idx())
#define blockDim (::simt::block_dim())
#define gridDim (::simt::grid_dim())
// A constant, not a macro: cudaDeviceProp has a member of that name.
constexpr int warpSize = 32;
#define __syncthreads() ::simt::syncthreads(__FILE__, __LINE__)
// One OS thread runs every block's fibers, so memory is always coherent: a
// fence is a call into the runtime, which keeps the compiler from moving
// accesses across it. (Not __atomic_thread_fence: under -fsanitize=thread GCC
// turns that into __tsan_atomic_thread_fence, which memcheck_hooks.cpp defines too,
// for code that writes it directly.)
// A device-wide fence also tells the race check that the thread's block has
// published what it wrote before (memcheck.cpp); __threadfence_block does not.
namespace simt {
void threadfence(bool device_wide = true);
}
#define __threadfence() ::simt::threadfence()
#define __threadfence_block() ::simt::threadfence(false)
#define __threadfence_system() ::simt::threadfence()

// ---- block votes: a __syncthreads() that also counts a predicate over the
// block's threads (builtins.cpp); a barrier for the race checks like it.
namespace simt {
enum class BlockVote { Count, And, Or };
int syncthreads_vote(BlockVote vote, int predicate, const char* file, int line);
}
__attribute__((no_sanitize_coverage)) inline int __syncthreads_count(int predicate, const char* simt_file = __builtin_FILE(), int simt_line = __builtin_LINE()) {
    return ::simt::syncthreads_vote(::simt::BlockVote::Count, predicate, simt_file, simt_line);
}
__attribute__((no_sanitize_coverage)) inline int __syncthreads_and(int predicate, const char* simt_file = __builtin_FILE(), int simt_line = __builtin_LINE()) {
    return ::simt::syncthreads_vote(::simt::BlockVote::And, predicate, simt_file, simt_line);
}
__attribute__((no_sanitize_coverage)) inline int __syncthreads_or(int predicate, const char* simt_file = __builtin_FILE(), int simt_line = __builtin_LINE()) {
    return ::simt::syncthreads_vote(::simt::BlockVote::Or, predicate, simt_file, simt_line);
}

// ---- grid syncs (cooperative groups' this_grid().sync()): a barrier of every
// thread of the grid, only under a cooperative launch (builtins.cpp).
namespace simt {
bool grid_is_cooperative();
void grid_sync(const char* file, int line);
// A cooperative-groups call CUDA traps on (an invalid tile size): reported,
// and the launch stopped.
[[noreturn]] void group_error(const char* what, const char* file, int line);
}

// ---- the cache-hinted loads and stores (__ldg through the read-only path,
// __ldca/__ldcg/__ldcs/__ldlu/__ldcv, __stwb/__stcg/__stcs/__stwt), for the
// types CUDA overloads them for: the integer types but bool, float, double,
// and the 2- and 4-element vector types of those (char2 ... ulonglong2,
// float2, float4, double2; not long2, nor 3-element ones). Each is one access
// of the whole value, checked as the memory checks check any other, with the
// caller's line. ptxas treats the loads as ordinary ones: they read data
// another block published (a flag, then a fence) as a plain load does, but a
// spin on one is no poll (on an H100 ptxas removed an empty loop waiting on
// __ldcv or __ldcg: no block waited), and __ldg, through the read-only cache,
// is for data no thread writes during the launch (the Programming Guide).
// __stcg and __stwt become strong stores (STG.E.STRONG.GPU and .SYS), so a
// flag raised with them after a fence publishes as a volatile store does;
// __stwb and __stcs are plain stores.
// On a GPU they address global memory only: one that reaches a __shared__
// array or a thread's local variable is reported and stops the launch.
namespace simt {

template <typename T>
inline constexpr bool hinted_scalar =
    std::is_same_v<T, char> || std::is_same_v<T, signed char> || std::is_same_v<T, unsigned char> ||
    std::is_same_v<T, short> || std::is_same_v<T, unsigned short> || std::is_same_v<T, int> ||
    std::is_same_v<T, unsigned> || std::is_same_v<T, long> || std::is_same_v<T, unsigned long> ||
    std::is_same_v<T, long long> || std::is_same_v<T, unsigned long long> || std::is_same_v<T, float> ||
    std::is_same_v<T, double>;

// CUDA's vector types by their shape: members x, y (and z, w) of one such
// element type, nothing else.
template <typename T, typename = void>
struct has_z : std::false_type {};
template <typename T>
struct has_z<T, std::void_t<decltype(T::z)>> : std::true_type {};
template <typename T, typename = void>
struct has_w : std::false_type {};
template <typename T>
struct has_w<T, std::void_t<decltype(T::w)>> : std::true_type {};
template <typename T, typename = void>
struct hinted_vector : std::false_type {};
template <typename T>
struct hinted_vector<T, std::void_t<decltype(T::x), decltype(T::y)>> {
    using E = decltype(T::x);
    static constexpr bool value =
        std::is_same_v<E, decltype(T::y)> && hinted_scalar<E> && !std::is_same_v<E, long> &&
        !std::is_same_v<E, unsigned long> &&
        ((sizeof(T) == 2 * sizeof(E) && !has_z<T>::value) ||
         (sizeof(T) == 4 * sizeof(E) && sizeof(T) <= 16 && has_z<T>::value && has_w<T>::value));
};
template <typename T>
inline constexpr bool hinted_type = hinted_scalar<T> || hinted_vector<T>::value;

// How the race checks see a hinted access (above).
enum class Hint : unsigned char { weak, read_only, strong };

// The checks of one hinted access (memcheck_reports.cpp); `pc` is the caller's.
void hinted_access(const void* address, std::size_t size, bool write, Hint hint, const char* name, const void* pc);

template <typename T>
struct identity {
    using type = T;
};

}  // namespace simt

// Each is not inlined, so __builtin_return_address(0) is the kernel's line,
// and not instrumented: hinted_access is the access's check.
#define SIMT_HINTED_LOAD(name, hint)                                                                      \
    template <typename T>                                                                                 \
    __attribute__((noinline, no_sanitize_thread, no_sanitize_coverage)) T name(const T* address) {                              \
        static_assert(::simt::hinted_type<T>, "simt: no " #name " for this type (CUDA has it for the "   \
                                              "integer types but bool, float, double and their 2- and "   \
                                              "4-element vector types)");                                 \
        ::simt::hinted_access(address, sizeof(T), false, ::simt::Hint::hint, #name,                       \
                               __builtin_return_address(0));                                              \
        T value;                                                                                          \
        std::memcpy(&value, address, sizeof(T));                                                          \
        return value;                                                                                     \
    }
#define SIMT_HINTED_STORE(name, hint)                                                                     \
    template <typename T>                                                                                 \
    __attribute__((noinline, no_sanitize_thread, no_sanitize_coverage)) void name(T* address,                \
                                                            typename ::simt::identity<T>::type value) {   \
        static_assert(::simt::hinted_type<T>, "simt: no " #name " for this type (CUDA has it for the "   \
                                              "integer types but bool, float, double and their 2- and "   \
                                              "4-element vector types)");                                 \
        ::simt::hinted_access(address, sizeof(T), true, ::simt::Hint::hint, #name,                        \
                               __builtin_return_address(0));                                              \
        std::memcpy(address, &value, sizeof(T));                                                          \
    }
SIMT_HINTED_LOAD(__ldg, read_only)
SIMT_HINTED_LOAD(__ldca, weak)
SIMT_HINTED_LOAD(__ldcs, weak)
SIMT_HINTED_LOAD(__ldlu, weak)
SIMT_HINTED_LOAD(__ldcg, weak)
SIMT_HINTED_LOAD(__ldcv, weak)
SIMT_HINTED_STORE(__stwb, weak)
SIMT_HINTED_STORE(__stcs, weak)
SIMT_HINTED_STORE(__stcg, strong)
SIMT_HINTED_STORE(__stwt, strong)
#undef SIMT_HINTED_LOAD
#undef SIMT_HINTED_STORE
