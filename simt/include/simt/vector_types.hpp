// CUDA's built-in vector types, their make_ functions and dim3
// (vector_types.h, vector_functions.h), each of CUDA's size and alignment on
// 64-bit Linux: one float4, int4 or double2 load or store is one 16-byte
// access, one float2, int2 or short4 one 8-byte access (a warp's 32 float4s
// one 512-byte transaction on a GPU), and a pointer to one made from an
// address not a multiple of its alignment is a misaligned address
// (reinterpret_checked, launch.hpp).
#pragma once

#include <cstddef>

// CUDA 13 deprecates the 32-byte types aligned to 16 (long4, ulong4,
// longlong4, ulonglong4, double4) for the _16a and _32a variants; nvcc warns
// where a program names one, and so does g++ here, unless the program defines
// __NV_NO_VECTOR_DEPRECATION_DIAG, as CUDA allows.
#if defined(__NV_NO_VECTOR_DEPRECATION_DIAG)
#define SIMT_VECTOR_DEPRECATED(msg)
#else
#define SIMT_VECTOR_DEPRECATED(msg) [[deprecated(msg)]]
#endif

#define SIMT_VECTOR1(T, S, ALIGN, ATTR)                                 \
    struct ATTR alignas(ALIGN) T {                                      \
        S x;                                                            \
    };                                                                  \
    inline T make_##T(S x) { return T{x}; }
#define SIMT_VECTOR2(T, S, ALIGN, ATTR)                                 \
    struct ATTR alignas(ALIGN) T {                                      \
        S x, y;                                                         \
    };                                                                  \
    inline T make_##T(S x, S y) { return T{x, y}; }
#define SIMT_VECTOR3(T, S, ALIGN, ATTR)                                 \
    struct ATTR alignas(ALIGN) T {                                      \
        S x, y, z;                                                      \
    };                                                                  \
    inline T make_##T(S x, S y, S z) { return T{x, y, z}; }
#define SIMT_VECTOR4(T, S, ALIGN, ATTR)                                 \
    struct ATTR alignas(ALIGN) T {                                      \
        S x, y, z, w;                                                   \
    };                                                                  \
    inline T make_##T(S x, S y, S z, S w) { return T{x, y, z, w}; }

// One scalar type's 1-, 2- and 3-vectors: the 1- and 3-vectors aligned as
// the scalar, the 2-vectors to twice its size (the 4-vectors below).
#define SIMT_VECTORS(P, S, A2)                                          \
    SIMT_VECTOR1(P##1, S, alignof(S), )                                 \
    SIMT_VECTOR2(P##2, S, A2, )                                         \
    SIMT_VECTOR3(P##3, S, alignof(S), )

SIMT_VECTORS(char, signed char, 2)
SIMT_VECTOR4(char4, signed char, 4, )
SIMT_VECTORS(uchar, unsigned char, 2)
SIMT_VECTOR4(uchar4, unsigned char, 4, )
SIMT_VECTORS(short, short, 4)
SIMT_VECTOR4(short4, short, 8, )
SIMT_VECTORS(ushort, unsigned short, 4)
SIMT_VECTOR4(ushort4, unsigned short, 8, )
SIMT_VECTORS(int, int, 8)
SIMT_VECTOR4(int4, int, 16, )
SIMT_VECTORS(uint, unsigned int, 8)
SIMT_VECTOR4(uint4, unsigned int, 16, )
SIMT_VECTORS(long, long int, 16)
SIMT_VECTORS(ulong, unsigned long int, 16)
SIMT_VECTORS(float, float, 8)
SIMT_VECTOR4(float4, float, 16, )
SIMT_VECTORS(longlong, long long int, 16)
SIMT_VECTORS(ulonglong, unsigned long long int, 16)
SIMT_VECTORS(double, double, 16)

// The 32-byte 4-vectors: deprecated at 16-byte alignment, and a 16- and a
// 32-byte aligned variant of each (make_ functions for every one, as
// vector_functions.hpp defines them).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
SIMT_VECTOR4(long4, long int, 16, SIMT_VECTOR_DEPRECATED("use long4_16a or long4_32a"))
SIMT_VECTOR4(ulong4, unsigned long int, 16, SIMT_VECTOR_DEPRECATED("use ulong4_16a or ulong4_32a"))
SIMT_VECTOR4(longlong4, long long int, 16, SIMT_VECTOR_DEPRECATED("use longlong4_16a or longlong4_32a"))
SIMT_VECTOR4(ulonglong4, unsigned long long int, 16, SIMT_VECTOR_DEPRECATED("use ulonglong4_16a or ulonglong4_32a"))
SIMT_VECTOR4(double4, double, 16, SIMT_VECTOR_DEPRECATED("use double4_16a or double4_32a"))
#pragma GCC diagnostic pop
SIMT_VECTOR4(long4_16a, long int, 16, )
SIMT_VECTOR4(long4_32a, long int, 32, )
SIMT_VECTOR4(ulong4_16a, unsigned long int, 16, )
SIMT_VECTOR4(ulong4_32a, unsigned long int, 32, )
SIMT_VECTOR4(longlong4_16a, long long int, 16, )
SIMT_VECTOR4(longlong4_32a, long long int, 32, )
SIMT_VECTOR4(ulonglong4_16a, unsigned long long int, 16, )
SIMT_VECTOR4(ulonglong4_32a, unsigned long long int, 32, )
SIMT_VECTOR4(double4_16a, double, 16, )
SIMT_VECTOR4(double4_32a, double, 32, )

#undef SIMT_VECTORS
#undef SIMT_VECTOR1
#undef SIMT_VECTOR2
#undef SIMT_VECTOR3
#undef SIMT_VECTOR4
#undef SIMT_VECTOR_DEPRECATED

struct dim3 {
    unsigned int x, y, z;
    __attribute__((no_sanitize_coverage)) constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

// Sizes and alignments as nvcc gives them on 64-bit Linux (vector_types.h;
// the conformance case vectors/layout records them from an H100's kernel).
namespace simt::vector_layout {
template <typename T, std::size_t Size, std::size_t Align>
constexpr bool is() {
    return sizeof(T) == Size && alignof(T) == Align;
}
static_assert(is<char1, 1, 1>() && is<char2, 2, 2>() && is<char3, 3, 1>() && is<char4, 4, 4>());
static_assert(is<uchar1, 1, 1>() && is<uchar2, 2, 2>() && is<uchar3, 3, 1>() && is<uchar4, 4, 4>());
static_assert(is<short1, 2, 2>() && is<short2, 4, 4>() && is<short3, 6, 2>() && is<short4, 8, 8>());
static_assert(is<ushort1, 2, 2>() && is<ushort2, 4, 4>() && is<ushort3, 6, 2>() && is<ushort4, 8, 8>());
static_assert(is<int1, 4, 4>() && is<int2, 8, 8>() && is<int3, 12, 4>() && is<int4, 16, 16>());
static_assert(is<uint1, 4, 4>() && is<uint2, 8, 8>() && is<uint3, 12, 4>() && is<uint4, 16, 16>());
static_assert(is<long1, 8, 8>() && is<long2, 16, 16>() && is<long3, 24, 8>());
static_assert(is<ulong1, 8, 8>() && is<ulong2, 16, 16>() && is<ulong3, 24, 8>());
static_assert(is<longlong1, 8, 8>() && is<longlong2, 16, 16>() && is<longlong3, 24, 8>());
static_assert(is<ulonglong1, 8, 8>() && is<ulonglong2, 16, 16>() && is<ulonglong3, 24, 8>());
static_assert(is<float1, 4, 4>() && is<float2, 8, 8>() && is<float3, 12, 4>() && is<float4, 16, 16>());
static_assert(is<double1, 8, 8>() && is<double2, 16, 16>() && is<double3, 24, 8>());
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static_assert(is<long4, 32, 16>() && is<ulong4, 32, 16>() && is<longlong4, 32, 16>() && is<ulonglong4, 32, 16>() &&
              is<double4, 32, 16>());
#pragma GCC diagnostic pop
static_assert(is<long4_16a, 32, 16>() && is<long4_32a, 32, 32>() && is<ulong4_16a, 32, 16>() &&
              is<ulong4_32a, 32, 32>());
static_assert(is<longlong4_16a, 32, 16>() && is<longlong4_32a, 32, 32>() && is<ulonglong4_16a, 32, 16>() &&
              is<ulonglong4_32a, 32, 32>());
static_assert(is<double4_16a, 32, 16>() && is<double4_32a, 32, 32>());
static_assert(is<dim3, 12, 4>());
}  // namespace simt::vector_layout
