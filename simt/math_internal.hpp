// What the two files of CUDA's math (math.cpp, math_intrinsics.cpp) share:
// long double, the checked accesses a function makes for its caller, and one
// operation in a rounding mode. Templates in an anonymous namespace, each
// file its own, both built with -frounding-math (simt/meson.build).
#pragma once

#include <cfenv>
#include <cmath>
#include <type_traits>

#include "internal.hpp"

namespace {

using LD = long double;

template <typename T>
T narrow(LD v) {
    return static_cast<T>(v);
}

// ---- accesses made for the calling kernel --------------------------------------
template <typename T>
void store(T* p, T v, const void* pc) {
    simt::detail::library_access(p, sizeof(T), true, pc);
    *p = v;
}
template <typename T>
T load(const T* p, const void* pc) {
    if (pc) simt::detail::library_access(p, sizeof(T), false, pc);  // null: the function's own array
    return *p;
}

// ---- one operation in a rounding mode (FE_TONEAREST, FE_TOWARDZERO,
// FE_UPWARD, FE_DOWNWARD); the volatile operands keep it between the switches.
template <typename T, typename Op>
T in_mode(int mode, Op op) {
    const int saved = std::fegetround();
    std::fesetround(mode);
    const volatile T result = op();
    std::fesetround(saved);
    return result;
}
template <typename T>
T op_add(int mode, T x, T y) {
    return in_mode<T>(mode, [=] {
        const volatile T a = x, b = y;
        return a + b;
    });
}
template <typename T>
T op_sub(int mode, T x, T y) {
    return in_mode<T>(mode, [=] {
        const volatile T a = x, b = y;
        return a - b;
    });
}
template <typename T>
T op_mul(int mode, T x, T y) {
    return in_mode<T>(mode, [=] {
        const volatile T a = x, b = y;
        return a * b;
    });
}
template <typename T>
T op_div(int mode, T x, T y) {
    return in_mode<T>(mode, [=] {
        const volatile T a = x, b = y;
        return a / b;
    });
}
template <typename T>
T fused(int mode, T x, T y, T z) {
    return in_mode<T>(mode, [=] {
        const volatile T a = x, b = y, c = z;
        if constexpr (std::is_same_v<T, float>) return ::fmaf(a, b, c);  // the C library's: exact in every mode
        else return ::fma(a, b, c);
    });
}
template <typename T>
T root(int mode, T x) {
    return in_mode<T>(mode, [=] {
        const volatile T a = x;
        if constexpr (std::is_same_v<T, float>) return ::sqrtf(a);
        else return ::sqrt(a);
    });
}

}  // namespace
