// Atomics. One fiber runs at a time, so a plain read-modify-write
// is atomic here; each tells the race check it was atomic (two atomics on one
// word do not race). Not compiled with the access hooks, so the check sees
// exactly one access per atomic, at the caller's line.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "internal.hpp"

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
        simt::detail::release(address, true);
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
