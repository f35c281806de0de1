// The CUDA Math API's single-precision functions, each applied to every
// input by a thread of its own (no #include: nvcc and the emulator both
// provide them). Where the Math API's table (CUDA C++ Programming Guide,
// "Mathematical Functions", CUDA 13) gives a function 0 ulp the results are
// compared bit for bit (r.exact); elsewhere within the table's bound, given
// as a literal with the table's entry. Each kernel makes one call and stores
// its result, so nvcc's contraction of a*b+c into an FMA (g++ does not
// contract) changes nothing here.
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "map.hpp"

namespace {

// Op applied on the device to each element of the inputs (all of one length).
template <typename Op, typename R, typename... A>
std::vector<R> map(const std::vector<A>&... a) {
    return conformance::map_with<R>(
        [](unsigned n, R* out, const A*... d) {
            conformance::k_map<Op, R, A...><<<conformance::blocks(n), 256>>>(n, out, d...);
        },
        a...);
}

// ---- inputs -------------------------------------------------------------------------
std::vector<float> xs() { return conformance::f32_inputs(); }
// The inputs in another order, as second and third operands.
std::vector<float> rotated(std::size_t by) {
    const std::vector<float> x = xs();
    std::vector<float> out(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) out[i] = x[(i + by) % x.size()];
    return out;
}
// Values in (0, 1): tails toward 0 and 1, then the inputs' fractional parts.
std::vector<float> unit_inputs() {
    std::vector<float> v;
    for (int k = 1; k <= 149; k += 4) v.push_back(std::ldexp(1.0f, -k));
    for (int k = 1; k <= 24; k += 2) v.push_back(1.0f - std::ldexp(1.0f, -k));
    for (float x : xs())
        if (std::isfinite(x) && v.size() < 256) {
            const float f = std::fabs(x) - std::floor(std::fabs(x));
            if (f > 0) v.push_back(f);
        }
    v.push_back(0.0f);
    v.push_back(1.0f);
    v.push_back(0.5f);
    return v;
}
template <typename T, typename F>
std::vector<T> affine(const std::vector<T>& v, F scale, F offset) {
    std::vector<T> out;
    for (T x : v) out.push_back(static_cast<T>(x * scale + offset));
    return out;
}
std::vector<int> orders(std::size_t n) {  // jnf's and ynf's n, with CUDA's NaN for n < 0
    static const int pick[] = {0, 1, 2, 3, 5, 8, 13, 20, 50, 128, -1};
    std::vector<int> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = pick[i % (sizeof pick / sizeof *pick)];
    return out;
}
std::vector<int> exponents(std::size_t n) {  // ldexpf's and scalbnf's
    static const int pick[] = {0, 1, -1, 5, -5, 24, -24, 100, -100, 127, -126, -149, 200, -200, 300, -300, 1000, -1000};
    std::vector<int> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = pick[i % (sizeof pick / sizeof *pick)];
    return out;
}
// The elements of v where keep[i].
template <typename T>
std::vector<T> pick(const std::vector<T>& v, const std::vector<bool>& keep) {
    std::vector<T> out;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (keep[i]) out.push_back(v[i]);
    return out;
}
template <typename T, typename P>
std::vector<bool> where(const std::vector<T>& v, P pred) {
    std::vector<bool> out;
    for (T x : v) out.push_back(pred(x));
    return out;
}
std::vector<bool> negated(std::vector<bool> v) {
    v.flip();
    return v;
}

// ---- operations ------------------------------------------------------------------
OP1(Sqrtf, float, float, sqrtf(x))
OP3(Fmaf, float, float, float, float, fmaf(x, y, z))
OP1(Rintf, float, float, rintf(x))
OP1(Nearbyintf, float, float, nearbyintf(x))
OP1(Ceilf, float, float, ceilf(x))
OP1(Floorf, float, float, floorf(x))
OP1(Truncf, float, float, truncf(x))
OP1(Roundf, float, float, roundf(x))
OP1(Lrintf, long long, float, lrintf(x))
OP1(Llrintf, long long, float, llrintf(x))
OP1(Lroundf, long long, float, lroundf(x))
OP1(Llroundf, long long, float, llroundf(x))
OP1(Fabsf, float, float, fabsf(x))
OP2(Copysignf, float, float, float, copysignf(x, y))
OP2(Fmodf, float, float, float, fmodf(x, y))
OP2(Remainderf, float, float, float, remainderf(x, y))
OP2(Ldexpf, float, float, int, ldexpf(x, y))
OP2(Scalbnf, float, float, int, scalbnf(x, y))
OP2(Scalblnf, float, float, int, scalblnf(x, static_cast<long>(y)))
OP1(Ilogbf, int, float, ilogbf(x))
OP1(Logbf, float, float, logbf(x))
OP2(Nextafterf, float, float, float, nextafterf(x, y))
OP2(Fdimf, float, float, float, fdimf(x, y))
OP2(Fdividef, float, float, float, fdividef(x, y))
OP2(Divide, float, float, float, x / y)
OP1(Nanf, float, float, x == 0.0f ? nanf("") : nanf("1"))
OP1(Isfinite, int, float, isfinite(x) ? 1 : 0)
OP1(Isinf, int, float, isinf(x) ? 1 : 0)
OP1(Isnan, int, float, isnan(x) ? 1 : 0)
OP1(Signbit, int, float, signbit(x) ? 1 : 0)

OP1(Sinf, float, float, sinf(x))
OP1(Cosf, float, float, cosf(x))
OP1(Tanf, float, float, tanf(x))
OP1(Asinf, float, float, asinf(x))
OP1(Acosf, float, float, acosf(x))
OP1(Atanf, float, float, atanf(x))
OP2(Atan2f, float, float, float, atan2f(x, y))
OP1(Sinpif, float, float, sinpif(x))
OP1(Cospif, float, float, cospif(x))
OP1(Sinhf, float, float, sinhf(x))
OP1(Coshf, float, float, coshf(x))
OP1(Tanhf, float, float, tanhf(x))
OP1(Asinhf, float, float, asinhf(x))
OP1(Acoshf, float, float, acoshf(x))
OP1(Atanhf, float, float, atanhf(x))

OP1(Expf, float, float, expf(x))
OP1(Exp2f, float, float, exp2f(x))
OP1(Exp10f, float, float, exp10f(x))
OP1(Expm1f, float, float, expm1f(x))
OP1(Logf, float, float, logf(x))
OP1(Log2f, float, float, log2f(x))
OP1(Log10f, float, float, log10f(x))
OP1(Log1pf, float, float, log1pf(x))
OP2(Powf, float, float, float, powf(x, y))

OP1(Cbrtf, float, float, cbrtf(x))
OP1(Rcbrtf, float, float, rcbrtf(x))
OP1(Rsqrtf, float, float, rsqrtf(x))
OP2(Hypotf, float, float, float, hypotf(x, y))
OP2(Rhypotf, float, float, float, rhypotf(x, y))
OP3(Norm3df, float, float, float, float, norm3df(x, y, z))
OP3(Rnorm3df, float, float, float, float, rnorm3df(x, y, z))
OP3(Norm4df, float, float, float, float, norm4df(x, y, z, x - y))
OP3(Rnorm4df, float, float, float, float, rnorm4df(x, y, z, x - y))

OP1(Erff, float, float, erff(x))
OP1(Erfcf, float, float, erfcf(x))
OP1(Erfinvf, float, float, erfinvf(x))
OP1(Erfcinvf, float, float, erfcinvf(x))
OP1(Erfcxf, float, float, erfcxf(x))
OP1(Normcdff, float, float, normcdff(x))
OP1(Normcdfinvf, float, float, normcdfinvf(x))
OP1(Lgammaf, float, float, lgammaf(x))
OP1(Tgammaf, float, float, tgammaf(x))

OP1(J0f, float, float, j0f(x))
OP1(J1f, float, float, j1f(x))
OP2(Jnf, float, int, float, jnf(x, y))
OP1(Y0f, float, float, y0f(x))
OP1(Y1f, float, float, y1f(x))
OP2(Ynf, float, int, float, ynf(x, y))
OP1(I0f, float, float, cyl_bessel_i0f(x))
OP1(I1f, float, float, cyl_bessel_i1f(x))

// CUDA's float overloads in the global namespace, and C++'s.
OP1(Exp10, float, float, exp10(x))
OP1(Rsqrt, float, float, rsqrt(x))
OP1(Rcbrt, float, float, rcbrt(x))
OP1(Sinpi, float, float, sinpi(x))
OP1(Cospi, float, float, cospi(x))
OP1(Erfinv, float, float, erfinv(x))
OP1(Erfcinv, float, float, erfcinv(x))
OP1(Normcdf, float, float, normcdf(x))
OP1(Normcdfinv, float, float, normcdfinv(x))
OP1(Erfcx, float, float, erfcx(x))
OP1(J0, float, float, j0(x))
OP1(Y1, float, float, y1(x))
OP2(Jn, float, int, float, jn(x, y))
OP1(I0, float, float, cyl_bessel_i0(x))
OP1(Sin, float, float, sin(x))
OP1(Exp, float, float, exp(x))
OP1(Log, float, float, log(x))
OP2(Pow, float, float, float, pow(x, y))
OP1(Sqrt, float, float, sqrt(x))
OP1(Fabs, float, float, fabs(x))
OP2(Copysign, double, double, float, copysign(x, y))

// ---- functions that store through pointers, or read an array ------------------------
__global__ void k_sincosf(unsigned n, const float* x, float* s, float* c) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sincosf(x[i], &s[i], &c[i]);
}
__global__ void k_sincospif(unsigned n, const float* x, float* s, float* c) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sincospif(x[i], &s[i], &c[i]);
}
__global__ void k_sincos_float(unsigned n, const float* x, float* s, float* c) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sincos(x[i], &s[i], &c[i]);  // CUDA's float overload
}
__global__ void k_sincospi_float(unsigned n, const float* x, float* s, float* c) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) sincospi(x[i], &s[i], &c[i]);
}
__global__ void k_frexpf(unsigned n, const float* x, float* m, int* e) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        m[i] = frexpf(x[i], &e[i]);
        if (!isfinite(x[i])) e[i] = 0;  // unspecified for NaN
    }
}
__global__ void k_modff(unsigned n, const float* x, float* frac, float* whole) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) frac[i] = modff(x[i], &whole[i]);
}
__global__ void k_remquof(unsigned n, const float* x, const float* y, float* rem, int* quo) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) rem[i] = remquof(x[i], y[i], &quo[i]);
}
// Thread i: the norms of the vector of `dim` elements at v + 4 i.
__global__ void k_normf(unsigned n, int dim, const float* v, float* norm, float* rnorm) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        norm[i] = normf(dim, v + 4 * i);
        rnorm[i] = rnormf(dim, v + 4 * i);
    }
}

}  // namespace

CONFORMANCE_CASE(float_exact,
                 "sqrtf fmaf rintf nearbyintf ceilf floorf truncf roundf lrintf llrintf lroundf llroundf fabsf "
                 "copysignf fmodf remainderf remquof modff frexpf ldexpf scalbnf scalblnf ilogbf logbf nextafterf "
                 "fdimf fdividef nanf isfinite isinf isnan signbit") {
    const auto x = xs(), y = rotated(37), z = rotated(101);
    const auto e = exponents(x.size());
    // Table "Basic operations", "Floating-point manipulation", "Nearest
    // integer floating-point operations", "Classification": 0 ulp.
    r.exact("sqrtf(x)", map<Sqrtf, float>(x));
    r.exact("fmaf(x, y, z)", map<Fmaf, float>(x, y, z));
    r.exact("rintf(x)", map<Rintf, float>(x));
    r.exact("nearbyintf(x)", map<Nearbyintf, float>(x));
    r.exact("ceilf(x)", map<Ceilf, float>(x));
    r.exact("floorf(x)", map<Floorf, float>(x));
    r.exact("truncf(x)", map<Truncf, float>(x));
    r.exact("roundf(x)", map<Roundf, float>(x));
    // Out of the result type's range the behaviour is undefined: only |x| < 2^62.
    const auto in_range = pick(x, where(x, [](float v) { return std::fabs(v) < 0x1p62f; }));
    r.exact("lrintf(x)", map<Lrintf, long long>(in_range));
    r.exact("llrintf(x)", map<Llrintf, long long>(in_range));
    r.exact("lroundf(x)", map<Lroundf, long long>(in_range));
    r.exact("llroundf(x)", map<Llroundf, long long>(in_range));
    r.exact("fabsf(x)", map<Fabsf, float>(x));
    r.exact("copysignf(x, y)", map<Copysignf, float>(x, y));
    r.exact("fmodf(x, y)", map<Fmodf, float>(x, y));
    r.exact("remainderf(x, y)", map<Remainderf, float>(x, y));
    r.exact("ldexpf(x, e)", map<Ldexpf, float>(x, e));
    r.exact("scalbnf(x, e)", map<Scalbnf, float>(x, e));
    r.exact("scalblnf(x, e)", map<Scalblnf, float>(x, e));
    r.exact("ilogbf(x)", map<Ilogbf, int>(x));
    r.exact("logbf(x)", map<Logbf, float>(x));
    r.exact("nextafterf(x, y)", map<Nextafterf, float>(x, y));
    r.exact("fdimf(x, y)", map<Fdimf, float>(x, y));
    // Table "Non-standard CUDA mathematical functions": fdividef 0 ulp, as x / y.
    r.exact("fdividef(x, y)", map<Fdividef, float>(x, y));
    r.exact("x / y", map<Divide, float>(x, y));
    r.exact("nanf is a NaN", map<Isnan, int>(map<Nanf, float>(x)));
    r.exact("isfinite(x)", map<Isfinite, int>(x));
    r.exact("isinf(x)", map<Isinf, int>(x));
    r.exact("isnan(x)", map<Isnan, int>(x));
    r.exact("signbit(x)", map<Signbit, int>(x));

    const unsigned n = static_cast<unsigned>(x.size());
    conformance::Buffer<float> d_x(x), d_y(y), a(n), b(n);
    conformance::Buffer<int> q(n);
    k_frexpf<<<conformance::blocks(n), 256>>>(n, d_x, a, q);
    r.exact("frexpf(x, &e)", a.get());
    r.exact("frexpf's e", q.get());
    k_modff<<<conformance::blocks(n), 256>>>(n, d_x, a, b);
    r.exact("modff(x, &i)", a.get());
    r.exact("modff's i", b.get());
    k_remquof<<<conformance::blocks(n), 256>>>(n, d_x, d_y, a, q);
    r.exact("remquof(x, y, &q)", a.get());
    r.exact("remquof's q", q.get());
}

CONFORMANCE_CASE(float_trigonometric, "sinf cosf tanf sincosf asinf acosf atanf atan2f sinpif cospif sincospif") {
    const auto x = xs(), y = rotated(53);
    r.ulps("sinf(x)", map<Sinf, float>(x), 2);    // Table "Trigonometric functions": sinf 2 ulp
    r.ulps("cosf(x)", map<Cosf, float>(x), 2);    // cosf 2 ulp
    r.ulps("tanf(x)", map<Tanf, float>(x), 4);    // tanf 4 ulp
    r.ulps("asinf(x)", map<Asinf, float>(x), 2);  // asinf 2 ulp
    r.ulps("acosf(x)", map<Acosf, float>(x), 2);  // acosf 2 ulp
    r.ulps("atanf(x)", map<Atanf, float>(x), 2);  // atanf 2 ulp
    r.ulps("atan2f(x, y)", map<Atan2f, float>(x, y), 3);  // atan2f 3 ulp
    // Table "Non-standard CUDA mathematical functions": sinpif, cospif, sincospif 1 ulp.
    r.ulps("sinpif(x)", map<Sinpif, float>(x), 1);
    r.ulps("cospif(x)", map<Cospif, float>(x), 1);

    const unsigned n = static_cast<unsigned>(x.size());
    conformance::Buffer<float> d_x(x), s(n), c(n);
    k_sincosf<<<conformance::blocks(n), 256>>>(n, d_x, s, c);
    r.ulps("sincosf's sine", s.get(), 2);  // sincosf: sinf's and cosf's bounds, 2 ulp
    r.ulps("sincosf's cosine", c.get(), 2);
    k_sincospif<<<conformance::blocks(n), 256>>>(n, d_x, s, c);
    r.ulps("sincospif's sine", s.get(), 1);  // sincospif 1 ulp
    r.ulps("sincospif's cosine", c.get(), 1);
}

CONFORMANCE_CASE(float_hyperbolic, "sinhf coshf tanhf asinhf acoshf atanhf") {
    const auto x = xs();
    // Table "Hyperbolic functions".
    r.ulps("sinhf(x)", map<Sinhf, float>(x), 3);    // sinhf 3 ulp
    r.ulps("coshf(x)", map<Coshf, float>(x), 2);    // coshf 2 ulp
    r.ulps("tanhf(x)", map<Tanhf, float>(x), 2);    // tanhf 2 ulp
    r.ulps("asinhf(x)", map<Asinhf, float>(x), 3);  // asinhf 3 ulp
    r.ulps("acoshf(x)", map<Acoshf, float>(x), 4);  // acoshf 4 ulp
    r.ulps("atanhf(x)", map<Atanhf, float>(x), 3);  // atanhf 3 ulp
    r.ulps("atanhf(u), u in (-1, 1)", map<Atanhf, float>(affine(unit_inputs(), 2.0f, -1.0f)), 3);
}

CONFORMANCE_CASE(float_exponential, "expf exp2f exp10f expm1f logf log2f log10f log1pf powf") {
    const auto x = xs(), y = rotated(71);
    // Tables "Exponential functions" and "Power functions".
    r.ulps("expf(x)", map<Expf, float>(x), 2);      // expf 2 ulp
    r.ulps("exp2f(x)", map<Exp2f, float>(x), 2);    // exp2f 2 ulp
    r.ulps("exp10f(x)", map<Exp10f, float>(x), 2);  // exp10f 2 ulp (non-standard functions' table)
    r.ulps("expm1f(x)", map<Expm1f, float>(x), 1);  // expm1f 1 ulp
    r.ulps("logf(x)", map<Logf, float>(x), 1);      // logf 1 ulp
    r.ulps("log2f(x)", map<Log2f, float>(x), 1);    // log2f 1 ulp
    r.ulps("log10f(x)", map<Log10f, float>(x), 2);  // log10f 2 ulp
    r.ulps("log1pf(x)", map<Log1pf, float>(x), 1);  // log1pf 1 ulp
    r.ulps("powf(x, y)", map<Powf, float>(x, y), 4);  // powf 4 ulp
    const auto small = affine(y, 0.5f, 0.0f);
    r.ulps("powf(|x|, y / 2)", map<Powf, float>(map<Fabsf, float>(x), small), 4);
}

CONFORMANCE_CASE(float_roots_and_norms,
                 "cbrtf rcbrtf rsqrtf hypotf rhypotf norm3df rnorm3df norm4df rnorm4df normf rnormf") {
    const auto x = xs(), y = rotated(29), z = rotated(83);
    r.ulps("cbrtf(x)", map<Cbrtf, float>(x), 1);    // Table "Power functions": cbrtf 1 ulp
    r.ulps("rcbrtf(x)", map<Rcbrtf, float>(x), 1);  // non-standard functions: rcbrtf 1 ulp
    r.ulps("rsqrtf(x)", map<Rsqrtf, float>(x), 2);  // rsqrtf 2 ulp
    r.ulps("hypotf(x, y)", map<Hypotf, float>(x, y), 3);    // hypotf 3 ulp
    r.ulps("rhypotf(x, y)", map<Rhypotf, float>(x, y), 2);  // rhypotf 2 ulp
    r.ulps("norm3df(x, y, z)", map<Norm3df, float>(x, y, z), 3);    // norm3df 3 ulp
    r.ulps("rnorm3df(x, y, z)", map<Rnorm3df, float>(x, y, z), 2);  // rnorm3df 2 ulp
    r.ulps("norm4df(x, y, z, x - y)", map<Norm4df, float>(x, y, z), 3);    // norm4df 3 ulp
    r.ulps("rnorm4df(x, y, z, x - y)", map<Rnorm4df, float>(x, y, z), 2);  // rnorm4df 2 ulp

    // normf and rnormf read their vector from device memory: 64 vectors of 4
    // of the inputs, some with an infinity or a NaN. The table gives no bound
    // ("a fast algorithm is used with accuracy loss due to round-off"); nvcc's
    // code scales by a power of 2, sums the squares with FMAs and takes
    // sqrt.rn or rsqrt.approx: for 4 elements at most 2 ulp from the sum and
    // 2 from the root, so 5 ulp allowed here.
    std::vector<float> v;
    for (std::size_t i = 40; v.size() < 256; ++i) v.push_back(x[i % x.size()]);
    v[4 * 7 + 1] = INFINITY;
    v[4 * 9 + 2] = NAN;
    v[4 * 11 + 0] = INFINITY;
    v[4 * 11 + 3] = NAN;
    const unsigned n = 64;
    conformance::Buffer<float> d_v(v), norm(n), rnorm(n);
    for (int dim : {1, 3, 4}) {
        k_normf<<<1, n>>>(n, dim, d_v, norm, rnorm);
        r.ulps("normf(" + std::to_string(dim) + ", v)", norm.get(), 5);
        r.ulps("rnormf(" + std::to_string(dim) + ", v)", rnorm.get(), 5);
    }
}

CONFORMANCE_CASE(float_error_and_gamma,
                 "erff erfcf erfinvf erfcinvf erfcxf normcdff normcdfinvf lgammaf tgammaf") {
    const auto x = xs(), u = unit_inputs();
    // Table "Error and gamma functions".
    r.ulps("erff(x)", map<Erff, float>(x), 2);    // erff 2 ulp
    r.ulps("erfcf(x)", map<Erfcf, float>(x), 4);  // erfcf 4 ulp
    r.ulps("tgammaf(x)", map<Tgammaf, float>(x), 5);  // tgammaf 5 ulp
    // lgammaf 6 ulp outside [-10.001, -2.264], larger inside (not compared there).
    const auto lg = where(x, [](float v) { return !(v >= -10.001f && v <= -2.264f); });
    r.ulps("lgammaf(x), x outside [-10.001, -2.264]", pick(map<Lgammaf, float>(x), lg), 6);
    // Table "Non-standard CUDA mathematical functions".
    r.ulps("erfinvf(x)", map<Erfinvf, float>(x), 2);                                // erfinvf 2 ulp
    r.ulps("erfinvf(2u - 1)", map<Erfinvf, float>(affine(u, 2.0f, -1.0f)), 2);
    r.ulps("erfcinvf(x)", map<Erfcinvf, float>(x), 4);                              // erfcinvf 4 ulp
    r.ulps("erfcinvf(2u)", map<Erfcinvf, float>(affine(u, 2.0f, 0.0f)), 4);
    r.ulps("erfcxf(x)", map<Erfcxf, float>(x), 4);                                  // erfcxf 4 ulp
    r.ulps("normcdff(x)", map<Normcdff, float>(x), 5);                              // normcdff 5 ulp
    r.ulps("normcdfinvf(u)", map<Normcdfinvf, float>(u), 5);                        // normcdfinvf 5 ulp
    r.ulps("normcdfinvf(x)", map<Normcdfinvf, float>(x), 5);
}

CONFORMANCE_CASE(float_bessel, "j0f j1f jnf y0f y1f ynf cyl_bessel_i0f cyl_bessel_i1f") {
    const auto x = xs();
    const auto n = orders(x.size());
    // Table "Non-standard CUDA mathematical functions": j0f, j1f, y0f, y1f
    // 9 ulp for |x| < 8, else an absolute error of 2.2e-6.
    const auto near = where(x, [](float v) { return std::fabs(v) < 8; }), far = negated(near);
    const auto j0 = map<J0f, float>(x), j1 = map<J1f, float>(x), y0 = map<Y0f, float>(x), y1 = map<Y1f, float>(x);
    r.ulps("j0f(x), |x| < 8", pick(j0, near), 9);
    r.absolute("j0f(x), |x| >= 8", pick(j0, far), 2.2e-6);
    r.ulps("j1f(x), |x| < 8", pick(j1, near), 9);
    r.absolute("j1f(x), |x| >= 8", pick(j1, far), 2.2e-6);
    r.ulps("y0f(x), |x| < 8", pick(y0, near), 9);
    r.absolute("y0f(x), |x| >= 8", pick(y0, far), 2.2e-6);
    r.ulps("y1f(x), |x| < 8", pick(y1, near), 9);
    r.absolute("y1f(x), |x| >= 8", pick(y1, far), 2.2e-6);
    // jnf: an absolute error of 2.2e-6 (given for n = 128); NaN for n < 0.
    // Not for |x| below 1e-10 with n > 3, where the H100 gave NaN for an
    // underflowing 0 (jn(13, 1e-100), jn(20, -2.1e-20), jn(128, -8.9e-17)):
    // outside any region the docs bound.
    const auto ordinary = [&](std::size_t i) { return !(std::fabs(x[i]) < 1e-10 && x[i] != 0 && n[i] > 3); };
    std::vector<bool> bounded(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) bounded[i] = ordinary(i);
    r.absolute("jnf(n, x)", pick(map<Jnf, float>(n, x), bounded), 2.2e-6);
    // ynf: ceil(2 + 2.5 n) ulp for |x| < n (n <= 13 here: 35 ulp), else an
    // absolute error of 2.2e-6; NaN for n < 0.
    const auto yn = map<Ynf, float>(n, x);
    std::vector<bool> below(x.size()), beyond(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        below[i] = n[i] > 0 && n[i] <= 13 && std::fabs(x[i]) < n[i];
        beyond[i] = !(n[i] > 0 && std::fabs(x[i]) < n[i]);
    }
    r.ulps("ynf(n, x), |x| < n <= 13", pick(yn, below), 35);
    r.absolute("ynf(n, x), |x| >= n", pick(yn, beyond), 2.2e-6);
    r.ulps("cyl_bessel_i0f(x)", map<I0f, float>(x), 6);  // cyl_bessel_i0f 6 ulp
    r.ulps("cyl_bessel_i1f(x)", map<I1f, float>(x), 6);  // cyl_bessel_i1f 6 ulp
}

// CUDA's overloads of its own functions for float (crt/math_functions.hpp),
// and C++'s of the C library's (std::sin(float), ...), which the global
// namespace has: the float versions, within the float functions' bounds.
CONFORMANCE_CASE(float_overloads,
                 "exp10 rsqrt rcbrt sinpi cospi sincospi sincos erfinv erfcinv normcdf normcdfinv erfcx j0 y1 jn "
                 "cyl_bessel_i0 sin exp log pow sqrt fabs copysign") {
    const auto x = xs(), y = rotated(71), u = unit_inputs();
    const auto n = orders(x.size());
    r.ulps("exp10(float)", map<Exp10, float>(x), 2);           // as exp10f: 2 ulp
    r.ulps("rsqrt(float)", map<Rsqrt, float>(x), 2);           // rsqrtf: 2 ulp
    r.ulps("rcbrt(float)", map<Rcbrt, float>(x), 1);           // rcbrtf: 1 ulp
    r.ulps("sinpi(float)", map<Sinpi, float>(x), 1);           // sinpif: 1 ulp
    r.ulps("cospi(float)", map<Cospi, float>(x), 1);           // cospif: 1 ulp
    r.ulps("erfinv(float)", map<Erfinv, float>(affine(u, 2.0f, -1.0f)), 2);  // erfinvf: 2 ulp
    r.ulps("erfcinv(float)", map<Erfcinv, float>(affine(u, 2.0f, 0.0f)), 4); // erfcinvf: 4 ulp
    r.ulps("normcdf(float)", map<Normcdf, float>(x), 5);       // normcdff: 5 ulp
    r.ulps("normcdfinv(float)", map<Normcdfinv, float>(u), 5); // normcdfinvf: 5 ulp
    r.ulps("erfcx(float)", map<Erfcx, float>(x), 4);           // erfcxf: 4 ulp
    const auto near = where(x, [](float v) { return std::fabs(v) < 8; });
    r.ulps("j0(float), |x| < 8", pick(map<J0, float>(x), near), 9);  // j0f: 9 ulp for |x| < 8
    r.ulps("y1(float), |x| < 8", pick(map<Y1, float>(x), near), 9);  // y1f: 9 ulp for |x| < 8
    std::vector<bool> jn_bounded(x.size());  // as jnf's, below
    for (std::size_t i = 0; i < x.size(); ++i) jn_bounded[i] = !(std::fabs(x[i]) < 1e-10f && x[i] != 0 && n[i] > 3);
    r.absolute("jn(int, float)", pick(map<Jn, float>(n, x), jn_bounded), 2.2e-6);  // jnf: 2.2e-6 absolute
    r.ulps("cyl_bessel_i0(float)", map<I0, float>(x), 6);            // cyl_bessel_i0f: 6 ulp
    r.ulps("sin(float)", map<Sin, float>(x), 2);               // sinf: 2 ulp
    r.ulps("exp(float)", map<Exp, float>(x), 2);               // expf: 2 ulp
    r.ulps("log(float)", map<Log, float>(x), 1);               // logf: 1 ulp
    r.ulps("pow(float, float)", map<Pow, float>(x, y), 4);     // powf: 4 ulp
    r.exact("sqrt(float)", map<Sqrt, float>(x));               // sqrtf: 0 ulp
    r.exact("fabs(float)", map<Fabs, float>(x));
    r.exact("copysign(double, float)", map<Copysign, double>(std::vector<double>(x.begin(), x.end()), y));

    const unsigned count = static_cast<unsigned>(x.size());
    conformance::Buffer<float> d_x(x), s(count), c(count);
    k_sincos_float<<<conformance::blocks(count), 256>>>(count, d_x, s, c);
    r.ulps("sincos(float)'s sine", s.get(), 2);  // sincosf: 2 ulp
    r.ulps("sincos(float)'s cosine", c.get(), 2);
    k_sincospi_float<<<conformance::blocks(count), 256>>>(count, d_x, s, c);
    r.ulps("sincospi(float)'s sine", s.get(), 1);  // sincospif: 1 ulp
    r.ulps("sincospi(float)'s cosine", c.get(), 1);
}
