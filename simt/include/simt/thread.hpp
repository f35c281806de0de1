// Device built-ins of the running GPU thread: its indices, the block barrier,
// fences and read-only loads.
#pragma once

#include "simt/vector_types.hpp"

namespace simt {

struct ThreadIndex {
    uint3 thread_idx, block_idx;
    dim3 block_dim, grid_dim;
};

// The GPU thread the calling fiber emulates. The shim reads it by value, so
// the kernel file never loads the runtime's own memory (the host-memory
// check would see that as a kernel touching host data).
const ThreadIndex& current();
#define SIMT_RUNTIME_READ __attribute__((no_sanitize_thread)) inline
SIMT_RUNTIME_READ uint3 thread_idx() { return current().thread_idx; }
SIMT_RUNTIME_READ uint3 block_idx() { return current().block_idx; }
SIMT_RUNTIME_READ dim3 block_dim() { return current().block_dim; }
SIMT_RUNTIME_READ dim3 grid_dim() { return current().grid_dim; }
void syncthreads(const char* file, int line);
void* dynamic_shared();

}  // namespace simt

#define threadIdx (::simt::thread_idx())
#define blockIdx (::simt::block_idx())
#define blockDim (::simt::block_dim())
#define gridDim (::simt::grid_dim())
// A constant, not a macro: cudaDeviceProp has a member of that name.
constexpr int warpSize = 32;
#define __syncthreads() ::simt::syncthreads(__FILE__, __LINE__)
// One OS thread runs every block's fibers, so memory is always coherent: a
// fence is a call into the runtime, which keeps the compiler from moving
// accesses across it. (Not __atomic_thread_fence: under -fsanitize=thread GCC
// turns that into __tsan_atomic_thread_fence, which memcheck.cpp defines too,
// for code that writes it directly.)
// A device-wide fence also tells the race check that the thread's block has
// published what it wrote before (memcheck.cpp); __threadfence_block does not.
namespace simt {
void threadfence(bool device_wide = true);
}
#define __threadfence() ::simt::threadfence()
#define __threadfence_block() ::simt::threadfence(false)
#define __threadfence_system() ::simt::threadfence()

// Read-only loads through the texture path: a plain load here (instrumented,
// so the memory checks see it).
template <typename T>
inline T __ldg(const T* address) {
    return *address;
}
