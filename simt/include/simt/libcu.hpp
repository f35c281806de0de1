// libcu++'s atomics for the emulator: what <cuda/std/atomic> declares
// (cuda::std::atomic, cuda::std::atomic_ref, atomic_flag, the memory orders
// and thread scopes, the fences) and the machinery <cuda/atomic> builds
// cuda::atomic and cuda::atomic_ref on. Every access goes through the runtime
// (atomics.cpp), as CUDA's atomicAdd does: one fiber runs at a time, so each
// is atomic, and the race check is told its order and scope (memcheck.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

// ---- the runtime's entry points (atomics.cpp) -----------------------------------
namespace simt {
// Orders as libcu++ numbers them (memory_order_relaxed 0 ... seq_cst 5), scopes
// too (thread_scope_system 0, _device 1, _block 2, _thread 10); `pc`: the
// student's call, for reports.
unsigned long long libcu_load(const void* address, std::size_t size, int order, int scope, const void* pc);
void libcu_store(void* address, std::size_t size, unsigned long long value, int order, int scope, const void* pc);
// Sets *now from the old value and returns true, or returns false to leave the
// word as it is (a compare-exchange that fails: a load with the failure order).
using LibcuUpdate = bool (*)(unsigned long long old, unsigned long long* now, const void* context);
unsigned long long libcu_update(void* address, std::size_t size, LibcuUpdate update, const void* context, int order,
                                int failure_order, int scope, const void* pc);
void libcu_fence(int order, int scope);
}  // namespace simt

namespace cuda {
namespace std {

#if __cplusplus >= 202002L
enum class memory_order : int { relaxed, consume, acquire, release, acq_rel, seq_cst };
inline constexpr memory_order memory_order_relaxed = memory_order::relaxed;
inline constexpr memory_order memory_order_consume = memory_order::consume;
inline constexpr memory_order memory_order_acquire = memory_order::acquire;
inline constexpr memory_order memory_order_release = memory_order::release;
inline constexpr memory_order memory_order_acq_rel = memory_order::acq_rel;
inline constexpr memory_order memory_order_seq_cst = memory_order::seq_cst;
#else
enum memory_order {
    memory_order_relaxed,
    memory_order_consume,
    memory_order_acquire,
    memory_order_release,
    memory_order_acq_rel,
    memory_order_seq_cst,
};
#endif

enum thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 10 };

}  // namespace std

using memory_order = std::memory_order;
inline constexpr memory_order memory_order_relaxed = std::memory_order_relaxed;
inline constexpr memory_order memory_order_consume = std::memory_order_consume;
inline constexpr memory_order memory_order_acquire = std::memory_order_acquire;
inline constexpr memory_order memory_order_release = std::memory_order_release;
inline constexpr memory_order memory_order_acq_rel = std::memory_order_acq_rel;
inline constexpr memory_order memory_order_seq_cst = std::memory_order_seq_cst;
using std::thread_scope;
using std::thread_scope_block;
using std::thread_scope_device;
using std::thread_scope_system;
using std::thread_scope_thread;

}  // namespace cuda

namespace simt::libcu {

// Each member a student calls is a function of its own (its return address
// is the student's line, for reports) and reads nothing itself (the runtime
// makes the access), so the instrumentation has nothing to see in it; nor
// are its blocks in the basic-block traces (a compare-and-swap's retry loop
// is the emulator's, not a divergence of the student's).
#define SIMT_LIBCU_ENTRY __attribute__((noinline, no_sanitize_thread, no_sanitize_coverage))
#define SIMT_LIBCU_HELPER __attribute__((no_sanitize_thread, no_sanitize_coverage)) inline
#define SIMT_LIBCU_PC __builtin_return_address(0)

template <class T>
SIMT_LIBCU_HELPER unsigned long long bits(T v) {
    unsigned long long b = 0;
    ::std::memcpy(&b, &v, sizeof v);
    return b;
}
template <class T>
SIMT_LIBCU_HELPER T value(unsigned long long b) {
    T v;
    ::std::memcpy(&v, &b, sizeof v);
    return v;
}
SIMT_LIBCU_HELPER constexpr int order(cuda::std::memory_order m) { return static_cast<int>(m); }
// A compare-exchange with one order: its failure order (libcu++'s rule).
SIMT_LIBCU_HELPER constexpr int failure_order(cuda::std::memory_order m) {
    return m == cuda::std::memory_order_acq_rel   ? order(cuda::std::memory_order_acquire)
           : m == cuda::std::memory_order_release ? order(cuda::std::memory_order_relaxed)
                                                  : order(m);
}

template <class T>
inline constexpr bool is_integral = ::std::is_integral_v<T>;
template <class T>
inline constexpr bool is_arithmetic = ::std::is_integral_v<T> || ::std::is_floating_point_v<T>;

// Integer arithmetic wraps, as on a GPU (no signed overflow here).
template <class T>
SIMT_LIBCU_HELPER T add(T a, T b) {
    if constexpr (::std::is_integral_v<T> && !::std::is_same_v<T, bool>) {
        using U = ::std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
    } else {
        return static_cast<T>(a + b);
    }
}
template <class T>
SIMT_LIBCU_HELPER T sub(T a, T b) {
    if constexpr (::std::is_integral_v<T> && !::std::is_same_v<T, bool>) {
        using U = ::std::make_unsigned_t<T>;
        return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
    } else {
        return static_cast<T>(a - b);
    }
}

// The read-modify-writes: each computes the new value from the old and an operand.
enum class Op { Exchange, Add, Sub, And, Or, Xor, Min, Max };
template <class T, Op kOp, class Operand>
__attribute__((no_sanitize_thread, no_sanitize_coverage)) bool apply(unsigned long long old_bits, unsigned long long* now,
                                                                     const void* context) {
    const T old = value<T>(old_bits);
    const Operand v = *static_cast<const Operand*>(context);
    T out;
    if constexpr (kOp == Op::Exchange) out = v;
    else if constexpr (::std::is_pointer_v<T>) {
        // Pointer arithmetic by the pointee's size, on the address's bits.
        if constexpr (kOp == Op::Add || kOp == Op::Sub) {
            const auto step = static_cast<::std::uintptr_t>(v) * sizeof(::std::remove_pointer_t<T>);
            const auto a = reinterpret_cast<::std::uintptr_t>(old);
            out = reinterpret_cast<T>(kOp == Op::Add ? a + step : a - step);
        } else if constexpr (kOp == Op::Min) {
            out = v < old ? v : old;
        } else {
            out = old < v ? v : old;
        }
    } else if constexpr (kOp == Op::Add) out = add(old, v);
    else if constexpr (kOp == Op::Sub) out = sub(old, v);
    else if constexpr (kOp == Op::And) out = static_cast<T>(old & v);
    else if constexpr (kOp == Op::Or) out = static_cast<T>(old | v);
    else if constexpr (kOp == Op::Xor) out = static_cast<T>(old ^ v);
    else if constexpr (kOp == Op::Min) out = v < old ? v : old;  // libcu++'s: NaN operands as it compares
    else out = old < v ? v : old;
    *now = bits(out);
    return true;
}

struct Exchange {
    unsigned long long expected, desired;
};
SIMT_LIBCU_HELPER bool compare_exchange(unsigned long long old, unsigned long long* now,
                                                                 const void* context) {
    const auto* c = static_cast<const Exchange*>(context);
    if (old != c->expected) return false;  // bit for bit, as libcu++ compares
    *now = c->desired;
    return true;
}

// Where the atomic's value lives: the referenced object (atomic_ref) or its own.
template <class T, bool kRef>
struct Storage;
template <class T>
struct Storage<T, true> {
    T* ref_;
    constexpr explicit Storage(T& r) noexcept : ref_(&r) {}
    SIMT_LIBCU_HELPER T* address() const { return ref_; }
};
// As libcu++'s: aligned to its size, and 1- and 2-byte values in 4 bytes.
template <class T>
struct alignas(sizeof(T) < 4 ? 4 : (sizeof(T) > alignof(T) ? sizeof(T) : alignof(T))) Storage<T, false> {
    mutable T value_;
    Storage() noexcept = default;
    constexpr Storage(T v) noexcept : value_(v) {}
    SIMT_LIBCU_HELPER T* address() const { return &value_; }
};

// Every member of cuda::atomic, cuda::atomic_ref, cuda::std::atomic and
// cuda::std::atomic_ref: for every type the common ones, for integers and
// floating point the arithmetic ones, for integers the bitwise ones, for
// pointers their arithmetic, and (kMinMax: cuda:: only) fetch_min and fetch_max.
template <class T, int kScope, bool kRef, bool kMinMax>
struct Atomic : Storage<T, kRef> {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                  "simt: libcu++ atomics of 1, 2, 4 or 8 bytes only");
    static_assert(::std::is_trivially_copyable_v<T>, "simt: an atomic's type must be trivially copyable");
    using Storage<T, kRef>::Storage;
    using value_type = T;
    using memory_order = cuda::std::memory_order;
    static constexpr memory_order kSeqCst = cuda::std::memory_order_seq_cst;
    static constexpr bool kArith = is_arithmetic<T>;
    static constexpr bool kInt = is_integral<T>;
    static constexpr bool kPtr = ::std::is_pointer_v<T>;
    using difference_type = ::std::conditional_t<kPtr, ::std::ptrdiff_t, T>;

    static constexpr bool is_always_lock_free = true;
    SIMT_LIBCU_HELPER bool is_lock_free() const noexcept { return true; }

    // ---- what the members do, each with the student's line
    SIMT_LIBCU_HELPER T do_load(int m, const void* pc) const {
        return value<T>(::simt::libcu_load(this->address(), sizeof(T), m, kScope, pc));
    }
    SIMT_LIBCU_HELPER void do_store(T v, int m, const void* pc) const {
        ::simt::libcu_store(this->address(), sizeof(T), bits(v), m, kScope, pc);
    }
    template <Op kOp, class Operand>
    SIMT_LIBCU_HELPER T do_update(Operand v, int m, const void* pc) const {
        return value<T>(::simt::libcu_update(this->address(), sizeof(T), &apply<T, kOp, Operand>, &v, m, m, kScope, pc));
    }
    SIMT_LIBCU_HELPER bool do_compare_exchange(T& expected, T desired, int success, int failure,
                                               const void* pc) const {
        const Exchange c{bits(expected), bits(desired)};
        const unsigned long long old =
            ::simt::libcu_update(this->address(), sizeof(T), &compare_exchange, &c, success, failure, kScope, pc);
        if (old == c.expected) return true;
        expected = value<T>(old);
        return false;
    }

    // ---- every type
    SIMT_LIBCU_ENTRY void store(T v, memory_order m = kSeqCst) const noexcept { do_store(v, order(m), SIMT_LIBCU_PC); }
    SIMT_LIBCU_ENTRY T load(memory_order m = kSeqCst) const noexcept { return do_load(order(m), SIMT_LIBCU_PC); }
    SIMT_LIBCU_ENTRY operator T() const noexcept { return do_load(order(kSeqCst), SIMT_LIBCU_PC); }
    SIMT_LIBCU_ENTRY T exchange(T v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::Exchange>(v, order(m), SIMT_LIBCU_PC);
    }
    SIMT_LIBCU_ENTRY bool compare_exchange_weak(T& expected, T desired, memory_order success,
                                                memory_order failure) const noexcept {
        return do_compare_exchange(expected, desired, order(success), order(failure), SIMT_LIBCU_PC);
    }
    SIMT_LIBCU_ENTRY bool compare_exchange_strong(T& expected, T desired, memory_order success,
                                                  memory_order failure) const noexcept {
        return do_compare_exchange(expected, desired, order(success), order(failure), SIMT_LIBCU_PC);
    }
    SIMT_LIBCU_ENTRY bool compare_exchange_weak(T& expected, T desired, memory_order m = kSeqCst) const noexcept {
        return do_compare_exchange(expected, desired, order(m), failure_order(m), SIMT_LIBCU_PC);
    }
    SIMT_LIBCU_ENTRY bool compare_exchange_strong(T& expected, T desired, memory_order m = kSeqCst) const noexcept {
        return do_compare_exchange(expected, desired, order(m), failure_order(m), SIMT_LIBCU_PC);
    }
    // A spin-wait: each load that finds the value unchanged is a poll (the
    // scheduler runs other blocks once it spins).
    SIMT_LIBCU_ENTRY void wait(T old, memory_order m = kSeqCst) const noexcept {
        const void* pc = SIMT_LIBCU_PC;
        while (bits(do_load(order(m), pc)) == bits(old)) {
        }
    }
    SIMT_LIBCU_ENTRY void notify_one() const noexcept {}
    SIMT_LIBCU_ENTRY void notify_all() const noexcept {}

    // ---- integers, floating point and pointers (by elements)
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T fetch_add(difference_type v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::Add>(v, order(m), SIMT_LIBCU_PC);
    }
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T fetch_sub(difference_type v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::Sub>(v, order(m), SIMT_LIBCU_PC);
    }
    // ---- the operators (sequentially consistent)
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator++(int) const noexcept {
        return do_update<Op::Add>(difference_type(1), order(kSeqCst), SIMT_LIBCU_PC);
    }
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator--(int) const noexcept {
        return do_update<Op::Sub>(difference_type(1), order(kSeqCst), SIMT_LIBCU_PC);
    }
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator++() const noexcept {
        return step(do_update<Op::Add>(difference_type(1), order(kSeqCst), SIMT_LIBCU_PC), difference_type(1));
    }
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator--() const noexcept {
        return step(do_update<Op::Sub>(difference_type(1), order(kSeqCst), SIMT_LIBCU_PC), difference_type(-1));
    }
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator+=(difference_type v) const noexcept {
        return step(do_update<Op::Add>(v, order(kSeqCst), SIMT_LIBCU_PC), v);
    }
    template <bool B = kArith || kPtr, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator-=(difference_type v) const noexcept {
        return unstep(do_update<Op::Sub>(v, order(kSeqCst), SIMT_LIBCU_PC), v);
    }
    // ---- integers
    template <bool B = kInt, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T fetch_and(T v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::And>(v, order(m), SIMT_LIBCU_PC);
    }
    template <bool B = kInt, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T fetch_or(T v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::Or>(v, order(m), SIMT_LIBCU_PC);
    }
    template <bool B = kInt, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T fetch_xor(T v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::Xor>(v, order(m), SIMT_LIBCU_PC);
    }
    template <bool B = kInt, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator&=(T v) const noexcept {
        return static_cast<T>(do_update<Op::And>(v, order(kSeqCst), SIMT_LIBCU_PC) & v);
    }
    template <bool B = kInt, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator|=(T v) const noexcept {
        return static_cast<T>(do_update<Op::Or>(v, order(kSeqCst), SIMT_LIBCU_PC) | v);
    }
    template <bool B = kInt, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T operator^=(T v) const noexcept {
        return static_cast<T>(do_update<Op::Xor>(v, order(kSeqCst), SIMT_LIBCU_PC) ^ v);
    }
    // ---- cuda::atomic and cuda::atomic_ref
    template <bool B = kMinMax, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T fetch_min(const T& v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::Min>(v, order(m), SIMT_LIBCU_PC);
    }
    template <bool B = kMinMax, ::std::enable_if_t<B, int> = 0>
    SIMT_LIBCU_ENTRY T fetch_max(const T& v, memory_order m = kSeqCst) const noexcept {
        return do_update<Op::Max>(v, order(m), SIMT_LIBCU_PC);
    }

private:
    // The value after an update: old + v, old - v (pointers by elements).
    SIMT_LIBCU_HELPER static T step(T old, difference_type v) {
        if constexpr (kPtr) return old + v;
        else return add(old, v);
    }
    SIMT_LIBCU_HELPER static T unstep(T old, difference_type v) {
        if constexpr (kPtr) return old - v;
        else return sub(old, v);
    }
};

}  // namespace simt::libcu

namespace cuda {
namespace std {

template <class T>
T kill_dependency(T y) noexcept {
    return y;
}

template <class T>
struct atomic : ::simt::libcu::Atomic<T, thread_scope_system, false, false> {
    using Base = ::simt::libcu::Atomic<T, thread_scope_system, false, false>;
    constexpr atomic() noexcept : Base() {}
    constexpr atomic(T v) noexcept : Base(v) {}
    atomic(const atomic&) = delete;
    atomic& operator=(const atomic&) = delete;
    SIMT_LIBCU_ENTRY T operator=(T v) noexcept {
        this->do_store(v, static_cast<int>(memory_order_seq_cst), SIMT_LIBCU_PC);
        return v;
    }
};

template <class T>
struct atomic_ref : ::simt::libcu::Atomic<T, thread_scope_system, true, false> {
    using Base = ::simt::libcu::Atomic<T, thread_scope_system, true, false>;
    static constexpr ::std::size_t required_alignment = sizeof(T);
    explicit atomic_ref(T& r) : Base(r) {}
    atomic_ref(const atomic_ref&) noexcept = default;
    atomic_ref& operator=(const atomic_ref&) = delete;
    SIMT_LIBCU_ENTRY T operator=(T v) const noexcept {
        this->do_store(v, static_cast<int>(memory_order_seq_cst), SIMT_LIBCU_PC);
        return v;
    }
};

// A flag: test_and_set, clear, test, wait, notify (as libcu++'s, in 4 bytes).
struct atomic_flag {
    ::simt::libcu::Atomic<unsigned, thread_scope_system, false, false> flag_;
    atomic_flag() noexcept = default;
    constexpr atomic_flag(bool b) noexcept : flag_(b ? 1u : 0u) {}
    atomic_flag(const atomic_flag&) = delete;
    atomic_flag& operator=(const atomic_flag&) = delete;
    SIMT_LIBCU_ENTRY bool test(memory_order m = memory_order_seq_cst) const noexcept {
        return flag_.do_load(static_cast<int>(m), SIMT_LIBCU_PC) != 0;
    }
    SIMT_LIBCU_ENTRY bool test_and_set(memory_order m = memory_order_seq_cst) noexcept {
        return flag_.do_update<::simt::libcu::Op::Exchange>(1u, static_cast<int>(m), SIMT_LIBCU_PC) != 0;
    }
    SIMT_LIBCU_ENTRY void clear(memory_order m = memory_order_seq_cst) noexcept {
        flag_.do_store(0u, static_cast<int>(m), SIMT_LIBCU_PC);
    }
    SIMT_LIBCU_ENTRY void wait(bool old, memory_order m = memory_order_seq_cst) const noexcept {
        const void* pc = SIMT_LIBCU_PC;
        while ((flag_.do_load(static_cast<int>(m), pc) != 0) == old) {
        }
    }
    void notify_one() noexcept {}
    void notify_all() noexcept {}
};

// Fences at system scope: one at device or system scope is a __threadfence()
// for the race check, whatever its order but relaxed.
SIMT_LIBCU_HELPER void atomic_thread_fence(memory_order m) noexcept {
    ::simt::libcu_fence(static_cast<int>(m), thread_scope_system);
}
SIMT_LIBCU_HELPER void atomic_signal_fence(memory_order) noexcept {}

using atomic_bool = atomic<bool>;
using atomic_char = atomic<char>;
using atomic_schar = atomic<signed char>;
using atomic_uchar = atomic<unsigned char>;
using atomic_short = atomic<short>;
using atomic_ushort = atomic<unsigned short>;
using atomic_int = atomic<int>;
using atomic_uint = atomic<unsigned int>;
using atomic_long = atomic<long>;
using atomic_ulong = atomic<unsigned long>;
using atomic_llong = atomic<long long>;
using atomic_ullong = atomic<unsigned long long>;
using atomic_int8_t = atomic<::std::int8_t>;
using atomic_uint8_t = atomic<::std::uint8_t>;
using atomic_int16_t = atomic<::std::int16_t>;
using atomic_uint16_t = atomic<::std::uint16_t>;
using atomic_int32_t = atomic<::std::int32_t>;
using atomic_uint32_t = atomic<::std::uint32_t>;
using atomic_int64_t = atomic<::std::int64_t>;
using atomic_uint64_t = atomic<::std::uint64_t>;
using atomic_intptr_t = atomic<::std::intptr_t>;
using atomic_uintptr_t = atomic<::std::uintptr_t>;
using atomic_size_t = atomic<::std::size_t>;
using atomic_ptrdiff_t = atomic<::std::ptrdiff_t>;

}  // namespace std
}  // namespace cuda
