// CUDA's built-in vector types and dim3 (vector_types.h), aligned as CUDA aligns them.
#pragma once

#include <cstddef>

struct uint3 {
    unsigned x, y, z;
};

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};

// Vector types, aligned as CUDA aligns them: one float4 load or store is one
// 16-byte access (a warp's 32 of them one 512-byte transaction on a GPU).
struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) float4 {
    float x, y, z, w;
};
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
