// CUDA's device math, with no #include, as under nvcc (cuda_runtime.h brings
// crt/math_functions.h, which includes <math.h>, <stdlib.h>, <cmath> and
// <cstdlib>): the C library's functions with CUDA's semantics and within the
// Math API's bounds, CUDA's own functions (rsqrtf, sinpif, erfinvf, normf,
// ...), its overloads in the global namespace (min and max for every integer
// and floating type, float sinpi, rsqrt, ...), and the single- and
// double-precision and conversion intrinsics. All of it is in math.cpp and
// math_intrinsics.cpp, not instrumented (directed rounding needs the FPU's
// rounding mode); the functions that store through a pointer (sincosf,
// frexpf, remquof, ...) or read an array (normf) tell the memory checks about
// each access, at their caller's line. math.cpp also replaces the C
// library's transcendental functions (sinf, exp, pow, ...) in the whole
// program: g++ calls them by name wherever they are used, std::sin(float)
// included.
#pragma once

#include <math.h>
#include <stdlib.h>

#include <cmath>
#include <cstdlib>

// ---- CUDA's functions with C names beyond C17's, declared as the C library
// declares a function (glibc 2.41 and later declare some of them as C23's).
extern "C" {
float exp10f(float) noexcept;
double exp10(double) noexcept;
float rsqrtf(float) noexcept;
double rsqrt(double) noexcept;
float rcbrtf(float) noexcept;
double rcbrt(double) noexcept;
float sinpif(float) noexcept;
double sinpi(double) noexcept;
float cospif(float) noexcept;
double cospi(double) noexcept;
void sincospif(float, float*, float*) noexcept;
void sincospi(double, double*, double*) noexcept;
float erfinvf(float) noexcept;
double erfinv(double) noexcept;
float erfcinvf(float) noexcept;
double erfcinv(double) noexcept;
float erfcxf(float) noexcept;
double erfcx(double) noexcept;
float normcdff(float) noexcept;
double normcdf(double) noexcept;
float normcdfinvf(float) noexcept;
double normcdfinv(double) noexcept;
float cyl_bessel_i0f(float) noexcept;
double cyl_bessel_i0(double) noexcept;
float cyl_bessel_i1f(float) noexcept;
double cyl_bessel_i1(double) noexcept;
float rhypotf(float, float) noexcept;
double rhypot(double, double) noexcept;
float norm3df(float, float, float) noexcept;
double norm3d(double, double, double) noexcept;
float norm4df(float, float, float, float) noexcept;
double norm4d(double, double, double, double) noexcept;
float rnorm3df(float, float, float) noexcept;
double rnorm3d(double, double, double) noexcept;
float rnorm4df(float, float, float, float) noexcept;
double rnorm4d(double, double, double, double) noexcept;
float normf(int, const float*) noexcept;
double norm(int, const double*) noexcept;
float rnormf(int, const float*) noexcept;
double rnorm(int, const double*) noexcept;
float fdividef(float, float) noexcept;
}

// ---- CUDA's overloads in the global namespace (crt/math_functions.hpp) ----
inline float exp10(float x) { return exp10f(x); }
inline float rsqrt(float x) { return rsqrtf(x); }
inline float rcbrt(float x) { return rcbrtf(x); }
inline float sinpi(float x) { return sinpif(x); }
inline float cospi(float x) { return cospif(x); }
void sincospi(float x, float* sptr, float* cptr);  // stores checked (math.cpp)
void sincos(float x, float* sptr, float* cptr);
inline float j0(float x) { return j0f(x); }
inline float j1(float x) { return j1f(x); }
inline float jn(int n, float x) { return jnf(n, x); }
inline float y0(float x) { return y0f(x); }
inline float y1(float x) { return y1f(x); }
inline float yn(int n, float x) { return ynf(n, x); }
inline float cyl_bessel_i0(float x) { return cyl_bessel_i0f(x); }
inline float cyl_bessel_i1(float x) { return cyl_bessel_i1f(x); }
inline float erfinv(float x) { return erfinvf(x); }
inline float erfcinv(float x) { return erfcinvf(x); }
inline float normcdfinv(float x) { return normcdfinvf(x); }
inline float normcdf(float x) { return normcdff(x); }
inline float erfcx(float x) { return erfcxf(x); }
inline double copysign(double a, float b) { return copysign(a, static_cast<double>(b)); }
inline double copysign(float a, double b) { return copysign(static_cast<double>(a), b); }

// min and max as CUDA overloads them: the same type, or mixed signed and
// unsigned integers compared as unsigned (min(-1, 2u) is 2u), or float with
// double compared as double. With `using namespace std;`, min(a, b) still
// picks these for int, unsigned, ... (a function beats std::min's template
// when both match exactly), as under nvcc.
inline int min(const int a, const int b) { return a < b ? a : b; }
inline unsigned int umin(const unsigned int a, const unsigned int b) { return a < b ? a : b; }
inline long long int llmin(const long long int a, const long long int b) { return a < b ? a : b; }
inline unsigned long long int ullmin(const unsigned long long int a, const unsigned long long int b) {
    return a < b ? a : b;
}
inline int max(const int a, const int b) { return a > b ? a : b; }
inline unsigned int umax(const unsigned int a, const unsigned int b) { return a > b ? a : b; }
inline long long int llmax(const long long int a, const long long int b) { return a > b ? a : b; }
inline unsigned long long int ullmax(const unsigned long long int a, const unsigned long long int b) {
    return a > b ? a : b;
}
inline unsigned int min(const unsigned int a, const unsigned int b) { return umin(a, b); }
inline unsigned int min(const int a, const unsigned int b) { return umin(static_cast<unsigned int>(a), b); }
inline unsigned int min(const unsigned int a, const int b) { return umin(a, static_cast<unsigned int>(b)); }
inline long int min(const long int a, const long int b) { return static_cast<long int>(llmin(a, b)); }
inline unsigned long int min(const unsigned long int a, const unsigned long int b) {
    return static_cast<unsigned long int>(ullmin(a, b));
}
inline unsigned long int min(const long int a, const unsigned long int b) {
    return static_cast<unsigned long int>(ullmin(static_cast<unsigned long long int>(a), b));
}
inline unsigned long int min(const unsigned long int a, const long int b) {
    return static_cast<unsigned long int>(ullmin(a, static_cast<unsigned long long int>(b)));
}
inline long long int min(const long long int a, const long long int b) { return llmin(a, b); }
inline unsigned long long int min(const unsigned long long int a, const unsigned long long int b) {
    return ullmin(a, b);
}
inline unsigned long long int min(const long long int a, const unsigned long long int b) {
    return ullmin(static_cast<unsigned long long int>(a), b);
}
inline unsigned long long int min(const unsigned long long int a, const long long int b) {
    return ullmin(a, static_cast<unsigned long long int>(b));
}
inline float min(const float a, const float b) { return fminf(a, b); }
inline double min(const double a, const double b) { return fmin(a, b); }
inline double min(const float a, const double b) { return fmin(static_cast<double>(a), b); }
inline double min(const double a, const float b) { return fmin(a, static_cast<double>(b)); }
inline unsigned int max(const unsigned int a, const unsigned int b) { return umax(a, b); }
inline unsigned int max(const int a, const unsigned int b) { return umax(static_cast<unsigned int>(a), b); }
inline unsigned int max(const unsigned int a, const int b) { return umax(a, static_cast<unsigned int>(b)); }
inline long int max(const long int a, const long int b) { return static_cast<long int>(llmax(a, b)); }
inline unsigned long int max(const unsigned long int a, const unsigned long int b) {
    return static_cast<unsigned long int>(ullmax(a, b));
}
inline unsigned long int max(const long int a, const unsigned long int b) {
    return static_cast<unsigned long int>(ullmax(static_cast<unsigned long long int>(a), b));
}
inline unsigned long int max(const unsigned long int a, const long int b) {
    return static_cast<unsigned long int>(ullmax(a, static_cast<unsigned long long int>(b)));
}
inline long long int max(const long long int a, const long long int b) { return llmax(a, b); }
inline unsigned long long int max(const unsigned long long int a, const unsigned long long int b) {
    return ullmax(a, b);
}
inline unsigned long long int max(const long long int a, const unsigned long long int b) {
    return ullmax(static_cast<unsigned long long int>(a), b);
}
inline unsigned long long int max(const unsigned long long int a, const long long int b) {
    return ullmax(a, static_cast<unsigned long long int>(b));
}
inline float max(const float a, const float b) { return fmaxf(a, b); }
inline double max(const double a, const double b) { return fmax(a, b); }
inline double max(const float a, const double b) { return fmax(static_cast<double>(a), b); }
inline double max(const double a, const float b) { return fmax(a, static_cast<double>(b)); }

// ---- single-precision intrinsics (device_functions.h, sm_20_intrinsics.h)
// (glibc's <math.h> declares __sinf, __expf, ... as its own internal names,
// with C linkage: the fast ones are noexcept to match):
// the directed roundings exact, the fast functions computed as the GPU
// composes them from its approximate instructions (__expf(x) is
// ex2.approx(x * 1.442695f)), each instruction correctly rounded here.
float __fadd_rn(float x, float y);
float __fadd_rz(float x, float y);
float __fadd_ru(float x, float y);
float __fadd_rd(float x, float y);
float __fsub_rn(float x, float y);
float __fsub_rz(float x, float y);
float __fsub_ru(float x, float y);
float __fsub_rd(float x, float y);
float __fmul_rn(float x, float y);
float __fmul_rz(float x, float y);
float __fmul_ru(float x, float y);
float __fmul_rd(float x, float y);
float __fdiv_rn(float x, float y);
float __fdiv_rz(float x, float y);
float __fdiv_ru(float x, float y);
float __fdiv_rd(float x, float y);
float __fmaf_rn(float x, float y, float z);
float __fmaf_rz(float x, float y, float z);
float __fmaf_ru(float x, float y, float z);
float __fmaf_rd(float x, float y, float z);
float __fmaf_ieee_rn(float x, float y, float z);
float __fmaf_ieee_rz(float x, float y, float z);
float __fmaf_ieee_ru(float x, float y, float z);
float __fmaf_ieee_rd(float x, float y, float z);
float __frcp_rn(float x);
float __frcp_rz(float x);
float __frcp_ru(float x);
float __frcp_rd(float x);
float __fsqrt_rn(float x);
float __fsqrt_rz(float x);
float __fsqrt_ru(float x);
float __fsqrt_rd(float x);
float __frsqrt_rn(float x);
float __fdividef(float x, float y);
float __saturatef(float x);
float __sinf(float x) noexcept;
float __cosf(float x) noexcept;
float __tanf(float x) noexcept;
void __sincosf(float x, float* sptr, float* cptr) noexcept;
float __expf(float x) noexcept;
float __exp10f(float x) noexcept;
float __logf(float x) noexcept;
float __log2f(float x) noexcept;
float __log10f(float x) noexcept;
float __powf(float x, float y) noexcept;
float __tanhf(float x) noexcept;

// ---- double-precision intrinsics ---------------------------------------------
double __dadd_rn(double x, double y);
double __dadd_rz(double x, double y);
double __dadd_ru(double x, double y);
double __dadd_rd(double x, double y);
double __dsub_rn(double x, double y);
double __dsub_rz(double x, double y);
double __dsub_ru(double x, double y);
double __dsub_rd(double x, double y);
double __dmul_rn(double x, double y);
double __dmul_rz(double x, double y);
double __dmul_ru(double x, double y);
double __dmul_rd(double x, double y);
double __ddiv_rn(double x, double y);
double __ddiv_rz(double x, double y);
double __ddiv_ru(double x, double y);
double __ddiv_rd(double x, double y);
double __drcp_rn(double x);
double __drcp_rz(double x);
double __drcp_ru(double x);
double __drcp_rd(double x);
double __dsqrt_rn(double x);
double __dsqrt_rz(double x);
double __dsqrt_ru(double x);
double __dsqrt_rd(double x);
double __fma_rn(double x, double y, double z);
double __fma_rz(double x, double y, double z);
double __fma_ru(double x, double y, double z);
double __fma_rd(double x, double y, double z);

// ---- type conversions: to integers clamped to the type's range, a NaN to 0
// (float to a 32-bit integer) or to 1 << (bits - 1) (from double, or to a
// 64-bit integer), as PTX's cvt defines them.
float __double2float_rn(double x);
float __double2float_rz(double x);
float __double2float_ru(double x);
float __double2float_rd(double x);
int __double2int_rn(double x);
int __double2int_rz(double x);
int __double2int_ru(double x);
int __double2int_rd(double x);
unsigned int __double2uint_rn(double x);
unsigned int __double2uint_rz(double x);
unsigned int __double2uint_ru(double x);
unsigned int __double2uint_rd(double x);
long long int __double2ll_rn(double x);
long long int __double2ll_rz(double x);
long long int __double2ll_ru(double x);
long long int __double2ll_rd(double x);
unsigned long long int __double2ull_rn(double x);
unsigned long long int __double2ull_rz(double x);
unsigned long long int __double2ull_ru(double x);
unsigned long long int __double2ull_rd(double x);
int __float2int_rn(float x);
int __float2int_rz(float x);
int __float2int_ru(float x);
int __float2int_rd(float x);
unsigned int __float2uint_rn(float x);
unsigned int __float2uint_rz(float x);
unsigned int __float2uint_ru(float x);
unsigned int __float2uint_rd(float x);
long long int __float2ll_rn(float x);
long long int __float2ll_rz(float x);
long long int __float2ll_ru(float x);
long long int __float2ll_rd(float x);
unsigned long long int __float2ull_rn(float x);
unsigned long long int __float2ull_rz(float x);
unsigned long long int __float2ull_ru(float x);
unsigned long long int __float2ull_rd(float x);
float __int2float_rn(int x);
float __int2float_rz(int x);
float __int2float_ru(int x);
float __int2float_rd(int x);
float __uint2float_rn(unsigned int x);
float __uint2float_rz(unsigned int x);
float __uint2float_ru(unsigned int x);
float __uint2float_rd(unsigned int x);
float __ll2float_rn(long long int x);
float __ll2float_rz(long long int x);
float __ll2float_ru(long long int x);
float __ll2float_rd(long long int x);
float __ull2float_rn(unsigned long long int x);
float __ull2float_rz(unsigned long long int x);
float __ull2float_ru(unsigned long long int x);
float __ull2float_rd(unsigned long long int x);
double __ll2double_rn(long long int x);
double __ll2double_rz(long long int x);
double __ll2double_ru(long long int x);
double __ll2double_rd(long long int x);
double __ull2double_rn(unsigned long long int x);
double __ull2double_rz(unsigned long long int x);
double __ull2double_ru(unsigned long long int x);
double __ull2double_rd(unsigned long long int x);
inline double __int2double_rn(int x) { return static_cast<double>(x); }
inline double __uint2double_rn(unsigned int x) { return static_cast<double>(x); }

// Reinterpretations of the bits.
inline float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
inline int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
inline float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
inline unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
inline double __longlong_as_double(long long int x) { return __builtin_bit_cast(double, x); }
inline long long int __double_as_longlong(double x) { return __builtin_bit_cast(long long int, x); }
inline int __double2hiint(double x) { return static_cast<int>(__builtin_bit_cast(unsigned long long int, x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__builtin_bit_cast(unsigned long long int, x)); }
inline double __hiloint2double(int hi, int lo) {
    return __builtin_bit_cast(double, static_cast<unsigned long long int>(static_cast<unsigned int>(hi)) << 32 |
                                          static_cast<unsigned int>(lo));
}
