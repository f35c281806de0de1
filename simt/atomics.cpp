// Atomics. One fiber runs at a time, so a plain read-modify-write
// is atomic here; each tells the race check it was atomic (two atomics on one
// word do not race). Not compiled with the access hooks, so the check sees
// exactly one access per atomic, at the caller's line.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "internal.hpp"
#include "simt/libcu.hpp"

namespace {

// An atomic that leaves the word as it was may be a spin-wait's poll (the
// scheduler lets other threads and blocks run); one that changes it is
// progress for whoever polls it.
template <typename T, typename Op>
T rmw(T* address, Op op, const void* pc) {
    simt::detail::record_atomic(address, sizeof(T), pc);
    const T old = *address;
    const T now = op(old);
    *address = now;
    if (std::memcmp(&old, &now, sizeof(T)) != 0) {
        ++simt::detail::g_progress;
        simt::detail::release(address, true, simt::detail::Releases::AfterFence, true, true);
    } else {
        unsigned long long bits = 0;
        std::memcpy(&bits, &old, sizeof(T));
        simt::detail::poll(address, bits, pc);
    }
    return old;
}

}  // namespace

#define SIMT_ATOMIC(name, T, expr)                                                  \
    T name(T* address, T value) {                                                   \
        return rmw(address, [value]([[maybe_unused]] T old) { return expr; }, __builtin_return_address(0)); \
    }

SIMT_ATOMIC(atomicAdd, int, old + value)
SIMT_ATOMIC(atomicAdd, unsigned, old + value)
SIMT_ATOMIC(atomicAdd, unsigned long long, old + value)
SIMT_ATOMIC(atomicAdd, float, old + value)
SIMT_ATOMIC(atomicAdd, double, old + value)
SIMT_ATOMIC(atomicSub, int, old - value)
SIMT_ATOMIC(atomicSub, unsigned, old - value)
SIMT_ATOMIC(atomicExch, int, value)
SIMT_ATOMIC(atomicExch, unsigned, value)
SIMT_ATOMIC(atomicExch, float, value)
SIMT_ATOMIC(atomicMax, int, std::max(old, value))
SIMT_ATOMIC(atomicMax, unsigned, std::max(old, value))
SIMT_ATOMIC(atomicMin, int, std::min(old, value))
SIMT_ATOMIC(atomicMin, unsigned, std::min(old, value))
SIMT_ATOMIC(atomicExch, unsigned long long, value)
SIMT_ATOMIC(atomicMax, long long, std::max(old, value))
SIMT_ATOMIC(atomicMax, unsigned long long, std::max(old, value))
SIMT_ATOMIC(atomicMin, long long, std::min(old, value))
SIMT_ATOMIC(atomicMin, unsigned long long, std::min(old, value))
SIMT_ATOMIC(atomicAnd, int, old & value)
SIMT_ATOMIC(atomicAnd, unsigned, old & value)
SIMT_ATOMIC(atomicAnd, unsigned long long, old & value)
SIMT_ATOMIC(atomicOr, int, old | value)
SIMT_ATOMIC(atomicOr, unsigned, old | value)
SIMT_ATOMIC(atomicOr, unsigned long long, old | value)
SIMT_ATOMIC(atomicXor, int, old ^ value)
SIMT_ATOMIC(atomicXor, unsigned, old ^ value)
SIMT_ATOMIC(atomicXor, unsigned long long, old ^ value)
SIMT_ATOMIC(atomicInc, unsigned, old >= value ? 0u : old + 1u)
SIMT_ATOMIC(atomicDec, unsigned, (old == 0u || old > value) ? value : old - 1u)
#undef SIMT_ATOMIC

#define SIMT_CAS(T)                                                                                 \
    T atomicCAS(T* address, T compare, T value) {                                                   \
        return rmw(address, [=](T old) { return old == compare ? value : old; }, __builtin_return_address(0)); \
    }
SIMT_CAS(int)
SIMT_CAS(unsigned)
SIMT_CAS(unsigned long long)
#undef SIMT_CAS

// ---- libcu++'s atomics (include/simt/libcu.hpp): loads, stores and
// read-modify-writes of 1, 2, 4 or 8 bytes, each with its memory order and
// thread scope, and the fences. Orders and scopes as libcu++ numbers them
// (memory_order_relaxed 0 ... memory_order_seq_cst 5; thread_scope_system 0,
// _device 1, _block 2, _thread 10). The race check takes them as the
// synchronisation they are (memcheck.cpp): at device or system scope a
// release publishes what the block wrote before it, as a __threadfence()
// followed by an atomic store does, and an acquire takes what the release it
// reads from covered, as an atomic load followed by a __threadfence() does;
// block and thread scope order nothing across blocks; relaxed orders nothing.
namespace {

bool wide(int scope) { return scope == 0 || scope == 1; }
bool acquires(int order) { return order == 1 || order == 2 || order == 4 || order == 5; }
bool releases(int order) { return order >= 3; }
simt::detail::Releases how(int order, int scope) {
    using simt::detail::Releases;
    return !wide(scope) ? Releases::Nothing : releases(order) ? Releases::Everything : Releases::AfterFence;
}

unsigned long long read_bits(const void* address, std::size_t size) {
    unsigned long long bits = 0;
    std::memcpy(&bits, address, size);
    return bits;
}

}  // namespace

unsigned long long simt::libcu_load(const void* address, std::size_t size, int order, int scope, const void* pc) {
    simt::detail::record_atomic_load(address, size, pc, wide(scope));
    if (wide(scope) && acquires(order)) simt::detail::acquire_now(address);
    return read_bits(address, size);
}

void simt::libcu_store(void* address, std::size_t size, unsigned long long value, int order, int scope,
                       const void* pc) {
    simt::detail::record_atomic_store(address, size, pc);
    const unsigned long long old = read_bits(address, size);
    std::memcpy(address, &value, size);
    const bool changed = old != value;
    if (changed) ++simt::detail::g_progress;
    simt::detail::release(address, true, how(order, scope), changed);
}

unsigned long long simt::libcu_update(void* address, std::size_t size, LibcuUpdate update, const void* context,
                                      int order, int failure_order, int scope, const void* pc) {
    simt::detail::record_atomic(address, size, pc, wide(scope));
    const unsigned long long old = read_bits(address, size);
    unsigned long long now = old;
    const bool writes = update(old, &now, context);
    if (wide(scope) && acquires(writes ? order : failure_order)) simt::detail::acquire_now(address);
    if (writes) std::memcpy(address, &now, size);
    if (writes && now != old) {
        ++simt::detail::g_progress;
        simt::detail::release(address, true, how(order, scope), true, true);
    } else {
        simt::detail::poll(address, old, pc);
    }
    return old;
}

void simt::libcu_fence(int order, int scope) {
    if (order != 0) simt::threadfence(wide(scope));
}
