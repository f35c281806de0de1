// CUDA's integer intrinsics and SIMD intrinsics (the CUDA Math API's
// "Integer Intrinsics" and "SIMD Intrinsics" sections, CUDA 13), exact, as
// the Math API and the PTX ISA define them.
//
// Each is register math that on a GPU is one instruction or a few, with no
// branch a warp could diverge at. Here each is a function the kernel file
// calls but GCC does not instrument (no_sanitize_coverage: its branches and
// loops are no basic blocks of the kernel's, so they neither show as SIMT
// divergence nor count for the watchdog; no_sanitize_thread: it touches no
// memory of the kernel's). GCC does not inline such a function into an
// instrumented one. Where an intrinsic stores through a pointer it was given
// (the __vibmax/__vibmin predicates), the store is in the instrumented caller,
// so the memory checks see it.
#pragma once

#include <cstdint>

#include "simt/vector_types.hpp"

#define SIMT_REGISTER_MATH __attribute__((no_sanitize_coverage, no_sanitize_thread)) inline

namespace simt::intrinsics {

// The parts of a 32-bit word: halfwords (i = 0 low, 1 high) and bytes (0-3).
SIMT_REGISTER_MATH int s16(unsigned v, int i) { return static_cast<std::int16_t>(v >> (16 * i)); }
SIMT_REGISTER_MATH int u16(unsigned v, int i) { return static_cast<int>((v >> (16 * i)) & 0xffffu); }
SIMT_REGISTER_MATH int s8(unsigned v, int i) { return static_cast<std::int8_t>(v >> (8 * i)); }
SIMT_REGISTER_MATH int u8(unsigned v, int i) { return static_cast<int>((v >> (8 * i)) & 0xffu); }
SIMT_REGISTER_MATH int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
SIMT_REGISTER_MATH int magnitude(int v) { return v < 0 ? -v : v; }
SIMT_REGISTER_MATH int max2(int a, int b) { return a > b ? a : b; }
SIMT_REGISTER_MATH int min2(int a, int b) { return a < b ? a : b; }
SIMT_REGISTER_MATH unsigned umax2(unsigned a, unsigned b) { return a > b ? a : b; }
SIMT_REGISTER_MATH unsigned umin2(unsigned a, unsigned b) { return a < b ? a : b; }
// A 32-bit sum or product as the GPU's 32-bit registers wrap it.
SIMT_REGISTER_MATH int wrap(long long v) { return static_cast<int>(static_cast<unsigned>(v)); }
template <typename T>
SIMT_REGISTER_MATH unsigned bits_of(T v) {
    static_assert(sizeof(T) == 4, "a 4-byte vector");
    unsigned b;
    __builtin_memcpy(&b, &v, 4);
    return b;
}

SIMT_REGISTER_MATH unsigned fns(unsigned mask, unsigned base, int offset) {
    // The PTX ISA's fns: the offset-th set bit counting from base, upwards for
    // a positive offset and downwards for a negative one (base itself counts);
    // none: 0xffffffff. A base above 31 is undefined in CUDA.
    if (base > 31) return 0xffffffffu;
    if (offset == 0) return (mask >> base & 1u) ? base : 0xffffffffu;
    long long count = offset > 0 ? offset : -static_cast<long long>(offset);
    const int step = offset > 0 ? 1 : -1;
    for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += step)
        if ((mask >> pos & 1u) && --count == 0) return static_cast<unsigned>(pos);
    return 0xffffffffu;
}

// dp2a: two 16-bit parts of a times bytes k and k + 1 of b, plus c.
SIMT_REGISTER_MATH int dp2a_s(unsigned a, unsigned b, int k, int c) {
    return wrap(static_cast<long long>(c) + s16(a, 0) * s8(b, k) + s16(a, 1) * s8(b, k + 1));
}
SIMT_REGISTER_MATH unsigned dp2a_u(unsigned a, unsigned b, int k, unsigned c) {
    return c + static_cast<unsigned>(u16(a, 0) * u8(b, k)) + static_cast<unsigned>(u16(a, 1) * u8(b, k + 1));
}
SIMT_REGISTER_MATH int dp4a_s(unsigned a, unsigned b, int c) {
    long long sum = c;
    for (int i = 0; i < 4; ++i) sum += s8(a, i) * s8(b, i);
    return wrap(sum);
}
SIMT_REGISTER_MATH unsigned dp4a_u(unsigned a, unsigned b, unsigned c) {
    for (int i = 0; i < 4; ++i) c += static_cast<unsigned>(u8(a, i) * u8(b, i));
    return c;
}

// A max or min and which argument it came from (the __vib* functions).
struct Picked {
    unsigned value;
    bool hi, lo;  // for 32-bit operands, lo alone
};

}  // namespace simt::intrinsics

// ---- Integer Intrinsics ------------------------------------------------------

SIMT_REGISTER_MATH unsigned int __brev(unsigned int x) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i) r |= (x >> i & 1u) << (31 - i);
    return r;
}
SIMT_REGISTER_MATH unsigned long long int __brevll(unsigned long long int x) {
    unsigned long long r = 0;
    for (int i = 0; i < 64; ++i) r |= (x >> i & 1ull) << (63 - i);
    return r;
}
// Byte n of the result is byte (s >> 4n) & 7 of y:x (x bytes 0-3, y 4-7).
SIMT_REGISTER_MATH unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    const unsigned long long source = static_cast<unsigned long long>(y) << 32 | x;
    unsigned r = 0;
    for (int n = 0; n < 4; ++n) r |= static_cast<unsigned>(source >> (8 * (s >> (4 * n) & 7u)) & 0xffu) << (8 * n);
    return r;
}
SIMT_REGISTER_MATH int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
SIMT_REGISTER_MATH int __clzll(long long int x) {
    return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x));
}
SIMT_REGISTER_MATH int __ffs(int x) { return __builtin_ffs(x); }
SIMT_REGISTER_MATH int __ffsll(long long int x) { return __builtin_ffsll(x); }
SIMT_REGISTER_MATH unsigned __fns(unsigned mask, unsigned base, int offset) {
    return simt::intrinsics::fns(mask, base, offset);
}
SIMT_REGISTER_MATH int __popc(unsigned int x) { return __builtin_popcount(x); }
SIMT_REGISTER_MATH int __popcll(unsigned long long int x) { return __builtin_popcountll(x); }
SIMT_REGISTER_MATH unsigned short __nv_bswap16(unsigned short x) { return __builtin_bswap16(x); }
SIMT_REGISTER_MATH unsigned int __nv_bswap32(unsigned int x) { return __builtin_bswap32(x); }
SIMT_REGISTER_MATH unsigned long long __nv_bswap64(unsigned long long x) { return __builtin_bswap64(x); }

// hi:lo shifted by shift & 31 (l, r) or by min(shift, 32) (lc, rc).
SIMT_REGISTER_MATH unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
    return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32 | lo) << (shift & 31u)) >> 32);
}
SIMT_REGISTER_MATH unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
    const unsigned s = shift < 32u ? shift : 32u;
    return static_cast<unsigned>(((static_cast<unsigned long long>(hi) << 32 | lo) << s) >> 32);
}
SIMT_REGISTER_MATH unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
    return static_cast<unsigned>((static_cast<unsigned long long>(hi) << 32 | lo) >> (shift & 31u));
}
SIMT_REGISTER_MATH unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
    const unsigned s = shift < 32u ? shift : 32u;
    return static_cast<unsigned>((static_cast<unsigned long long>(hi) << 32 | lo) >> s);
}

// Averages without overflow: (x + y) >> 1 and (x + y + 1) >> 1 (the shift
// rounds towards minus infinity).
SIMT_REGISTER_MATH int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
SIMT_REGISTER_MATH int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
SIMT_REGISTER_MATH unsigned int __uhadd(unsigned int x, unsigned int y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
SIMT_REGISTER_MATH unsigned int __urhadd(unsigned int x, unsigned int y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}

// The low 32 bits of the product of the low 24 bits of x and y (signed
// 24-bit numbers for __mul24, as PTX's mul24.lo.s32 takes them).
SIMT_REGISTER_MATH int __mul24(int x, int y) {
    const long long a = static_cast<std::int32_t>(static_cast<unsigned>(x) << 8) >> 8;
    const long long b = static_cast<std::int32_t>(static_cast<unsigned>(y) << 8) >> 8;
    return simt::intrinsics::wrap(a * b);
}
SIMT_REGISTER_MATH unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
SIMT_REGISTER_MATH int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
SIMT_REGISTER_MATH unsigned int __umulhi(unsigned int x, unsigned int y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
SIMT_REGISTER_MATH long long int __mul64hi(long long int x, long long int y) {
    return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
SIMT_REGISTER_MATH unsigned long long int __umul64hi(unsigned long long int x, unsigned long long int y) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}

// |x - y| + z, the difference taken exactly, the sum modulo 2^32.
SIMT_REGISTER_MATH unsigned int __sad(int x, int y, unsigned int z) {
    const long long d = static_cast<long long>(x) - y;
    return static_cast<unsigned>(d < 0 ? -d : d) + z;
}
SIMT_REGISTER_MATH unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
    return (x > y ? x - y : y - x) + z;
}

// Dot products: 16-bit parts of srcA with bytes 0-1 (lo) or 2-3 (hi) of
// srcB; 4 bytes with 4 bytes. Signed or unsigned by the overload; the sum
// wraps at 32 bits.
SIMT_REGISTER_MATH int __dp2a_lo(int srcA, int srcB, int c) {
    return simt::intrinsics::dp2a_s(static_cast<unsigned>(srcA), static_cast<unsigned>(srcB), 0, c);
}
SIMT_REGISTER_MATH unsigned int __dp2a_lo(unsigned int srcA, unsigned int srcB, unsigned int c) {
    return simt::intrinsics::dp2a_u(srcA, srcB, 0, c);
}
SIMT_REGISTER_MATH int __dp2a_lo(short2 srcA, char4 srcB, int c) {
    return simt::intrinsics::dp2a_s(simt::intrinsics::bits_of(srcA), simt::intrinsics::bits_of(srcB), 0, c);
}
SIMT_REGISTER_MATH unsigned int __dp2a_lo(ushort2 srcA, uchar4 srcB, unsigned int c) {
    return simt::intrinsics::dp2a_u(simt::intrinsics::bits_of(srcA), simt::intrinsics::bits_of(srcB), 0, c);
}
SIMT_REGISTER_MATH int __dp2a_hi(int srcA, int srcB, int c) {
    return simt::intrinsics::dp2a_s(static_cast<unsigned>(srcA), static_cast<unsigned>(srcB), 2, c);
}
SIMT_REGISTER_MATH unsigned int __dp2a_hi(unsigned int srcA, unsigned int srcB, unsigned int c) {
    return simt::intrinsics::dp2a_u(srcA, srcB, 2, c);
}
SIMT_REGISTER_MATH int __dp2a_hi(short2 srcA, char4 srcB, int c) {
    return simt::intrinsics::dp2a_s(simt::intrinsics::bits_of(srcA), simt::intrinsics::bits_of(srcB), 2, c);
}
SIMT_REGISTER_MATH unsigned int __dp2a_hi(ushort2 srcA, uchar4 srcB, unsigned int c) {
    return simt::intrinsics::dp2a_u(simt::intrinsics::bits_of(srcA), simt::intrinsics::bits_of(srcB), 2, c);
}
SIMT_REGISTER_MATH int __dp4a(int srcA, int srcB, int c) {
    return simt::intrinsics::dp4a_s(static_cast<unsigned>(srcA), static_cast<unsigned>(srcB), c);
}
SIMT_REGISTER_MATH unsigned int __dp4a(unsigned int srcA, unsigned int srcB, unsigned int c) {
    return simt::intrinsics::dp4a_u(srcA, srcB, c);
}
SIMT_REGISTER_MATH int __dp4a(char4 srcA, char4 srcB, int c) {
    return simt::intrinsics::dp4a_s(simt::intrinsics::bits_of(srcA), simt::intrinsics::bits_of(srcB), c);
}
SIMT_REGISTER_MATH unsigned int __dp4a(uchar4 srcA, uchar4 srcB, unsigned int c) {
    return simt::intrinsics::dp4a_u(simt::intrinsics::bits_of(srcA), simt::intrinsics::bits_of(srcB), c);
}

// ---- SIMD Intrinsics -----------------------------------------------------------
// A 32-bit word as 2 halfwords (the ...2 functions) or 4 bytes (...4): each
// part computed from a's and b's parts, signed (sa, sb) or unsigned (ua, ub),
// and kept to its width (a sum or difference wraps unless the name says it
// saturates: ss signed, us unsigned).

#define SIMT_SIMD(name, lanes, width, signed_part, unsigned_part, part)                                    \
    SIMT_REGISTER_MATH unsigned int name(unsigned int a, unsigned int b) {                                 \
        unsigned r = 0;                                                                                    \
        for (int i = 0; i < lanes; ++i) {                                                                  \
            [[maybe_unused]] const int sa = simt::intrinsics::signed_part(a, i),                           \
                                       sb = simt::intrinsics::signed_part(b, i);                           \
            [[maybe_unused]] const int ua = simt::intrinsics::unsigned_part(a, i),                         \
                                       ub = simt::intrinsics::unsigned_part(b, i);                         \
            r |= (static_cast<unsigned>(part) & ((1u << width) - 1u)) << (width * i);                      \
        }                                                                                                  \
        return r;                                                                                          \
    }
#define SIMT_SIMD2(name, part) SIMT_SIMD(name, 2, 16, s16, u16, part)
#define SIMT_SIMD4(name, part) SIMT_SIMD(name, 4, 8, s8, u8, part)
// Both widths at once: __vadd2 and __vadd4 from SIMT_SIMD24(__vadd, ...).
#define SIMT_SIMD24(stem, part2, part4) SIMT_SIMD2(stem##2, part2) SIMT_SIMD4(stem##4, part4)
// Unary ones, of a's parts alone.
#define SIMT_SIMD_UNARY(name, lanes, width, signed_part, part)                                             \
    SIMT_REGISTER_MATH unsigned int name(unsigned int a) {                                                 \
        unsigned r = 0;                                                                                    \
        for (int i = 0; i < lanes; ++i) {                                                                  \
            const int sa = simt::intrinsics::signed_part(a, i);                                            \
            r |= (static_cast<unsigned>(part) & ((1u << width) - 1u)) << (width * i);                      \
        }                                                                                                  \
        return r;                                                                                          \
    }
// The sums of absolute differences, one number for the word.
#define SIMT_SIMD_SUM(name, lanes, part)                                                                   \
    SIMT_REGISTER_MATH unsigned int name(unsigned int a, unsigned int b) {                                 \
        unsigned r = 0;                                                                                    \
        for (int i = 0; i < lanes; ++i)                                                                    \
            r += static_cast<unsigned>(simt::intrinsics::magnitude(simt::intrinsics::part(a, i) -          \
                                                                   simt::intrinsics::part(b, i)));         \
        return r;                                                                                          \
    }

SIMT_SIMD_UNARY(__vabs2, 2, 16, s16, simt::intrinsics::magnitude(sa))
SIMT_SIMD_UNARY(__vabsss2, 2, 16, s16, simt::intrinsics::min2(simt::intrinsics::magnitude(sa), 0x7fff))
SIMT_SIMD_UNARY(__vneg2, 2, 16, s16, -sa)
SIMT_SIMD_UNARY(__vnegss2, 2, 16, s16, simt::intrinsics::clamp(-sa, -0x8000, 0x7fff))
SIMT_SIMD_UNARY(__vabs4, 4, 8, s8, simt::intrinsics::magnitude(sa))
SIMT_SIMD_UNARY(__vabsss4, 4, 8, s8, simt::intrinsics::min2(simt::intrinsics::magnitude(sa), 0x7f))
SIMT_SIMD_UNARY(__vneg4, 4, 8, s8, -sa)
SIMT_SIMD_UNARY(__vnegss4, 4, 8, s8, simt::intrinsics::clamp(-sa, -0x80, 0x7f))

SIMT_SIMD24(__vadd, ua + ub, ua + ub)
SIMT_SIMD24(__vaddss, simt::intrinsics::clamp(sa + sb, -0x8000, 0x7fff), simt::intrinsics::clamp(sa + sb, -0x80, 0x7f))
SIMT_SIMD24(__vaddus, simt::intrinsics::min2(ua + ub, 0xffff), simt::intrinsics::min2(ua + ub, 0xff))
SIMT_SIMD24(__vsub, ua - ub, ua - ub)
SIMT_SIMD24(__vsubss, simt::intrinsics::clamp(sa - sb, -0x8000, 0x7fff), simt::intrinsics::clamp(sa - sb, -0x80, 0x7f))
SIMT_SIMD24(__vsubus, simt::intrinsics::max2(ua - ub, 0), simt::intrinsics::max2(ua - ub, 0))
// Signed rounded average: half away from zero ((a + b) >> 1 for a negative
// sum, (a + b + 1) >> 1 otherwise); unsigned: half up; __vhaddu truncates.
SIMT_SIMD24(__vavgs, (sa + sb + (sa + sb >= 0)) >> 1, (sa + sb + (sa + sb >= 0)) >> 1)
SIMT_SIMD24(__vavgu, (ua + ub + 1) >> 1, (ua + ub + 1) >> 1)
SIMT_SIMD24(__vhaddu, (ua + ub) >> 1, (ua + ub) >> 1)
SIMT_SIMD24(__vabsdiffs, simt::intrinsics::magnitude(sa - sb), simt::intrinsics::magnitude(sa - sb))
SIMT_SIMD24(__vabsdiffu, simt::intrinsics::magnitude(ua - ub), simt::intrinsics::magnitude(ua - ub))
SIMT_SIMD24(__vmaxs, simt::intrinsics::max2(sa, sb), simt::intrinsics::max2(sa, sb))
SIMT_SIMD24(__vmaxu, simt::intrinsics::max2(ua, ub), simt::intrinsics::max2(ua, ub))
SIMT_SIMD24(__vmins, simt::intrinsics::min2(sa, sb), simt::intrinsics::min2(sa, sb))
SIMT_SIMD24(__vminu, simt::intrinsics::min2(ua, ub), simt::intrinsics::min2(ua, ub))
// Comparisons: all ones per part where true (__vcmp), 1 per part (__vset).
SIMT_SIMD24(__vcmpeq, -(ua == ub), -(ua == ub))
SIMT_SIMD24(__vcmpne, -(ua != ub), -(ua != ub))
SIMT_SIMD24(__vcmpges, -(sa >= sb), -(sa >= sb))
SIMT_SIMD24(__vcmpgeu, -(ua >= ub), -(ua >= ub))
SIMT_SIMD24(__vcmpgts, -(sa > sb), -(sa > sb))
SIMT_SIMD24(__vcmpgtu, -(ua > ub), -(ua > ub))
SIMT_SIMD24(__vcmples, -(sa <= sb), -(sa <= sb))
SIMT_SIMD24(__vcmpleu, -(ua <= ub), -(ua <= ub))
SIMT_SIMD24(__vcmplts, -(sa < sb), -(sa < sb))
SIMT_SIMD24(__vcmpltu, -(ua < ub), -(ua < ub))
SIMT_SIMD24(__vseteq, ua == ub, ua == ub)
SIMT_SIMD24(__vsetne, ua != ub, ua != ub)
SIMT_SIMD24(__vsetges, sa >= sb, sa >= sb)
SIMT_SIMD24(__vsetgeu, ua >= ub, ua >= ub)
SIMT_SIMD24(__vsetgts, sa > sb, sa > sb)
SIMT_SIMD24(__vsetgtu, ua > ub, ua > ub)
SIMT_SIMD24(__vsetles, sa <= sb, sa <= sb)
SIMT_SIMD24(__vsetleu, ua <= ub, ua <= ub)
SIMT_SIMD24(__vsetlts, sa < sb, sa < sb)
SIMT_SIMD24(__vsetltu, ua < ub, ua < ub)
SIMT_SIMD_SUM(__vsads2, 2, s16)
SIMT_SIMD_SUM(__vsadu2, 2, u16)
SIMT_SIMD_SUM(__vsads4, 4, s8)
SIMT_SIMD_SUM(__vsadu4, 4, u8)

// ---- The __vi* functions (CUDA 12): 32-bit or 16x2 max and min of two or
// three values, after an addition (iadd: a + b, wrapping), clamped at zero
// (relu), or telling which operand they chose (b: a >= b for max, a <= b for
// min; *pred_hi and *pred_lo per halfword), as crt/device_functions.hpp
// defines them.

#define SIMT_VI3_16X2(name, signed_part, combine)                                                          \
    SIMT_REGISTER_MATH unsigned int name(const unsigned int a, const unsigned int b, const unsigned int c) { \
        unsigned r = 0;                                                                                    \
        for (int i = 0; i < 2; ++i) {                                                                      \
            const int x = simt::intrinsics::signed_part(a, i), y = simt::intrinsics::signed_part(b, i),    \
                      z = simt::intrinsics::signed_part(c, i);                                             \
            r |= (static_cast<unsigned>(combine) & 0xffffu) << (16 * i);                                   \
        }                                                                                                  \
        return r;                                                                                          \
    }
namespace simt::intrinsics {
// A 16-bit sum, wrapped, as a signed or unsigned part.
SIMT_REGISTER_MATH int wrap_s16(int v) { return static_cast<std::int16_t>(static_cast<unsigned>(v)); }
SIMT_REGISTER_MATH int wrap_u16(int v) { return static_cast<int>(static_cast<unsigned>(v) & 0xffffu); }
}  // namespace simt::intrinsics

SIMT_SIMD2(__vimax_s16x2_relu, simt::intrinsics::max2(simt::intrinsics::max2(sa, sb), 0))
SIMT_SIMD2(__vimin_s16x2_relu, simt::intrinsics::max2(simt::intrinsics::min2(sa, sb), 0))
SIMT_REGISTER_MATH int __vimax_s32_relu(const int a, const int b) {
    return simt::intrinsics::max2(simt::intrinsics::max2(a, b), 0);
}
SIMT_REGISTER_MATH int __vimin_s32_relu(const int a, const int b) {
    return simt::intrinsics::max2(simt::intrinsics::min2(a, b), 0);
}

SIMT_REGISTER_MATH int __vimax3_s32(const int a, const int b, const int c) {
    return simt::intrinsics::max2(simt::intrinsics::max2(a, b), c);
}
SIMT_REGISTER_MATH unsigned int __vimax3_u32(const unsigned int a, const unsigned int b, const unsigned int c) {
    return simt::intrinsics::umax2(simt::intrinsics::umax2(a, b), c);
}
SIMT_REGISTER_MATH int __vimin3_s32(const int a, const int b, const int c) {
    return simt::intrinsics::min2(simt::intrinsics::min2(a, b), c);
}
SIMT_REGISTER_MATH unsigned int __vimin3_u32(const unsigned int a, const unsigned int b, const unsigned int c) {
    return simt::intrinsics::umin2(simt::intrinsics::umin2(a, b), c);
}
SIMT_REGISTER_MATH int __vimax3_s32_relu(const int a, const int b, const int c) {
    return simt::intrinsics::max2(__vimax3_s32(a, b, c), 0);
}
SIMT_REGISTER_MATH int __vimin3_s32_relu(const int a, const int b, const int c) {
    return simt::intrinsics::max2(__vimin3_s32(a, b, c), 0);
}
SIMT_VI3_16X2(__vimax3_s16x2, s16, simt::intrinsics::max2(simt::intrinsics::max2(x, y), z))
SIMT_VI3_16X2(__vimax3_u16x2, u16, simt::intrinsics::max2(simt::intrinsics::max2(x, y), z))
SIMT_VI3_16X2(__vimin3_s16x2, s16, simt::intrinsics::min2(simt::intrinsics::min2(x, y), z))
SIMT_VI3_16X2(__vimin3_u16x2, u16, simt::intrinsics::min2(simt::intrinsics::min2(x, y), z))
SIMT_VI3_16X2(__vimax3_s16x2_relu, s16, simt::intrinsics::max2(simt::intrinsics::max2(simt::intrinsics::max2(x, y), z), 0))
SIMT_VI3_16X2(__vimin3_s16x2_relu, s16, simt::intrinsics::max2(simt::intrinsics::min2(simt::intrinsics::min2(x, y), z), 0))

SIMT_REGISTER_MATH int __viaddmax_s32(const int a, const int b, const int c) {
    return simt::intrinsics::max2(simt::intrinsics::wrap(static_cast<long long>(a) + b), c);
}
SIMT_REGISTER_MATH unsigned int __viaddmax_u32(const unsigned int a, const unsigned int b, const unsigned int c) {
    return simt::intrinsics::umax2(a + b, c);
}
SIMT_REGISTER_MATH int __viaddmin_s32(const int a, const int b, const int c) {
    return simt::intrinsics::min2(simt::intrinsics::wrap(static_cast<long long>(a) + b), c);
}
SIMT_REGISTER_MATH unsigned int __viaddmin_u32(const unsigned int a, const unsigned int b, const unsigned int c) {
    return simt::intrinsics::umin2(a + b, c);
}
SIMT_REGISTER_MATH int __viaddmax_s32_relu(const int a, const int b, const int c) {
    return simt::intrinsics::max2(__viaddmax_s32(a, b, c), 0);
}
SIMT_REGISTER_MATH int __viaddmin_s32_relu(const int a, const int b, const int c) {
    return simt::intrinsics::max2(__viaddmin_s32(a, b, c), 0);
}
SIMT_VI3_16X2(__viaddmax_s16x2, s16, simt::intrinsics::max2(simt::intrinsics::wrap_s16(x + y), z))
SIMT_VI3_16X2(__viaddmax_u16x2, u16, simt::intrinsics::max2(simt::intrinsics::wrap_u16(x + y), z))
SIMT_VI3_16X2(__viaddmin_s16x2, s16, simt::intrinsics::min2(simt::intrinsics::wrap_s16(x + y), z))
SIMT_VI3_16X2(__viaddmin_u16x2, u16, simt::intrinsics::min2(simt::intrinsics::wrap_u16(x + y), z))
SIMT_VI3_16X2(__viaddmax_s16x2_relu, s16, simt::intrinsics::max2(simt::intrinsics::max2(simt::intrinsics::wrap_s16(x + y), z), 0))
SIMT_VI3_16X2(__viaddmin_s16x2_relu, s16, simt::intrinsics::max2(simt::intrinsics::min2(simt::intrinsics::wrap_s16(x + y), z), 0))

namespace simt::intrinsics {
SIMT_REGISTER_MATH Picked bmax_s32(int a, int b) { return {static_cast<unsigned>(max2(a, b)), false, a >= b}; }
SIMT_REGISTER_MATH Picked bmax_u32(unsigned a, unsigned b) { return {umax2(a, b), false, a >= b}; }
SIMT_REGISTER_MATH Picked bmin_s32(int a, int b) { return {static_cast<unsigned>(min2(a, b)), false, a <= b}; }
SIMT_REGISTER_MATH Picked bmin_u32(unsigned a, unsigned b) { return {umin2(a, b), false, a <= b}; }
SIMT_REGISTER_MATH Picked bmax_s16x2(unsigned a, unsigned b) {
    return {__vmaxs2(a, b), s16(a, 1) >= s16(b, 1), s16(a, 0) >= s16(b, 0)};
}
SIMT_REGISTER_MATH Picked bmax_u16x2(unsigned a, unsigned b) {
    return {__vmaxu2(a, b), u16(a, 1) >= u16(b, 1), u16(a, 0) >= u16(b, 0)};
}
SIMT_REGISTER_MATH Picked bmin_s16x2(unsigned a, unsigned b) {
    return {__vmins2(a, b), s16(a, 1) <= s16(b, 1), s16(a, 0) <= s16(b, 0)};
}
SIMT_REGISTER_MATH Picked bmin_u16x2(unsigned a, unsigned b) {
    return {__vminu2(a, b), u16(a, 1) <= u16(b, 1), u16(a, 0) <= u16(b, 0)};
}
}  // namespace simt::intrinsics

// These store through the caller's pointers here, instrumented.
inline int __vibmax_s32(const int a, const int b, bool* const pred) {
    const simt::intrinsics::Picked p = simt::intrinsics::bmax_s32(a, b);
    *pred = p.lo;
    return static_cast<int>(p.value);
}
inline unsigned int __vibmax_u32(const unsigned int a, const unsigned int b, bool* const pred) {
    const simt::intrinsics::Picked p = simt::intrinsics::bmax_u32(a, b);
    *pred = p.lo;
    return p.value;
}
inline int __vibmin_s32(const int a, const int b, bool* const pred) {
    const simt::intrinsics::Picked p = simt::intrinsics::bmin_s32(a, b);
    *pred = p.lo;
    return static_cast<int>(p.value);
}
inline unsigned int __vibmin_u32(const unsigned int a, const unsigned int b, bool* const pred) {
    const simt::intrinsics::Picked p = simt::intrinsics::bmin_u32(a, b);
    *pred = p.lo;
    return p.value;
}
#define SIMT_VIB16X2(name, picker)                                                                         \
    inline unsigned int name(const unsigned int a, const unsigned int b, bool* const pred_hi,              \
                             bool* const pred_lo) {                                                        \
        const simt::intrinsics::Picked p = simt::intrinsics::picker(a, b);                                 \
        *pred_hi = p.hi;                                                                                   \
        *pred_lo = p.lo;                                                                                   \
        return p.value;                                                                                    \
    }
SIMT_VIB16X2(__vibmax_s16x2, bmax_s16x2)
SIMT_VIB16X2(__vibmax_u16x2, bmax_u16x2)
SIMT_VIB16X2(__vibmin_s16x2, bmin_s16x2)
SIMT_VIB16X2(__vibmin_u16x2, bmin_u16x2)

#undef SIMT_SIMD
#undef SIMT_SIMD2
#undef SIMT_SIMD4
#undef SIMT_SIMD24
#undef SIMT_SIMD_UNARY
#undef SIMT_SIMD_SUM
#undef SIMT_VI3_16X2
#undef SIMT_VIB16X2
#undef SIMT_REGISTER_MATH
