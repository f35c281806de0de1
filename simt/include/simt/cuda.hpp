// The CUDA subset the labs use, for compiling a lab's unchanged .cu as C++ on
// the CPU emulator. The build force-includes this header into the rewritten
// source (see rewrite.hpp), whose <<<...>>> launches have become
// simt::launch(...) calls. Each GPU thread runs as a fiber; a block's fibers
// share one OS thread, so `static thread_local` is exactly block-shared memory.
#pragma once

#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

// ---- qualifiers -------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
// (__noinline__ is replaced by the rewriter, not defined here: rewrite.cpp.)
#define __launch_bounds__(...)
// One instance per block: all fibers of a block run on one OS thread. Each
// array 16-byte aligned: nvcc packs a kernel's arrays at their type's
// alignment, the first at offset 0, so a float4 view the GPU runs is never
// reported here as misaligned (misaligned_pointer); one it faults on may be missed.
// GCC's attribute, not alignas, which may not follow `volatile` or `const`
// (`volatile __shared__ int flag;`). The rewriter drops a `static` written
// with it (`static __shared__`): C++ takes one.
#define __shared__ __attribute__((aligned(16))) static thread_local
// CUDA's alignment qualifier (`__shared__ __align__(16) float tile[N];`,
// `struct __align__(16) pair {...}`), GCC's attribute, which may stand where
// nvcc allows it among the specifiers.
#define __align__(n) __attribute__((aligned(n)))
#define __constant__ static

#include "simt/vector_types.hpp"
#include "simt/intrinsics.hpp"
#include "simt/host_api.hpp"
#include "simt/thread.hpp"
#include "simt/warp.hpp"
#include "simt/atomics.hpp"
#include "simt/math.hpp"
#include "simt/launch.hpp"
#include "simt/memcalls.hpp"
