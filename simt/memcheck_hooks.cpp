// The hooks GCC's ThreadSanitizer instrumentation calls in a kernel file
// (-fsanitize=thread, simt/meson.build): each access and atomic goes to the
// memory checks (memcheck.cpp). libtsan is never linked.
#include "internal.hpp"
#include "memcheck.hpp"

// ---- the instrumentation hooks -------------------------------------------------

// GCC's atomics (__atomic builtins, std::atomic, and the guard of a
// function-local static) in the kernel file: performed as they are (one OS
// thread runs every GPU thread), and inside a kernel checked as atomic
// accesses: a load as a volatile one (it may be a spin-wait's poll), a store
// or read-modify-write as an atomic; an acquire after the load and a release
// before the store are device-wide fences (the orders of a GPU's
// cuda::std::atomic at device scope).
namespace {
constexpr int kAcquire = 2, kRelease = 3, kAcqRel = 4, kSeqCst = 5;  // __tsan_memory_order
bool acquires(int mo) { return mo == kAcquire || mo == kAcqRel || mo == kSeqCst || mo == 1; }
bool releases(int mo) { return mo == kRelease || mo == kAcqRel || mo == kSeqCst; }
template <typename T>
T atomic_load(const volatile T* a, int mo, const void* pc) {
    if (simt::detail::in_kernel()) simt::detail::volatile_read(const_cast<T*>(a), sizeof(T), pc);
    const T v = __atomic_load_n(a, __ATOMIC_SEQ_CST);
    if (acquires(mo)) simt::threadfence();
    return v;
}
template <typename T, typename Op>
T atomic_rmw(volatile T* a, int mo, const void* pc, Op op, bool store = false) {
    if (releases(mo)) simt::threadfence();
    if (simt::detail::in_kernel()) {
        if (store) simt::detail::record_atomic_store(const_cast<T*>(a), sizeof(T), pc);
        else simt::detail::record_atomic(const_cast<T*>(a), sizeof(T), pc);
    }
    const T old = *a;
    *a = op(old);
    if (old != *a) {
        ++simt::detail::g_progress;
        if (simt::detail::in_kernel())
            simt::detail::release(const_cast<T*>(a), true, simt::detail::Releases::AfterFence, true, !store);
    }
    if (acquires(mo)) simt::threadfence();
    return old;
}
}  // namespace

#define SIMT_HOOK(kind, n)                                                                          \
    void __tsan_##kind##n(void* a) { simt::detail::plain_##kind(a, n, __builtin_return_address(0)); } \
    void __tsan_unaligned_##kind##n(void* a) {                                                      \
        simt::detail::plain_##kind(a, n, __builtin_return_address(0));                              \
    }

extern "C" {
void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
// A fence written as __atomic_thread_fence / std::atomic_thread_fence (the
// shim's __threadfence is a runtime call): one OS thread runs every block, so
// memory is coherent and a fence has nothing to do.
void __tsan_atomic_thread_fence(int) {}
void __tsan_atomic_signal_fence(int) {}
SIMT_HOOK(read, 1)
SIMT_HOOK(read, 2)
SIMT_HOOK(read, 4)
SIMT_HOOK(read, 8)
SIMT_HOOK(read, 16)
SIMT_HOOK(write, 1)
SIMT_HOOK(write, 2)
SIMT_HOOK(write, 4)
SIMT_HOOK(write, 8)
SIMT_HOOK(write, 16)
// Volatile accesses (the kernel file is compiled with
// --param=tsan-distinguish-volatile=1): checked like any other, and a
// volatile load may be a spin-wait's poll.
#define SIMT_VOLATILE_HOOK(n)                                                                     \
    void __tsan_volatile_read##n(void* a) { simt::detail::volatile_read(a, n, __builtin_return_address(0)); } \
    void __tsan_unaligned_volatile_read##n(void* a) {                                             \
        simt::detail::volatile_read(a, n, __builtin_return_address(0));                           \
    }                                                                                             \
    void __tsan_volatile_write##n(void* a) {                                                      \
        simt::detail::on_access(a, n, true, __builtin_return_address(0), false, true);            \
    }                                                                                             \
    void __tsan_unaligned_volatile_write##n(void* a) {                                            \
        simt::detail::on_access(a, n, true, __builtin_return_address(0), false, true);            \
    }
SIMT_VOLATILE_HOOK(1)
SIMT_VOLATILE_HOOK(2)
SIMT_VOLATILE_HOOK(4)
SIMT_VOLATILE_HOOK(8)
SIMT_VOLATILE_HOOK(16)
#undef SIMT_VOLATILE_HOOK
#define SIMT_TSAN_ATOMIC(n, T)                                                                          \
    T __tsan_atomic##n##_load(const volatile T* a, int mo) { return atomic_load(a, mo, __builtin_return_address(0)); } \
    void __tsan_atomic##n##_store(volatile T* a, T v, int mo) {                                        \
        atomic_rmw(a, mo, __builtin_return_address(0), [v](T) { return v; }, true);                   \
    }                                                                                                   \
    T __tsan_atomic##n##_exchange(volatile T* a, T v, int mo) {                                        \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T) { return v; });                  \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_add(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o + v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_sub(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o - v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_and(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o & v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_or(volatile T* a, T v, int mo) {                                        \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o | v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_xor(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o ^ v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_nand(volatile T* a, T v, int mo) {                                      \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(~(o & v)); }); \
    }                                                                                                   \
    int __tsan_atomic##n##_compare_exchange_strong(volatile T* a, T* c, T v, int mo, int) {            \
        const T expected = *c;                                                                          \
        const T old = atomic_rmw(a, mo, __builtin_return_address(0), [&](T o) { return o == expected ? v : o; }); \
        if (old == expected) return 1;                                                                  \
        *c = old;                                                                                       \
        return 0;                                                                                       \
    }                                                                                                   \
    int __tsan_atomic##n##_compare_exchange_weak(volatile T* a, T* c, T v, int mo, int fail) {         \
        return __tsan_atomic##n##_compare_exchange_strong(a, c, v, mo, fail);                           \
    }                                                                                                   \
    T __tsan_atomic##n##_compare_exchange_val(volatile T* a, T c, T v, int mo, int fail) {             \
        __tsan_atomic##n##_compare_exchange_strong(a, &c, v, mo, fail);                                 \
        return c;                                                                                       \
    }
SIMT_TSAN_ATOMIC(8, char)
SIMT_TSAN_ATOMIC(16, short)
SIMT_TSAN_ATOMIC(32, int)
SIMT_TSAN_ATOMIC(64, long)
#undef SIMT_TSAN_ATOMIC
void __tsan_read_range(void* a, unsigned long size) {
    simt::detail::on_access(a, size, false, __builtin_return_address(0));
}
void __tsan_write_range(void* a, unsigned long size) {
    simt::detail::on_access(a, size, true, __builtin_return_address(0));
}
}
