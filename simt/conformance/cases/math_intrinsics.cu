// CUDA's single- and double-precision intrinsics and its type-conversion
// intrinsics. The directed roundings (_rn, _rz, _ru, _rd), __frsqrt_rn and
// the conversions are exact (IEEE-754 operations; PTX's cvt clamps to an
// integer type's range and turns a NaN into 0, or into 1 << (bits - 1) from
// double or to a 64-bit type). The fast functions (__sinf, __expf, ...) are
// compared within the bounds of the CUDA C++ Programming Guide's table
// "Single-precision-only intrinsic functions" (CUDA 13), on the inputs the
// table gives them for. Each kernel makes one call per element: nvcc's FMA
// contraction (g++ does not contract) changes nothing here.
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
std::vector<float> fx() { return conformance::f32_inputs(); }
template <typename T>
std::vector<T> rotated(const std::vector<T>& v, std::size_t by) {
    std::vector<T> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[(i + by) % v.size()];
    return out;
}
template <typename T>
std::vector<T> pick(const std::vector<T>& v, const std::vector<bool>& keep) {
    std::vector<T> out;
    for (std::size_t i = 0; i < v.size(); ++i)
        if (keep[i]) out.push_back(v[i]);
    return out;
}
template <typename T, typename P>
std::vector<T> keep_if(const std::vector<T>& v, P pred) {
    std::vector<T> out;
    for (T x : v)
        if (pred(x)) out.push_back(x);
    return out;
}
template <typename To, typename From>
std::vector<To> cast(const std::vector<From>& v) {
    std::vector<To> out;
    for (From x : v) out.push_back(static_cast<To>(x));
    return out;
}
// Values the conversions meet at their edges, then the suite's inputs.
std::vector<float> float_conversion_inputs() {
    std::vector<float> v = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 0.49999997f, -0.49999997f, 2147483520.0f,
                            2147483648.0f, -2147483648.0f, -2147483904.0f, 4294967040.0f, 4294967296.0f,
                            9223371487098961920.0f, 9223372036854775808.0f, -9223372036854775808.0f,
                            18446742974197923840.0f, 18446744073709551616.0f, -1.0f, -0.99f};
    for (float x : fx()) v.push_back(x);
    return v;
}
std::vector<double> double_conversion_inputs() {
    std::vector<double> v = {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999999999999994, 2147483647.0, 2147483647.5,
                             2147483648.0, -2147483648.0, -2147483648.5, -2147483649.0, 4294967295.0, 4294967295.5,
                             4294967296.0, 9223372036854774784.0, 9223372036854775808.0, -9223372036854775808.0,
                             -9223372036854777856.0, 18446744073709549568.0, 18446744073709551616.0, -1.0, -0.75,
                             3.4028235677973366e38, 3.4028235677973362e38, 1e-46, 7e-46, 1.1754942e-38};
    for (double x : conformance::f64_inputs()) v.push_back(x);
    return v;
}
std::vector<long long> integer_inputs() {
    std::vector<long long> v;
    for (unsigned long long x : conformance::u64_inputs()) v.push_back(static_cast<long long>(x));
    for (int x : conformance::i32_inputs()) v.push_back(x);
    for (long long x : {16777217ll, -16777217ll, 16777219ll, 9007199254740993ll, -9007199254740993ll,
                        (1ll << 62) + 1, -(1ll << 62) - 1})
        v.push_back(x);
    return v;
}

// ---- operations ------------------------------------------------------------------
#define ROUNDED2(stem, T)                                         \
    OP2(stem##_rn_op, T, T, T, stem##_rn(x, y))                   \
    OP2(stem##_rz_op, T, T, T, stem##_rz(x, y))                   \
    OP2(stem##_ru_op, T, T, T, stem##_ru(x, y))                   \
    OP2(stem##_rd_op, T, T, T, stem##_rd(x, y))
#define ROUNDED1(stem, T)                                         \
    OP1(stem##_rn_op, T, T, stem##_rn(x))                         \
    OP1(stem##_rz_op, T, T, stem##_rz(x))                         \
    OP1(stem##_ru_op, T, T, stem##_ru(x))                         \
    OP1(stem##_rd_op, T, T, stem##_rd(x))
#define ROUNDED3(stem, T)                                         \
    OP3(stem##_rn_op, T, T, T, T, stem##_rn(x, y, z))             \
    OP3(stem##_rz_op, T, T, T, T, stem##_rz(x, y, z))             \
    OP3(stem##_ru_op, T, T, T, T, stem##_ru(x, y, z))             \
    OP3(stem##_rd_op, T, T, T, T, stem##_rd(x, y, z))
#define CONVERT(stem, R, T)                                       \
    OP1(stem##_rn_op, R, T, stem##_rn(x))                         \
    OP1(stem##_rz_op, R, T, stem##_rz(x))                         \
    OP1(stem##_ru_op, R, T, stem##_ru(x))                         \
    OP1(stem##_rd_op, R, T, stem##_rd(x))

ROUNDED2(__fadd, float)
ROUNDED2(__fsub, float)
ROUNDED2(__fmul, float)
ROUNDED2(__fdiv, float)
ROUNDED3(__fmaf, float)
ROUNDED3(__fmaf_ieee, float)
ROUNDED1(__frcp, float)
ROUNDED1(__fsqrt, float)
OP1(Frsqrt_rn, float, float, __frsqrt_rn(x))
ROUNDED2(__dadd, double)
ROUNDED2(__dsub, double)
ROUNDED2(__dmul, double)
ROUNDED2(__ddiv, double)
ROUNDED3(__fma, double)
ROUNDED1(__drcp, double)
ROUNDED1(__dsqrt, double)

OP2(Fdividef, float, float, float, __fdividef(x, y))
OP1(Saturatef, float, float, __saturatef(x))
OP1(Sinf_fast, float, float, __sinf(x))
OP1(Cosf_fast, float, float, __cosf(x))
OP1(Tanf_fast, float, float, __tanf(x))
OP1(Expf_fast, float, float, __expf(x))
OP1(Exp10f_fast, float, float, __exp10f(x))
OP1(Logf_fast, float, float, __logf(x))
OP1(Log2f_fast, float, float, __log2f(x))
OP1(Log10f_fast, float, float, __log10f(x))
OP2(Powf_fast, float, float, float, __powf(x, y))
OP1(Tanhf_fast, float, float, __tanhf(x))

CONVERT(__double2float, float, double)
CONVERT(__double2int, int, double)
CONVERT(__double2uint, unsigned, double)
CONVERT(__double2ll, long long, double)
CONVERT(__double2ull, unsigned long long, double)
CONVERT(__float2int, int, float)
CONVERT(__float2uint, unsigned, float)
CONVERT(__float2ll, long long, float)
CONVERT(__float2ull, unsigned long long, float)
CONVERT(__int2float, float, int)
CONVERT(__uint2float, float, unsigned)
CONVERT(__ll2float, float, long long)
CONVERT(__ull2float, float, unsigned long long)
CONVERT(__ll2double, double, long long)
CONVERT(__ull2double, double, unsigned long long)
OP1(Int2double, double, int, __int2double_rn(x))
OP1(Uint2double, double, unsigned, __uint2double_rn(x))
OP1(IntAsFloat, float, int, __int_as_float(x))
OP1(FloatAsInt, int, float, __float_as_int(x))
OP1(UintAsFloat, float, unsigned, __uint_as_float(x))
OP1(FloatAsUint, unsigned, float, __float_as_uint(x))
OP1(LonglongAsDouble, double, long long, __longlong_as_double(x))
OP1(DoubleAsLonglong, long long, double, __double_as_longlong(x))
OP1(Double2hiint, int, double, __double2hiint(x))
OP1(Double2loint, int, double, __double2loint(x))
OP2(Hiloint2double, double, int, int, __hiloint2double(x, y))

__global__ void k_sincosf_fast(unsigned n, const float* x, float* s, float* c) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) __sincosf(x[i], &s[i], &c[i]);
}

}  // namespace

#define RECORD4(label, stem, R, ...)                                          \
    r.exact(label "_rn", map<stem##_rn_op, R>(__VA_ARGS__));                  \
    r.exact(label "_rz", map<stem##_rz_op, R>(__VA_ARGS__));                  \
    r.exact(label "_ru", map<stem##_ru_op, R>(__VA_ARGS__));                  \
    r.exact(label "_rd", map<stem##_rd_op, R>(__VA_ARGS__))

CONFORMANCE_CASE(float_rounded_arithmetic,
                 "__fadd_rn __fadd_rz __fadd_ru __fadd_rd __fsub_rn __fsub_rz __fsub_ru __fsub_rd __fmul_rn __fmul_rz "
                 "__fmul_ru __fmul_rd __fdiv_rn __fdiv_rz __fdiv_ru __fdiv_rd __fmaf_rn __fmaf_rz __fmaf_ru __fmaf_rd "
                 "__fmaf_ieee_rn __fmaf_ieee_rz __fmaf_ieee_ru __fmaf_ieee_rd __frcp_rn __frcp_rz __frcp_ru __frcp_rd "
                 "__fsqrt_rn __fsqrt_rz __fsqrt_ru __fsqrt_rd __frsqrt_rn") {
    // Table "Basic intrinsic functions": 0 ulp, IEEE-754 in each rounding mode; __frsqrt_rn 0 ulp.
    const auto x = fx(), y = rotated(x, 37), z = rotated(x, 113);
    RECORD4("__fadd", __fadd, float, x, y);
    RECORD4("__fsub", __fsub, float, x, y);
    RECORD4("__fmul", __fmul, float, x, y);
    RECORD4("__fdiv", __fdiv, float, x, y);
    RECORD4("__fmaf", __fmaf, float, x, y, z);
    RECORD4("__fmaf_ieee", __fmaf_ieee, float, x, y, z);
    RECORD4("__frcp", __frcp, float, x);
    RECORD4("__fsqrt", __fsqrt, float, x);
    r.exact("__frsqrt_rn", map<Frsqrt_rn, float>(x));
}

CONFORMANCE_CASE(double_rounded_arithmetic,
                 "__dadd_rn __dadd_rz __dadd_ru __dadd_rd __dsub_rn __dsub_rz __dsub_ru __dsub_rd __dmul_rn __dmul_rz "
                 "__dmul_ru __dmul_rd __ddiv_rn __ddiv_rz __ddiv_ru __ddiv_rd __fma_rn __fma_rz __fma_ru __fma_rd "
                 "__drcp_rn __drcp_rz __drcp_ru __drcp_rd __dsqrt_rn __dsqrt_rz __dsqrt_ru __dsqrt_rd") {
    // Table "Basic intrinsic functions": 0 ulp, IEEE-754 in each rounding mode.
    const auto x = conformance::f64_inputs(), y = rotated(x, 37), z = rotated(x, 113);
    RECORD4("__dadd", __dadd, double, x, y);
    RECORD4("__dsub", __dsub, double, x, y);
    RECORD4("__dmul", __dmul, double, x, y);
    RECORD4("__ddiv", __ddiv, double, x, y);
    RECORD4("__fma", __fma, double, x, y, z);
    RECORD4("__drcp", __drcp, double, x);
    RECORD4("__dsqrt", __dsqrt, double, x);
}

CONFORMANCE_CASE(float_fast_intrinsics,
                 "__fdividef __saturatef __sinf __cosf __tanf __sincosf __expf __exp10f __logf __log2f __log10f __powf "
                 "__tanhf") {
    const auto x = fx(), y = rotated(x, 59);
    // Table "Single-precision-only intrinsic functions" (CUDA 13):
    // __fdividef 2 ulp for |y| in [2^-126, 2^126]; 0 for 2^126 < |y| < 2^128
    // (NaN for an infinite x; the sign of that 0 is not compared).
    std::vector<bool> mid, huge;
    for (float v : y) {
        mid.push_back(std::fabs(v) >= 0x1p-126f && std::fabs(v) <= 0x1p126f);
        huge.push_back(std::fabs(v) > 0x1p126f && std::fabs(v) < INFINITY);
    }
    const auto q = map<Fdividef, float>(x, y);
    r.ulps("__fdividef(x, y), |y| in [2^-126, 2^126]", pick(q, mid), 2);
    r.ulps("__fdividef(x, y), 2^126 < |y| < 2^128", pick(q, huge), 0);
    r.exact("__saturatef(x)", map<Saturatef, float>(x));  // cvt.sat: exact, a NaN and -0 to +0

    // On [-pi, pi] (larger outside) __sinf's absolute error is at most
    // 2^-21.41, __cosf's 2^-21.19 (the Programming Guide's table of intrinsic
    // functions; the H100 was 4.02e-7 off the emulator's __cosf at one input,
    // more than 2^-21.41).
    const auto turn = keep_if(x, [](float v) { return std::fabs(v) <= 3.14159f; });
    r.absolute("__sinf(x), x in [-pi, pi]", map<Sinf_fast, float>(turn), 3.5888e-7);  // 2^-21.41
    r.absolute("__cosf(x), x in [-pi, pi]", map<Cosf_fast, float>(turn), 4.1637e-7);  // 2^-21.19
    const unsigned n = static_cast<unsigned>(turn.size());
    conformance::Buffer<float> d_turn(turn), s(n), c(n);
    k_sincosf_fast<<<conformance::blocks(n), 256>>>(n, d_turn, s, c);
    r.absolute("__sincosf's sine", s.get(), 3.5888e-7);  // as __sinf's: 2^-21.41
    r.absolute("__sincosf's cosine", c.get(), 4.1637e-7);  // as __cosf's: 2^-21.19
    // __tanf: "derived from __sinf(x) * (1 / __cosf(x))" (no figure). On
    // [-pi/4, pi/4] (cos >= 0.707) the two 2^-21.41 errors give at most
    // 2^-21.41 * (1/0.707 + 0.707/0.5) = 1.02e-6, and the division's 2 ulp
    // 2.4e-7: 1.5e-6 allowed.
    const auto eighth = keep_if(x, [](float v) { return std::fabs(v) <= 0.785f; });
    r.absolute("__tanf(x), |x| <= pi/4", map<Tanf_fast, float>(eighth), 1.5e-6);

    // __expf: 2 + floor(|1.173 x|) ulp; __exp10f: 2 + floor(|2.97 x|) ulp: for |x| <= 10, 13 and 31 ulp.
    const auto ten = keep_if(x, [](float v) { return std::fabs(v) <= 10; });
    r.ulps("__expf(x), |x| <= 10", map<Expf_fast, float>(ten), 13);
    r.ulps("__exp10f(x), |x| <= 10", map<Exp10f_fast, float>(ten), 31);

    // __logf: 2^-21.41 absolute for x in [0.5, 2], else 3 ulp; __log2f:
    // 2^-22 absolute, else 2 ulp; __log10f: 2^-24 absolute, else 3 ulp.
    // Outside [0.5, 2]: the positive normal inputs; zeros, infinities,
    // negative normal values and NaN are exact (PTX's table for lg2.approx).
    const auto unit = keep_if(x, [](float v) { return v >= 0.5f && v <= 2; });
    const auto rest = keep_if(x, [](float v) { return std::isnormal(v) && v > 0 && !(v >= 0.5f && v <= 2); });
    const std::vector<float> special = {0.0f, -0.0f, INFINITY, -INFINITY, -1.0f, -3e20f, NAN};
    r.absolute("__logf(x), x in [0.5, 2]", map<Logf_fast, float>(unit), 3.5888e-7);  // 2^-21.41
    r.ulps("__logf(x), other x > 0", map<Logf_fast, float>(rest), 3);
    r.exact("__logf(special)", map<Logf_fast, float>(special));
    r.absolute("__log2f(x), x in [0.5, 2]", map<Log2f_fast, float>(unit), 2.3842e-7);  // 2^-22
    r.ulps("__log2f(x), other x > 0", map<Log2f_fast, float>(rest), 2);
    r.exact("__log2f(special)", map<Log2f_fast, float>(special));
    r.absolute("__log10f(x), x in [0.5, 2]", map<Log10f_fast, float>(unit), 5.9605e-8);  // 2^-24
    r.ulps("__log10f(x), other x > 0", map<Log10f_fast, float>(rest), 3);
    r.exact("__log10f(special)", map<Log10f_fast, float>(special));

    // __powf(x, y) = ex2.approx(y * __log2f(x)) (no figure). For x in
    // [1/16, 16] and |y| <= 2, so |y log2 x| <= 8: __log2f's error (2^-22
    // absolute, or 2 ulp of |log2 x| <= 4) times |y| and the product's
    // rounding move the exponent by at most 3.4e-6, the result by
    // ln 2 * 3.4e-6 relative (39 ulp), and ex2.approx adds 2: 42 ulp allowed.
    std::vector<float> px, py;
    for (std::size_t i = 50; i < 200 && i < x.size(); ++i) {  // the pseudo-random inputs, in [-10, 10)
        const float frac = std::fabs(x[i]) - std::floor(std::fabs(x[i]));
        px.push_back(std::ldexp(1.0f + frac, static_cast<int>(i % 8) - 4));
        py.push_back(x[(i + 17) % 150 + 50] / 5);
    }
    r.ulps("__powf(x, y), x in [1/16, 16], |y| <= 2", map<Powf_fast, float>(px, py), 42);

    // __tanhf: a relative error of 2^-11, at most 2^13 ulp.
    r.ulps("__tanhf(x)", map<Tanhf_fast, float>(x), 8192);
}

#define CONVERT4(label, stem, R, in)                                           \
    r.exact(label "_rn", map<stem##_rn_op, R>(in));                            \
    r.exact(label "_rz", map<stem##_rz_op, R>(in));                            \
    r.exact(label "_ru", map<stem##_ru_op, R>(in));                            \
    r.exact(label "_rd", map<stem##_rd_op, R>(in))

CONFORMANCE_CASE(conversions,
                 "__double2float_rn __double2float_rz __double2float_ru __double2float_rd __double2int_rn "
                 "__double2int_rz __double2int_ru __double2int_rd __double2uint_rn __double2uint_rz __double2uint_ru "
                 "__double2uint_rd __double2ll_rn __double2ll_rz __double2ll_ru __double2ll_rd __double2ull_rn "
                 "__double2ull_rz __double2ull_ru __double2ull_rd __float2int_rn __float2int_rz __float2int_ru "
                 "__float2int_rd __float2uint_rn __float2uint_rz __float2uint_ru __float2uint_rd __float2ll_rn "
                 "__float2ll_rz __float2ll_ru __float2ll_rd __float2ull_rn __float2ull_rz __float2ull_ru "
                 "__float2ull_rd __int2float_rn __int2float_rz __int2float_ru __int2float_rd __uint2float_rn "
                 "__uint2float_rz __uint2float_ru __uint2float_rd __ll2float_rn __ll2float_rz __ll2float_ru "
                 "__ll2float_rd __ull2float_rn __ull2float_rz __ull2float_ru __ull2float_rd __ll2double_rn "
                 "__ll2double_rz __ll2double_ru __ll2double_rd __ull2double_rn __ull2double_rz __ull2double_ru "
                 "__ull2double_rd __int2double_rn __uint2double_rn __int_as_float __float_as_int __uint_as_float "
                 "__float_as_uint __longlong_as_double __double_as_longlong __double2hiint __double2loint "
                 "__hiloint2double") {
    // Table "Type casting intrinsics": exact; to an integer clamped to its
    // range, a NaN to 0 (float to 32 bits) or 1 << (bits - 1) (PTX's cvt).
    const auto f = float_conversion_inputs();
    const auto d = double_conversion_inputs();
    const auto ll = integer_inputs();
    const auto i = cast<int>(ll);
    const auto u = cast<unsigned>(ll);
    const auto ull = cast<unsigned long long>(ll);
    CONVERT4("__double2float", __double2float, float, d);
    CONVERT4("__double2int", __double2int, int, d);
    CONVERT4("__double2uint", __double2uint, unsigned, d);
    CONVERT4("__double2ll", __double2ll, long long, d);
    CONVERT4("__double2ull", __double2ull, unsigned long long, d);
    CONVERT4("__float2int", __float2int, int, f);
    CONVERT4("__float2uint", __float2uint, unsigned, f);
    CONVERT4("__float2ll", __float2ll, long long, f);
    CONVERT4("__float2ull", __float2ull, unsigned long long, f);
    CONVERT4("__int2float", __int2float, float, i);
    CONVERT4("__uint2float", __uint2float, float, u);
    CONVERT4("__ll2float", __ll2float, float, ll);
    CONVERT4("__ull2float", __ull2float, float, ull);
    CONVERT4("__ll2double", __ll2double, double, ll);
    CONVERT4("__ull2double", __ull2double, double, ull);
    r.exact("__int2double_rn", map<Int2double, double>(i));
    r.exact("__uint2double_rn", map<Uint2double, double>(u));
    r.exact("__int_as_float", map<IntAsFloat, float>(i));
    r.exact("__float_as_int", map<FloatAsInt, int>(f));
    r.exact("__uint_as_float", map<UintAsFloat, float>(u));
    r.exact("__float_as_uint", map<FloatAsUint, unsigned>(f));
    r.exact("__longlong_as_double", map<LonglongAsDouble, double>(ll));
    r.exact("__double_as_longlong", map<DoubleAsLonglong, long long>(d));
    r.exact("__double2hiint", map<Double2hiint, int>(d));
    r.exact("__double2loint", map<Double2loint, int>(d));
    r.exact("__hiloint2double", map<Hiloint2double, double>(i, rotated(i, 7)));
}
