// CUDA's intrinsics for the emulator (include/simt/math.hpp declares them):
// the directed-rounding operations and conversions, and the fast intrinsics'
// approximate instructions, rounded correctly. Built as math.cpp is.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "internal.hpp"
#include "math_internal.hpp"

namespace {

// ---- conversions -------------------------------------------------------------------
// x rounded to an integral value in a mode, exactly.
template <typename F>
F integral(F x, int mode) {
    switch (mode) {
        case FE_TOWARDZERO: return std::trunc(x);
        case FE_UPWARD: return std::ceil(x);
        case FE_DOWNWARD: return std::floor(x);
        default: {  // to nearest, ties to even
            F t = std::trunc(x);
            const F d = std::fabs(x - t);  // exact
            if (d > F(0.5) || (d == F(0.5) && std::fmod(t, F(2)) != 0)) t += std::copysign(F(1), x);
            return t;
        }
    }
}

// PTX's cvt to an integer: clamped to the type's range; a NaN gives 0 from
// float to a 32-bit type, else 1 << (bits - 1).
template <typename I, typename F>
I to_integer(F x, int mode) {
    constexpr bool wide = sizeof(I) == 8 || std::is_same_v<F, double>;
    if (std::isnan(x)) return wide ? static_cast<I>(std::uint64_t{1} << (8 * sizeof(I) - 1)) : I{0};
    const F r = integral(x, mode);
    const F high = std::ldexp(F(1), std::numeric_limits<I>::digits);  // the first value past the range
    const F low = std::is_signed_v<I> ? -high : F(0);
    if (r < low) return std::numeric_limits<I>::min();
    if (r >= high) return std::numeric_limits<I>::max();
    return static_cast<I>(r);
}

// An integer of `magnitude` and sign rounded to F in a mode, exactly.
template <typename F>
F from_integer(bool negative, std::uint64_t magnitude, int mode) {
    constexpr int digits = std::numeric_limits<F>::digits;
    if (magnitude == 0) return F(0);
    const int bits = 64 - __builtin_clzll(magnitude);
    if (bits <= digits) return negative ? -F(magnitude) : F(magnitude);
    const int shift = bits - digits;
    std::uint64_t q = magnitude >> shift;
    const std::uint64_t rest = magnitude & ((std::uint64_t{1} << shift) - 1), half = std::uint64_t{1} << (shift - 1);
    bool up = false;
    switch (mode) {
        case FE_TOWARDZERO: break;
        case FE_UPWARD: up = !negative && rest != 0; break;
        case FE_DOWNWARD: up = negative && rest != 0; break;
        default: up = rest > half || (rest == half && (q & 1) != 0); break;
    }
    q += up;  // 2^digits at most: still exact
    const F v = std::ldexp(F(q), shift);
    return negative ? -v : v;
}
template <typename F>
F from_signed(long long x, int mode) {
    const bool negative = x < 0;
    return from_integer<F>(negative, negative ? 0 - static_cast<std::uint64_t>(x) : static_cast<std::uint64_t>(x), mode);
}

// ---- the approximate instructions behind the fast intrinsics, each rounded
// correctly here (the GPU's are within a few ulps of that).
float ex2_approx(float t) { return narrow<float>(std::exp2(static_cast<LD>(t))); }
float lg2_approx(float x) { return narrow<float>(std::log2(static_cast<LD>(x))); }
float sin_approx(float x) { return narrow<float>(std::sin(static_cast<LD>(x))); }
float cos_approx(float x) { return narrow<float>(std::cos(static_cast<LD>(x))); }
// div.approx.f32, x * (1/y): 0 (NaN for an infinite x) for 2^126 < |y| < 2^128.
float div_approx(float x, float y) {
    if (std::isfinite(y) && std::fabs(y) > 0x1p126f) return x * std::copysign(0.0f, y);
    return narrow<float>(static_cast<LD>(x) / y);
}
float mul_rn(float x, float y) { return op_mul(FE_TONEAREST, x, y); }
constexpr float kLog2E = __builtin_bit_cast(float, 0x3FB8AA3Bu);   // __expf's factor
constexpr float kLog2Ten = __builtin_bit_cast(float, 0x40549A78u); // __exp10f's
constexpr float kLn2 = __builtin_bit_cast(float, 0x3F317218u);     // __logf's
constexpr float kLog10Two = __builtin_bit_cast(float, 0x3E9A209Bu); // __log10f's

}  // namespace

// ---- single-precision intrinsics ------------------------------------------------------
#define SIMT_MODES(R, stem, params, call)                                   \
    R stem##_rn params {                                                    \
        constexpr int mode = FE_TONEAREST;                                  \
        return call;                                                        \
    }                                                                       \
    R stem##_rz params {                                                    \
        constexpr int mode = FE_TOWARDZERO;                                 \
        return call;                                                        \
    }                                                                       \
    R stem##_ru params {                                                    \
        constexpr int mode = FE_UPWARD;                                     \
        return call;                                                        \
    }                                                                       \
    R stem##_rd params {                                                    \
        constexpr int mode = FE_DOWNWARD;                                   \
        return call;                                                        \
    }

SIMT_MODES(float, __fadd, (float x, float y), op_add(mode, x, y))
SIMT_MODES(float, __fsub, (float x, float y), op_sub(mode, x, y))
SIMT_MODES(float, __fmul, (float x, float y), op_mul(mode, x, y))
SIMT_MODES(float, __fdiv, (float x, float y), op_div(mode, x, y))
SIMT_MODES(float, __fmaf, (float x, float y, float z), fused(mode, x, y, z))
SIMT_MODES(float, __fmaf_ieee, (float x, float y, float z), fused(mode, x, y, z))
SIMT_MODES(float, __frcp, (float x), op_div(mode, 1.0f, x))
SIMT_MODES(float, __fsqrt, (float x), root(mode, x))

// 1/sqrt(x) correctly rounded: the long double quotient, then the tie-breaking
// midpoint's side decided exactly (x * m^2 against 1 in integers).
float __frsqrt_rn(float x) {
    if (std::isnan(x) || x < 0) return std::numeric_limits<float>::quiet_NaN();
    if (x == 0) return std::copysign(std::numeric_limits<float>::infinity(), x);
    if (std::isinf(x)) return 0.0f;
    float r = narrow<float>(1 / std::sqrt(static_cast<LD>(x)));
    // x = X 2^ex, candidate midpoints m = M 2^em (M odd, 25 bits): y > m iff X M^2 2^(ex + 2 em) < 1.
    const auto above = [&](float lo, float hi) {  // is 1/sqrt(x) above the midpoint of lo < hi?
        const int ex = std::ilogb(x) - 23;             // x = X 2^ex, X < 2^24
        const auto X = static_cast<unsigned __int128>(std::scalbn(x, -ex));
        const double mid = (static_cast<double>(lo) + hi) / 2;  // exact, 25 significant bits
        const int em = std::ilogb(mid) - 25;           // mid = M 2^em, M < 2^26
        const auto M = static_cast<unsigned __int128>(std::scalbn(mid, -em));
        const unsigned __int128 prod = X * M * M;      // < 2^76
        const int shift = -(ex + 2 * em);              // 1/sqrt(x) > mid iff prod < 2^shift
        if (shift >= 127) return true;
        if (shift < 0) return false;
        return prod < (static_cast<unsigned __int128>(1) << shift);
    };
    const float down = std::nextafter(r, 0.0f), up = std::nextafter(r, std::numeric_limits<float>::infinity());
    if (!above(down, r)) return down;
    if (above(r, up)) return up;
    return r;
}
float __fdividef(float x, float y) { return div_approx(x, y); }
// cvt.sat.f32.f32: clamped to [+0, 1], a NaN to +0.
float __saturatef(float x) {
    if (std::isnan(x) || x <= 0) return 0.0f;
    return x >= 1 ? 1.0f : x;
}
float __sinf(float x) noexcept { return sin_approx(x); }
float __cosf(float x) noexcept { return cos_approx(x); }
float __tanf(float x) noexcept { return div_approx(sin_approx(x), cos_approx(x)); }
void __sincosf(float x, float* s, float* c) noexcept {
    const void* pc = __builtin_return_address(0);
    store(s, sin_approx(x), pc);
    store(c, cos_approx(x), pc);
}
float __expf(float x) noexcept { return ex2_approx(mul_rn(x, kLog2E)); }
float __exp10f(float x) noexcept { return ex2_approx(mul_rn(x, kLog2Ten)); }
float __logf(float x) noexcept { return mul_rn(lg2_approx(x), kLn2); }
float __log2f(float x) noexcept { return lg2_approx(x); }
float __log10f(float x) noexcept { return mul_rn(lg2_approx(x), kLog10Two); }
float __powf(float x, float y) noexcept { return ex2_approx(mul_rn(y, lg2_approx(x))); }
float __tanhf(float x) noexcept { return narrow<float>(std::tanh(static_cast<LD>(x))); }

// ---- double-precision intrinsics --------------------------------------------------------
SIMT_MODES(double, __dadd, (double x, double y), op_add(mode, x, y))
SIMT_MODES(double, __dsub, (double x, double y), op_sub(mode, x, y))
SIMT_MODES(double, __dmul, (double x, double y), op_mul(mode, x, y))
SIMT_MODES(double, __ddiv, (double x, double y), op_div(mode, x, y))
SIMT_MODES(double, __drcp, (double x), op_div(mode, 1.0, x))
SIMT_MODES(double, __dsqrt, (double x), root(mode, x))
SIMT_MODES(double, __fma, (double x, double y, double z), fused(mode, x, y, z))

// ---- conversions --------------------------------------------------------------------------
SIMT_MODES(float, __double2float, (double x), in_mode<float>(mode, [x] {
               const volatile double v = x;
               return static_cast<float>(v);
           }))
SIMT_MODES(int, __double2int, (double x), (to_integer<int, double>(x, mode)))
SIMT_MODES(unsigned int, __double2uint, (double x), (to_integer<unsigned int, double>(x, mode)))
SIMT_MODES(long long int, __double2ll, (double x), (to_integer<long long int, double>(x, mode)))
SIMT_MODES(unsigned long long int, __double2ull, (double x), (to_integer<unsigned long long int, double>(x, mode)))
SIMT_MODES(int, __float2int, (float x), (to_integer<int, float>(x, mode)))
SIMT_MODES(unsigned int, __float2uint, (float x), (to_integer<unsigned int, float>(x, mode)))
SIMT_MODES(long long int, __float2ll, (float x), (to_integer<long long int, float>(x, mode)))
SIMT_MODES(unsigned long long int, __float2ull, (float x), (to_integer<unsigned long long int, float>(x, mode)))
SIMT_MODES(float, __int2float, (int x), from_signed<float>(x, mode))
SIMT_MODES(float, __uint2float, (unsigned int x), from_integer<float>(false, x, mode))
SIMT_MODES(float, __ll2float, (long long int x), from_signed<float>(x, mode))
SIMT_MODES(float, __ull2float, (unsigned long long int x), from_integer<float>(false, x, mode))
SIMT_MODES(double, __ll2double, (long long int x), from_signed<double>(x, mode))
SIMT_MODES(double, __ull2double, (unsigned long long int x), from_integer<double>(false, x, mode))
