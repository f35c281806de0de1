// The CUDA Math API's SIMD intrinsics, all exact: the per-halfword (...2)
// and per-byte (...4) functions, and CUDA 12's __vi* max and min functions,
// each applied by a kernel to every pair of words built from each part's
// edge cases (0, 1, the signed extremes and their neighbours, all ones) and
// to pairs of pseudo-random words.
#include <string>
#include <vector>

#include "conformance.hpp"

namespace {

#define APPLY(f) out[k++ * n + i] = f;
#define CALL1(f) APPLY(f(x))
#define CALL2(f) APPLY(f(x, y))
#define NAME(f) #f,
#define CONSTRUCT(f) #f " "

// The per-halfword functions: unary, then binary.
#define HALFWORD_UNARY(X) X(__vabs2) X(__vabsss2) X(__vneg2) X(__vnegss2)
#define HALFWORD_BINARY(X)                                                                                   \
    X(__vadd2) X(__vaddss2) X(__vaddus2) X(__vsub2) X(__vsubss2) X(__vsubus2) X(__vavgs2) X(__vavgu2)        \
    X(__vhaddu2) X(__vabsdiffs2) X(__vabsdiffu2) X(__vsads2) X(__vsadu2) X(__vmaxs2) X(__vmaxu2) X(__vmins2) \
    X(__vminu2) X(__vcmpeq2) X(__vcmpne2) X(__vcmpges2) X(__vcmpgeu2) X(__vcmpgts2) X(__vcmpgtu2)            \
    X(__vcmples2) X(__vcmpleu2) X(__vcmplts2) X(__vcmpltu2) X(__vseteq2) X(__vsetne2) X(__vsetges2)          \
    X(__vsetgeu2) X(__vsetgts2) X(__vsetgtu2) X(__vsetles2) X(__vsetleu2) X(__vsetlts2) X(__vsetltu2)
#define BYTE_UNARY(X) X(__vabs4) X(__vabsss4) X(__vneg4) X(__vnegss4)
#define BYTE_BINARY(X)                                                                                       \
    X(__vadd4) X(__vaddss4) X(__vaddus4) X(__vsub4) X(__vsubss4) X(__vsubus4) X(__vavgs4) X(__vavgu4)        \
    X(__vhaddu4) X(__vabsdiffs4) X(__vabsdiffu4) X(__vsads4) X(__vsadu4) X(__vmaxs4) X(__vmaxu4) X(__vmins4) \
    X(__vminu4) X(__vcmpeq4) X(__vcmpne4) X(__vcmpges4) X(__vcmpgeu4) X(__vcmpgts4) X(__vcmpgtu4)            \
    X(__vcmples4) X(__vcmpleu4) X(__vcmplts4) X(__vcmpltu4) X(__vseteq4) X(__vsetne4) X(__vsetges4)          \
    X(__vsetgeu4) X(__vsetgts4) X(__vsetgtu4) X(__vsetles4) X(__vsetleu4) X(__vsetlts4) X(__vsetltu4)

__global__ void k_halfwords(const unsigned* a, const unsigned* b, unsigned* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned x = a[i], y = b[i];
    unsigned k = 0;
    HALFWORD_UNARY(CALL1)
    HALFWORD_BINARY(CALL2)
}
__global__ void k_bytes(const unsigned* a, const unsigned* b, unsigned* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned x = a[i], y = b[i];
    unsigned k = 0;
    BYTE_UNARY(CALL1)
    BYTE_BINARY(CALL2)
}

// The __vi* functions of 2 and 3 operands (x, y, z; the 32-bit signed ones
// take them as int), and the __vib* ones, which also give which operand won:
// their result, then their predicates as hi * 2 + lo.
#define VI2(X) X(__vimax_s32_relu) X(__vimin_s32_relu)
#define VI2_16X2(X) X(__vimax_s16x2_relu) X(__vimin_s16x2_relu)
#define VI3_S32(X) X(__vimax3_s32) X(__vimin3_s32) X(__vimax3_s32_relu) X(__vimin3_s32_relu) X(__viaddmax_s32) \
    X(__viaddmin_s32) X(__viaddmax_s32_relu) X(__viaddmin_s32_relu)
#define VI3_U32(X) X(__vimax3_u32) X(__vimin3_u32) X(__viaddmax_u32) X(__viaddmin_u32)
#define VI3_16X2(X) X(__vimax3_s16x2) X(__vimin3_s16x2) X(__vimax3_u16x2) X(__vimin3_u16x2) \
    X(__vimax3_s16x2_relu) X(__vimin3_s16x2_relu) X(__viaddmax_s16x2) X(__viaddmin_s16x2)   \
    X(__viaddmax_u16x2) X(__viaddmin_u16x2) X(__viaddmax_s16x2_relu) X(__viaddmin_s16x2_relu)
#define VIB32(X) X(__vibmax_s32) X(__vibmin_s32) X(__vibmax_u32) X(__vibmin_u32)
#define VIB16X2(X) X(__vibmax_s16x2) X(__vibmin_s16x2) X(__vibmax_u16x2) X(__vibmin_u16x2)
#define VI_ALL(X) VI2(X) VI2_16X2(X) VI3_S32(X) VI3_U32(X) VI3_16X2(X) VIB32(X) VIB16X2(X)

__global__ void k_max_min(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const unsigned x = a[i], y = b[i], z = c[i];
    const int sx = static_cast<int>(x), sy = static_cast<int>(y), sz = static_cast<int>(z);
    unsigned k = 0;
#define S32_2(f) APPLY(static_cast<unsigned>(f(sx, sy)))
#define U32_2(f) APPLY(f(x, y))
#define S32_3(f) APPLY(static_cast<unsigned>(f(sx, sy, sz)))
#define U32_3(f) APPLY(f(x, y, z))
    VI2(S32_2)
    VI2_16X2(U32_2)
    VI3_S32(S32_3)
    VI3_U32(U32_3)
    VI3_16X2(U32_3)
    bool hi = false, lo = false;
#define VIB_S32(f) APPLY(static_cast<unsigned>(f(sx, sy, &lo))) APPLY(lo ? 1u : 0u)
    VIB_S32(__vibmax_s32)
    VIB_S32(__vibmin_s32)
#define VIB_U32(f) APPLY(f(x, y, &lo)) APPLY(lo ? 1u : 0u)
    VIB_U32(__vibmax_u32)
    VIB_U32(__vibmin_u32)
#define VIB_16X2(f) APPLY(f(x, y, &hi, &lo)) APPLY((hi ? 2u : 0u) + (lo ? 1u : 0u))
    VIB16X2(VIB_16X2)
}

// Words whose parts are edge cases: 8 whose halfwords, and 8 whose bytes, run
// through a part's edge cases so that every two of the 8 (x, y) give each
// part position every pair of edge cases.
std::vector<unsigned> edge_words() {
    const unsigned halves[8] = {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu, 0xfffeu, 0x4000u};
    const unsigned bytes[8] = {0x00u, 0x01u, 0x7fu, 0x80u, 0x81u, 0xffu, 0xfeu, 0x40u};
    std::vector<unsigned> w;
    for (unsigned k = 0; k < 8; ++k) w.push_back(halves[k] | halves[(3 * k + 1) % 8] << 16);
    for (unsigned k = 0; k < 8; ++k) {
        unsigned v = 0;
        for (unsigned part = 0; part < 4; ++part) v |= bytes[(k + 3 * part) % 8] << (8 * part);
        w.push_back(v);
    }
    return w;
}

// Every two edge words, then 128 pseudo-random pairs; z a third word.
struct Operands {
    std::vector<unsigned> a, b, c;
};
Operands operands() {
    Operands o;
    const std::vector<unsigned> e = edge_words(), u = conformance::u32_inputs();
    for (std::size_t p = 0; p < e.size(); ++p)
        for (std::size_t q = 0; q < e.size(); ++q)
            o.a.push_back(e[p]), o.b.push_back(e[q]), o.c.push_back(e[(p + 2 * q + 1) % e.size()]);
    for (std::size_t i = 0; i < 128; ++i)
        o.a.push_back(u[i + 64]), o.b.push_back(u[(i * 37 + 11) % u.size()]), o.c.push_back(u[(i * 11 + 5) % u.size()]);
    return o;
}

template <typename T>
std::vector<T> slice(const std::vector<T>& all, std::size_t f, std::size_t n) {
    return std::vector<T>(all.begin() + static_cast<long>(f * n), all.begin() + static_cast<long>((f + 1) * n));
}

using Kernel2 = void (*)(const unsigned*, const unsigned*, unsigned*, unsigned);

void run_parts(conformance::Results& r, Kernel2 kernel, const std::vector<const char*>& names) {
    const Operands o = operands();
    const std::size_t n = o.a.size();
    conformance::Buffer<unsigned> a(o.a), b(o.b), out(names.size() * n);
    kernel<<<conformance::blocks(n), 256>>>(a, b, out, n);
    const std::vector<unsigned> all = out.get();
    for (std::size_t f = 0; f < names.size(); ++f)
        r.exact(std::string(names[f]) + (f < 4 ? "(x)" : "(x, y)"), slice(all, f, n));
}

}  // namespace

CONFORMANCE_CASE(halfwords, HALFWORD_UNARY(CONSTRUCT) HALFWORD_BINARY(CONSTRUCT)) {
    run_parts(r, k_halfwords, {HALFWORD_UNARY(NAME) HALFWORD_BINARY(NAME)});
}

CONFORMANCE_CASE(bytes, BYTE_UNARY(CONSTRUCT) BYTE_BINARY(CONSTRUCT)) {
    run_parts(r, k_bytes, {BYTE_UNARY(NAME) BYTE_BINARY(NAME)});
}

CONFORMANCE_CASE(max_min, VI_ALL(CONSTRUCT)) {
    const Operands o = operands();
    const std::size_t n = o.a.size();
    std::vector<std::string> names;
#define PUSH2(f) names.push_back(#f "(x, y)");
#define PUSH3(f) names.push_back(#f "(x, y, z)");
#define PUSH_VIB(f) names.push_back(#f "(x, y)"), names.push_back(#f " predicates");
    VI2(PUSH2) VI2_16X2(PUSH2) VI3_S32(PUSH3) VI3_U32(PUSH3) VI3_16X2(PUSH3) VIB32(PUSH_VIB) VIB16X2(PUSH_VIB)
    conformance::Buffer<unsigned> a(o.a), b(o.b), c(o.c), out(names.size() * n);
    k_max_min<<<conformance::blocks(n), 256>>>(a, b, c, out, n);
    const std::vector<unsigned> all = out.get();
    for (std::size_t f = 0; f < names.size(); ++f) r.exact(names[f], slice(all, f, n));
}
