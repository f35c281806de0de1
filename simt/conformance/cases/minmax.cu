// CUDA's device min and max, every overload crt/math_functions.hpp declares
// (the same type, mixed signed and unsigned integers compared as unsigned,
// float with double compared as double), umin ... ullmax, fminf, fmaxf, fmin,
// fmax, and the absolute values; also `using namespace std;` with min(a, b)
// in a kernel, which nvcc resolves to CUDA's functions (std::min itself is
// host-only under nvcc). All exact. PTX's min and max ignore a NaN operand
// and order -0 below +0.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
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
std::vector<int> ints() { return conformance::i32_inputs(); }
std::vector<int> ints_rotated(std::size_t by) {
    const auto v = ints();
    std::vector<int> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[(i + by) % v.size()];
    return out;
}
template <typename To, typename From>
std::vector<To> cast(const std::vector<From>& v) {
    std::vector<To> out;
    for (From x : v) out.push_back(static_cast<To>(x));
    return out;
}
std::vector<unsigned long long> wide() { return conformance::u64_inputs(); }
std::vector<unsigned long long> wide_rotated(std::size_t by) {
    const auto v = wide();
    std::vector<unsigned long long> out(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = v[(i + by) % v.size()];
    return out;
}
// Pairs of floats: signed zeros and NaNs against each other and numbers, then the inputs.
void float_pairs(std::vector<float>* x, std::vector<float>* y) {
    const float specials[] = {0.0f, -0.0f, NAN, 1.0f, -1.0f, INFINITY, -INFINITY, 1e-40f};
    for (float a : specials)
        for (float b : specials) {
            x->push_back(a);
            y->push_back(b);
        }
    const auto in = conformance::f32_inputs();
    for (std::size_t i = 0; i < in.size(); ++i) {
        x->push_back(in[i]);
        y->push_back(in[(i + 41) % in.size()]);
    }
}

// ---- operations ------------------------------------------------------------------
OP2(MinInt, int, int, int, min(x, y))
OP2(MaxInt, int, int, int, max(x, y))
OP2(MinUnsigned, unsigned, unsigned, unsigned, min(x, y))
OP2(MaxUnsigned, unsigned, unsigned, unsigned, max(x, y))
OP2(MinIntUnsigned, unsigned, int, unsigned, min(x, y))
OP2(MaxIntUnsigned, unsigned, int, unsigned, max(x, y))
OP2(MinUnsignedInt, unsigned, unsigned, int, min(x, y))
OP2(MaxUnsignedInt, unsigned, unsigned, int, max(x, y))
OP2(MinLong, long, long, long, min(x, y))
OP2(MaxLong, long, long, long, max(x, y))
OP2(MinULong, unsigned long, unsigned long, unsigned long, min(x, y))
OP2(MaxULong, unsigned long, unsigned long, unsigned long, max(x, y))
OP2(MinLongULong, unsigned long, long, unsigned long, min(x, y))
OP2(MaxLongULong, unsigned long, long, unsigned long, max(x, y))
OP2(MinULongLong, unsigned long, unsigned long, long, min(x, y))
OP2(MaxULongLong, unsigned long, unsigned long, long, max(x, y))
OP2(MinLL, long long, long long, long long, min(x, y))
OP2(MaxLL, long long, long long, long long, max(x, y))
OP2(MinULL, unsigned long long, unsigned long long, unsigned long long, min(x, y))
OP2(MaxULL, unsigned long long, unsigned long long, unsigned long long, max(x, y))
OP2(MinLLULL, unsigned long long, long long, unsigned long long, min(x, y))
OP2(MaxLLULL, unsigned long long, long long, unsigned long long, max(x, y))
OP2(MinULLLL, unsigned long long, unsigned long long, long long, min(x, y))
OP2(MaxULLLL, unsigned long long, unsigned long long, long long, max(x, y))
OP2(Umin, unsigned, unsigned, unsigned, umin(x, y))
OP2(Umax, unsigned, unsigned, unsigned, umax(x, y))
OP2(Llmin, long long, long long, long long, llmin(x, y))
OP2(Llmax, long long, long long, long long, llmax(x, y))
OP2(Ullmin, unsigned long long, unsigned long long, unsigned long long, ullmin(x, y))
OP2(Ullmax, unsigned long long, unsigned long long, unsigned long long, ullmax(x, y))

OP2(Fminf, float, float, float, fminf(x, y))
OP2(Fmaxf, float, float, float, fmaxf(x, y))
OP2(Fmin, double, double, double, fmin(x, y))
OP2(Fmax, double, double, double, fmax(x, y))
OP2(MinFloat, float, float, float, min(x, y))
OP2(MaxFloat, float, float, float, max(x, y))
OP2(MinDouble, double, double, double, min(x, y))
OP2(MaxDouble, double, double, double, max(x, y))
OP2(MinFloatDouble, double, float, double, min(x, y))
OP2(MaxFloatDouble, double, float, double, max(x, y))
OP2(MinDoubleFloat, double, double, float, min(x, y))
OP2(MaxDoubleFloat, double, double, float, max(x, y))

OP1(Abs, int, int, abs(x))
OP1(Labs, long, long, labs(x))
OP1(Llabs, long long, long long, llabs(x))
OP1(Fabsf, float, float, fabsf(x))
OP1(Fabs, double, double, fabs(x))

// A section's bounds as a student writes them, with `using namespace std;`:
// min and max of unsigned, int, mixed and float operands.
__global__ void k_student_bounds(unsigned n, const unsigned* start, const int* a, const float* f, unsigned* out_u,
                                 int* out_i, float* out_f) {
    using namespace std;
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out_u[i] = min(n * 1024u - start[i], 2048u) + max(start[i], 7u);
        out_i[i] = min(a[i], 100) - max(a[i], -100);
        out_f[i] = max(min(f[i], 1.0f), -1.0f);
    }
}

}  // namespace

CONFORMANCE_CASE(integer_min_max, "min max umin umax llmin llmax ullmin ullmax") {
    const auto a = ints(), b = ints_rotated(29);
    const auto ua = cast<unsigned>(a), ub = cast<unsigned>(b);
    r.exact("min(int, int)", map<MinInt, int>(a, b));
    r.exact("max(int, int)", map<MaxInt, int>(a, b));
    r.exact("min(unsigned, unsigned)", map<MinUnsigned, unsigned>(ua, ub));
    r.exact("max(unsigned, unsigned)", map<MaxUnsigned, unsigned>(ua, ub));
    r.exact("min(int, unsigned)", map<MinIntUnsigned, unsigned>(a, ub));
    r.exact("max(int, unsigned)", map<MaxIntUnsigned, unsigned>(a, ub));
    r.exact("min(unsigned, int)", map<MinUnsignedInt, unsigned>(ua, b));
    r.exact("max(unsigned, int)", map<MaxUnsignedInt, unsigned>(ua, b));
    r.exact("umin(unsigned, unsigned)", map<Umin, unsigned>(ua, ub));
    r.exact("umax(unsigned, unsigned)", map<Umax, unsigned>(ua, ub));

    const auto w = wide(), v = wide_rotated(31);
    const auto lw = cast<long>(w), lv = cast<long>(v);
    const auto ulw = cast<unsigned long>(w), ulv = cast<unsigned long>(v);
    const auto llw = cast<long long>(w), llv = cast<long long>(v);
    r.exact("min(long, long)", map<MinLong, long>(lw, lv));
    r.exact("max(long, long)", map<MaxLong, long>(lw, lv));
    r.exact("min(unsigned long, unsigned long)", map<MinULong, unsigned long>(ulw, ulv));
    r.exact("max(unsigned long, unsigned long)", map<MaxULong, unsigned long>(ulw, ulv));
    r.exact("min(long, unsigned long)", map<MinLongULong, unsigned long>(lw, ulv));
    r.exact("max(long, unsigned long)", map<MaxLongULong, unsigned long>(lw, ulv));
    r.exact("min(unsigned long, long)", map<MinULongLong, unsigned long>(ulw, lv));
    r.exact("max(unsigned long, long)", map<MaxULongLong, unsigned long>(ulw, lv));
    r.exact("min(long long, long long)", map<MinLL, long long>(llw, llv));
    r.exact("max(long long, long long)", map<MaxLL, long long>(llw, llv));
    r.exact("min(unsigned long long, unsigned long long)", map<MinULL, unsigned long long>(w, v));
    r.exact("max(unsigned long long, unsigned long long)", map<MaxULL, unsigned long long>(w, v));
    r.exact("min(long long, unsigned long long)", map<MinLLULL, unsigned long long>(llw, v));
    r.exact("max(long long, unsigned long long)", map<MaxLLULL, unsigned long long>(llw, v));
    r.exact("min(unsigned long long, long long)", map<MinULLLL, unsigned long long>(w, llv));
    r.exact("max(unsigned long long, long long)", map<MaxULLLL, unsigned long long>(w, llv));
    r.exact("llmin", map<Llmin, long long>(llw, llv));
    r.exact("llmax", map<Llmax, long long>(llw, llv));
    r.exact("ullmin", map<Ullmin, unsigned long long>(w, v));
    r.exact("ullmax", map<Ullmax, unsigned long long>(w, v));
    // The same types on the host: std::min and std::max keep working beside CUDA's.
    r.exact("std::min and std::max on the host", std::vector<int>{std::min(3, -4), std::max(3, -4), std::min<int>(2, 7u)});
}

CONFORMANCE_CASE(float_min_max, "fminf fmaxf fmin fmax min max") {
    std::vector<float> x, y;
    float_pairs(&x, &y);
    const auto dx = cast<double>(x), dy = cast<double>(y);
    r.exact("fminf(x, y)", map<Fminf, float>(x, y));
    r.exact("fmaxf(x, y)", map<Fmaxf, float>(x, y));
    r.exact("fmin(x, y)", map<Fmin, double>(dx, dy));
    r.exact("fmax(x, y)", map<Fmax, double>(dx, dy));
    r.exact("min(float, float)", map<MinFloat, float>(x, y));
    r.exact("max(float, float)", map<MaxFloat, float>(x, y));
    r.exact("min(double, double)", map<MinDouble, double>(dx, dy));
    r.exact("max(double, double)", map<MaxDouble, double>(dx, dy));
    r.exact("min(float, double)", map<MinFloatDouble, double>(x, dy));
    r.exact("max(float, double)", map<MaxFloatDouble, double>(x, dy));
    r.exact("min(double, float)", map<MinDoubleFloat, double>(dx, y));
    r.exact("max(double, float)", map<MaxDoubleFloat, double>(dx, y));
}

CONFORMANCE_CASE(min_max_using_namespace_std, "min max") {
    const auto a = ints();
    const unsigned n = static_cast<unsigned>(a.size());
    std::vector<unsigned> start;
    for (unsigned i = 0; i < n; ++i) start.push_back(i * 1024u + (i % 3) * 700u);
    const auto f = conformance::f32_inputs();
    conformance::Buffer<unsigned> d_start(start), out_u(n);
    conformance::Buffer<int> d_a(a), out_i(n);
    std::vector<float> floats(n);  // the float inputs, again from the start past their end
    for (unsigned i = 0; i < n; ++i) floats[i] = f[i % f.size()];
    conformance::Buffer<float> d_f(floats), out_f(n);
    k_student_bounds<<<conformance::blocks(n), 256>>>(n, d_start, d_a, d_f, out_u, out_i, out_f);
    r.exact("min(unsigned, 2048u) + max(unsigned, 7u)", out_u.get());
    r.exact("min(int, 100) - max(int, -100)", out_i.get());
    r.exact("max(min(float, 1.0f), -1.0f)", out_f.get());
}

CONFORMANCE_CASE(absolute_values, "abs labs llabs fabsf fabs") {
    // abs of the most negative value overflows (undefined): left out.
    std::vector<int> a;
    for (int x : ints())
        if (x != std::numeric_limits<int>::min()) a.push_back(x);
    std::vector<long long> w;
    for (unsigned long long x : wide())
        if (static_cast<long long>(x) != std::numeric_limits<long long>::min()) w.push_back(static_cast<long long>(x));
    r.exact("abs(int)", map<Abs, int>(a));
    r.exact("labs(long)", map<Labs, long>(cast<long>(w)));
    r.exact("llabs(long long)", map<Llabs, long long>(w));
    const auto f = conformance::f32_inputs();
    r.exact("fabsf(x)", map<Fabsf, float>(f));
    r.exact("fabs(x)", map<Fabs, double>(conformance::f64_inputs()));
}
