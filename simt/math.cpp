// CUDA's device math for the emulator (include/simt/math.hpp declares it;
// the intrinsics are math_intrinsics.cpp's).
//
// Accuracy: each function is evaluated in long double (x87, 64-bit
// significand) and rounded once to float or double, so it is correctly
// rounded but for rare ties of the extended result; the GPU's result is
// within the CUDA Math API's documented bound of the exact value, so the two
// differ by at most that bound. The C library's transcendental functions
// (sinf, exp, pow, ...) are defined here under their own names: g++ calls
// them by name wherever they are used (std::sin(float) is __builtin_sinf),
// so the program's own definitions take the place of the C library's for
// kernels and host code alike; glibc's are within 1 ulp, not correctly
// rounded. Functions whose results the C library already gives exactly as
// CUDA does (floorf, fmodf, ldexpf, nextafterf, ...) stay the C library's.
//
// Built, as math_intrinsics.cpp is, with -frounding-math (the
// directed-rounding intrinsics switch the rounding mode around one
// operation) and -fno-builtin (so that g++ does not turn an expression here
// back into a call of a function defined here), and not instrumented: a
// function that stores through a pointer or reads an array tells the memory
// checks about each access itself, at its caller's return address, so a
// report names the kernel's line.
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "internal.hpp"
#include "math_internal.hpp"

namespace {

constexpr LD kPi = 3.14159265358979323846264338327950288L;
constexpr LD kSqrtPi = 1.77245385090551602729816748334114518L;
constexpr LD kSqrt2 = 1.41421356237309504880168872420969808L;

// ---- min and max as PTX defines them: a NaN operand ignored, -0 below +0 ---------
template <typename T>
T min_num(T a, T b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
}
template <typename T>
T max_num(T a, T b) {
    if (std::isnan(a)) return b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
}

// ---- exact frexp, modf and remquo (the C library's would be shadowed here) -------
template <typename T>
T split_exponent(T x, int* e) {
    if (x == 0 || !std::isfinite(x)) {
        *e = 0;
        return x + x;  // a NaN quieted, zeros and infinities kept
    }
    *e = std::ilogb(x) + 1;
    return std::scalbn(x, -*e);
}
template <typename T>
T split_integral(T x, T* whole) {
    if (std::isnan(x)) return *whole = x + x;
    *whole = std::trunc(x);
    if (std::isinf(x)) return std::copysign(T(0), x);
    return std::copysign(x - *whole, x);  // x - trunc(x) is exact
}
// The remainder of x / y rounded to nearest even and the low 3 bits of that
// quotient with its sign, as the C library's and CUDA's remquo give them.
template <typename T>
T remainder_quotient(T x, T y, int* quo) {
    *quo = 0;
    if (std::isnan(x) || std::isnan(y) || std::isinf(x) || y == 0) return std::numeric_limits<T>::quiet_NaN();
    if (std::isinf(y)) return x;
    const LD ay = std::fabs(static_cast<LD>(y));
    LD a = std::fmod(std::fabs(static_cast<LD>(x)), 8 * ay);  // exact
    int q = 0;
    for (int step = 4; step >= 1; step /= 2)
        if (a >= step * ay) {
            a -= step * ay;  // exact: within a factor of 2
            q += step;
        }
    if (2 * a > ay || (2 * a == ay && (q & 1) != 0)) {
        a -= ay;
        ++q;
    }
    q &= 7;
    *quo = std::signbit(x) != std::signbit(y) ? -q : q;
    const T r = static_cast<T>(a);
    return std::signbit(x) ? -r : r;
}

// ---- sin(pi x) and cos(pi x), reduced exactly --------------------------------------
void sincos_pi(LD x, LD* s, LD* c) {
    if (!std::isfinite(x)) {
        *s = *c = std::numeric_limits<LD>::quiet_NaN();
        return;
    }
    const LD r = std::fmod(x, 2.0L);           // exact, |r| < 2
    const LD n = std::nearbyint(r * 2);        // the nearest quarter turn
    const LD f = r - n / 2;                    // exact, |f| <= 1/4
    const int quadrant = static_cast<int>(n) & 3;
    const LD sf = std::sin(kPi * f), cf = std::cos(kPi * f);
    switch (quadrant) {
        case 0: *s = sf, *c = cf; break;
        case 1: *s = cf, *c = -sf; break;
        case 2: *s = -sf, *c = -cf; break;
        default: *s = -cf, *c = sf; break;
    }
    if (*s == 0) *s = std::copysign(0.0L, x);  // sinpi(n) is +0 for n > 0, -0 for n < 0
    if (*c == 0) *c = 0;                       // cospi(n + 1/2) is +0
}
LD sin_pi(LD x) {
    LD s, c;
    sincos_pi(x, &s, &c);
    return s;
}
LD cos_pi(LD x) {
    LD s, c;
    sincos_pi(x, &s, &c);
    return c;
}

// ---- the error function's inverses, by Newton's method in long double ------------
LD erfcinv_small(LD t);
// erf^-1(y) for |y| < 1.
LD erfinv_ld(LD y) {
    if (y == 0) return y;
    if (std::fabs(y) > 0.5L) return std::copysign(erfcinv_small(1 - std::fabs(y)), y);  // 1 - |y| exact
    const LD y2 = y * y;
    LD x = kSqrtPi / 2 * y * (1 + kPi / 12 * y2 + 7 * kPi * kPi / 480 * y2 * y2);
    for (int i = 0; i < 20; ++i) {
        const LD step = (std::erf(x) - y) / (2 / kSqrtPi * std::exp(-x * x));
        x -= step;
        if (std::fabs(step) <= std::fabs(x) * 0x1p-66L) break;
    }
    return x;
}
// erfc^-1(t) for 0 < t <= 1/2 (x >= 0.47): Newton on log erfc, well
// conditioned down to the smallest subnormal.
LD erfcinv_small(LD t) {
    if (t > 0.5L) return erfinv_ld(1 - t);
    const LD lt = std::log(t), u = -lt;
    const LD guess2 = u - 0.5L * std::log(kPi * u);
    LD x = guess2 > 0.25L ? std::sqrt(guess2) : 0.5L;
    for (int i = 0; i < 50; ++i) {
        const LD e = std::erfc(x);
        const LD step = (std::log(e) - lt) * e / (2 / kSqrtPi * std::exp(-x * x));
        x += step;
        if (std::fabs(step) <= x * 0x1p-66L) break;
    }
    return x;
}
// erfc^-1(t) for 0 <= t <= 2.
LD erfcinv_ld(LD t) {
    if (std::isnan(t) || t < 0 || t > 2) return std::numeric_limits<LD>::quiet_NaN();
    if (t == 0) return std::numeric_limits<LD>::infinity();
    if (t == 2) return -std::numeric_limits<LD>::infinity();
    if (t == 1) return 0;
    if (t > 1) return -erfcinv_small(2 - t);  // 2 - t exact
    return erfcinv_small(t);
}
LD erfinv_full(LD y) {
    if (std::isnan(y) || std::fabs(y) > 1) return std::numeric_limits<LD>::quiet_NaN();
    if (std::fabs(y) == 1) return std::copysign(std::numeric_limits<LD>::infinity(), y);
    return erfinv_ld(y);
}
LD normcdfinv_ld(LD p) {
    const LD r = -kSqrt2 * erfcinv_ld(2 * p);
    return r == 0 ? 0 : r;
}

// exp(x*x) with x*x split into two exact parts.
LD exp_square(LD x) {
    const LD hi = x * x, lo = std::fma(x, x, -hi);
    return std::exp(hi) * (1 + lo);
}
// erfc(z) where z = x * s for a constant s = s_hi + s_lo, to first order in
// the rounding of the product.
LD erfc_scaled(LD x, LD s_hi, LD s_lo) {
    const LD z = x * s_hi, dz = std::fma(x, s_hi, -z) + x * s_lo;
    const LD e = std::erfc(z);
    if (!std::isfinite(z)) return e;
    return e - 2 / kSqrtPi * std::exp(-z * z) * dz;
}
LD erfcx_ld(LD x) {
    if (std::isnan(x)) return x;
    if (x == std::numeric_limits<LD>::infinity()) return 0;
    if (x < 50) return x < -107 ? std::numeric_limits<LD>::infinity() : exp_square(x) * std::erfc(x);
    // 1/(x sqrt(pi)) * (1 - 1/(2x^2) + 3/(2x^2)^2 - 15/(2x^2)^3 + ...)
    const LD w = 1 / (2 * x * x);
    LD term = 1, sum = 1;
    for (int k = 1; k < 40; ++k) {
        term *= -(2 * k - 1) * w;
        sum += term;
        if (std::fabs(term) < sum * 0x1p-66L) break;
    }
    return sum / (x * kSqrtPi);
}
// Phi(x) = erfc(-x / sqrt(2)) / 2.
LD normcdf_ld(LD x) {
    constexpr LD rs_hi = 0xb504f333f9de6484p-64L;   // 1/sqrt(2) in long double
    constexpr LD rs_lo = 0xb2fb1366ea957d3ep-129L;  // and the rest
    return erfc_scaled(-x, rs_hi, rs_lo) / 2;
}

// ---- modified Bessel functions I0 and I1 ----------------------------------------
LD bessel_i(int nu, LD x) {  // x >= 0
    if (std::isinf(x)) return x;
    if (x <= 30) {  // (x/2)^nu sum_k (x^2/4)^k / (k! (k + nu)!)
        const LD q = x * x / 4;
        LD term = nu ? x / 2 : 1, sum = term;
        for (int k = 1; k < 1000; ++k) {
            term *= q / (static_cast<LD>(k) * (k + nu));
            sum += term;
            if (term <= sum * 0x1p-66L) break;
        }
        return sum;
    }
    // e^x / sqrt(2 pi x) * sum_k (-1)^k prod_{j<=k} (4nu^2 - (2j-1)^2) / (k! (8x)^k)
    const LD mu = 4.0L * nu * nu;
    LD term = 1, sum = 1;
    for (int k = 1; k < 200; ++k) {
        const LD next = -term * (mu - static_cast<LD>(2 * k - 1) * (2 * k - 1)) / (static_cast<LD>(k) * 8 * x);
        if (std::fabs(next) >= std::fabs(term)) break;
        term = next;
        sum += term;
        if (std::fabs(term) <= std::fabs(sum) * 0x1p-66L) break;
    }
    return std::exp(x) / std::sqrt(2 * kPi * x) * sum;
}
LD bessel_i0(LD x) { return std::isnan(x) ? x : bessel_i(0, std::fabs(x)); }
LD bessel_i1(LD x) { return std::isnan(x) ? x : std::copysign(bessel_i(1, std::fabs(x)), x); }

// ---- vector norms: an infinite coordinate wins over a NaN, as in hypot --------------
template <typename T>
LD squares(const T* v, int n, const void* pc, bool* inf, bool* nan) {
    LD sum = 0;
    for (int i = 0; i < n; ++i) {
        const LD x = load(v + i, pc);
        if (std::isinf(x)) *inf = true;
        else if (std::isnan(x)) *nan = true;
        else sum += x * x;
    }
    return sum;
}
template <typename T>
T vector_norm(const T* v, int n, bool reciprocal, const void* pc) {
    bool inf = false, nan = false;
    const LD s = squares(v, n, pc, &inf, &nan);
    if (inf) return reciprocal ? T(0) : std::numeric_limits<T>::infinity();
    if (nan) return std::numeric_limits<T>::quiet_NaN();
    return narrow<T>(reciprocal ? 1 / std::sqrt(s) : std::sqrt(s));
}
template <typename T, typename... A>
T norm_of(bool reciprocal, A... a) {
    const T v[] = {static_cast<T>(a)...};
    return vector_norm(v, sizeof...(A), reciprocal, nullptr);  // local: nothing to check
}

// lgamma's sign for the C library's global.
LD log_gamma(LD x) {
    int sign = 1;
    const LD r = ::lgammal_r(x, &sign);
    signgam = sign;
    return r;
}

}  // namespace

// ---- the C library's functions, correctly rounded (float, double) --------------------
#define SIMT_UNARY(name, ld_call)                                               \
    extern "C" float name##f(float x) noexcept { return narrow<float>(ld_call(static_cast<LD>(x))); } \
    extern "C" double name(double x) noexcept { return narrow<double>(ld_call(static_cast<LD>(x))); }
#define SIMT_BINARY(name, ld_call)                                                                      \
    extern "C" float name##f(float x, float y) noexcept {                                                \
        return narrow<float>(ld_call(static_cast<LD>(x), static_cast<LD>(y)));                          \
    }                                                                                                    \
    extern "C" double name(double x, double y) noexcept {                                                \
        return narrow<double>(ld_call(static_cast<LD>(x), static_cast<LD>(y)));                         \
    }

SIMT_UNARY(sin, ::sinl)
SIMT_UNARY(cos, ::cosl)
SIMT_UNARY(tan, ::tanl)
SIMT_UNARY(asin, ::asinl)
SIMT_UNARY(acos, ::acosl)
SIMT_UNARY(atan, ::atanl)
SIMT_UNARY(sinh, ::sinhl)
SIMT_UNARY(cosh, ::coshl)
SIMT_UNARY(tanh, ::tanhl)
SIMT_UNARY(asinh, ::asinhl)
SIMT_UNARY(acosh, ::acoshl)
SIMT_UNARY(atanh, ::atanhl)
SIMT_UNARY(exp, ::expl)
SIMT_UNARY(exp2, ::exp2l)
SIMT_UNARY(expm1, ::expm1l)
SIMT_UNARY(log, ::logl)
SIMT_UNARY(log2, ::log2l)
SIMT_UNARY(log10, ::log10l)
SIMT_UNARY(log1p, ::log1pl)
SIMT_UNARY(cbrt, ::cbrtl)
SIMT_UNARY(erf, ::erfl)
SIMT_UNARY(erfc, ::erfcl)
SIMT_UNARY(tgamma, ::tgammal)
SIMT_UNARY(lgamma, log_gamma)
SIMT_UNARY(j0, ::j0l)
SIMT_UNARY(j1, ::j1l)
SIMT_UNARY(y0, ::y0l)
SIMT_UNARY(y1, ::y1l)
SIMT_BINARY(atan2, ::atan2l)
SIMT_BINARY(hypot, ::hypotl)
SIMT_BINARY(pow, ::powl)
SIMT_BINARY(fmin, min_num)
SIMT_BINARY(fmax, max_num)

namespace {
LD exp10_ld(LD x) { return ::powl(10.0L, x); }
// CUDA's jn and yn are NaN for n < 0 in kernels; host code keeps the C library's
// meaning (the sign rule for a negative order).
bool negative_order_in_kernel(int n) { return n < 0 && simt::detail::in_kernel(); }
}  // namespace

SIMT_UNARY(exp10, exp10_ld)
extern "C" float jnf(int n, float x) noexcept {
    return negative_order_in_kernel(n) ? NAN : narrow<float>(::jnl(n, x));
}
extern "C" double jn(int n, double x) noexcept {
    return negative_order_in_kernel(n) ? NAN : narrow<double>(::jnl(n, x));
}
extern "C" float ynf(int n, float x) noexcept {
    return negative_order_in_kernel(n) ? NAN : narrow<float>(::ynl(n, x));
}
extern "C" double yn(int n, double x) noexcept {
    return negative_order_in_kernel(n) ? NAN : narrow<double>(::ynl(n, x));
}

// Functions that store through pointers: each store checked at the caller's line.
extern "C" void sincosf(float x, float* s, float* c) noexcept {
    const void* pc = __builtin_return_address(0);
    const float sv = narrow<float>(::sinl(x)), cv = narrow<float>(::cosl(x));
    store(s, sv, pc);
    store(c, cv, pc);
}
extern "C" void sincos(double x, double* s, double* c) noexcept {
    const void* pc = __builtin_return_address(0);
    const double sv = narrow<double>(::sinl(x)), cv = narrow<double>(::cosl(x));
    store(s, sv, pc);
    store(c, cv, pc);
}
void sincos(float x, float* s, float* c) {
    const void* pc = __builtin_return_address(0);
    const float sv = narrow<float>(::sinl(x)), cv = narrow<float>(::cosl(x));
    store(s, sv, pc);
    store(c, cv, pc);
}
extern "C" float frexpf(float x, int* e) noexcept {
    int k;
    const float m = split_exponent(x, &k);
    store(e, k, __builtin_return_address(0));
    return m;
}
extern "C" double frexp(double x, int* e) noexcept {
    int k;
    const double m = split_exponent(x, &k);
    store(e, k, __builtin_return_address(0));
    return m;
}
extern "C" float modff(float x, float* whole) noexcept {
    float w;
    const float f = split_integral(x, &w);
    store(whole, w, __builtin_return_address(0));
    return f;
}
extern "C" double modf(double x, double* whole) noexcept {
    double w;
    const double f = split_integral(x, &w);
    store(whole, w, __builtin_return_address(0));
    return f;
}
extern "C" float remquof(float x, float y, int* quo) noexcept {
    int q;
    const float r = remainder_quotient(x, y, &q);
    store(quo, q, __builtin_return_address(0));
    return r;
}
extern "C" double remquo(double x, double y, int* quo) noexcept {
    int q;
    const double r = remainder_quotient(x, y, &q);
    store(quo, q, __builtin_return_address(0));
    return r;
}

// ---- CUDA's own functions ------------------------------------------------------------
namespace {
LD rsqrt_ld(LD x) { return 1 / std::sqrt(x); }
LD rcbrt_ld(LD x) { return 1 / std::cbrt(x); }
LD rhypot_ld(LD x, LD y) { return 1 / ::hypotl(x, y); }
}  // namespace
SIMT_UNARY(rsqrt, rsqrt_ld)
SIMT_UNARY(rcbrt, rcbrt_ld)
SIMT_UNARY(sinpi, sin_pi)
SIMT_UNARY(cospi, cos_pi)
SIMT_UNARY(erfinv, erfinv_full)
SIMT_UNARY(erfcinv, erfcinv_ld)
SIMT_UNARY(erfcx, erfcx_ld)
SIMT_UNARY(normcdf, normcdf_ld)
SIMT_UNARY(normcdfinv, normcdfinv_ld)
SIMT_UNARY(cyl_bessel_i0, bessel_i0)
SIMT_UNARY(cyl_bessel_i1, bessel_i1)
SIMT_BINARY(rhypot, rhypot_ld)

extern "C" void sincospif(float x, float* s, float* c) noexcept {
    const void* pc = __builtin_return_address(0);
    LD sv, cv;
    sincos_pi(x, &sv, &cv);
    store(s, narrow<float>(sv), pc);
    store(c, narrow<float>(cv), pc);
}
extern "C" void sincospi(double x, double* s, double* c) noexcept {
    const void* pc = __builtin_return_address(0);
    LD sv, cv;
    sincos_pi(x, &sv, &cv);
    store(s, narrow<double>(sv), pc);
    store(c, narrow<double>(cv), pc);
}
void sincospi(float x, float* s, float* c) {
    const void* pc = __builtin_return_address(0);
    LD sv, cv;
    sincos_pi(x, &sv, &cv);
    store(s, narrow<float>(sv), pc);
    store(c, narrow<float>(cv), pc);
}

extern "C" float norm3df(float a, float b, float c) noexcept { return norm_of<float>(false, a, b, c); }
extern "C" double norm3d(double a, double b, double c) noexcept { return norm_of<double>(false, a, b, c); }
extern "C" float norm4df(float a, float b, float c, float d) noexcept { return norm_of<float>(false, a, b, c, d); }
extern "C" double norm4d(double a, double b, double c, double d) noexcept { return norm_of<double>(false, a, b, c, d); }
extern "C" float rnorm3df(float a, float b, float c) noexcept { return norm_of<float>(true, a, b, c); }
extern "C" double rnorm3d(double a, double b, double c) noexcept { return norm_of<double>(true, a, b, c); }
extern "C" float rnorm4df(float a, float b, float c, float d) noexcept { return norm_of<float>(true, a, b, c, d); }
extern "C" double rnorm4d(double a, double b, double c, double d) noexcept { return norm_of<double>(true, a, b, c, d); }
extern "C" float normf(int dim, const float* p) noexcept {
    return vector_norm(p, dim, false, __builtin_return_address(0));
}
extern "C" double norm(int dim, const double* p) noexcept {
    return vector_norm(p, dim, false, __builtin_return_address(0));
}
extern "C" float rnormf(int dim, const float* p) noexcept {
    return vector_norm(p, dim, true, __builtin_return_address(0));
}
extern "C" double rnorm(int dim, const double* p) noexcept {
    return vector_norm(p, dim, true, __builtin_return_address(0));
}
extern "C" float fdividef(float x, float y) noexcept { return op_div(FE_TONEAREST, x, y); }  // x / y, as CUDA 13's is

namespace simt::detail {
extern const char math_linked = 0;  // launch.cpp's reference pulls this file into every program
}
