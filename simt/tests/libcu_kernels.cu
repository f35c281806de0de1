// Test kernels of libcu++'s atomics for the emulator, in CUDA syntax: the
// build rewrites this file with simt-rewrite as it rewrites a lab's scan.cu.
// test_simt.cpp asserts the line numbers of the accesses below.
#include "kernels.hpp"

// libcu++'s atomics publishing plain data across blocks (publish_chain's
// shape): block b writes data[b] and raises flags[b]; block b + 1 waits for
// it and reads data[b] with a plain load. `mode`:
//   0: a release store and acquire loads at device scope: no race;
//   1: relaxed on both sides, no fence: a race;
//   2: the release store at block scope (the loads acquire at device scope):
//      a race, as a block-scoped release does not publish to other blocks;
//   3: relaxed accesses, cuda::atomic_thread_fence at device scope on both
//      sides: no race;
//   4: cuda::std::atomic_ref's defaults (seq_cst at system scope): no race;
//   5: acq_rel exchange to publish, fetch_add(0) with acquire to wait: no race.
#include <cuda/atomic>

__global__ void libcu_publish_chain(float* data, unsigned* flags, float* out, int mode) {
    const unsigned b = blockIdx.x;
    if (threadIdx.x != 0) return;
    using Device = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
    using Block = cuda::atomic_ref<unsigned, cuda::thread_scope_block>;
    float before = 0.0f;
    if (b > 0) {
        Device flag(flags[b - 1]);
        if (mode == 1 || mode == 3) {
            while (flag.load(cuda::std::memory_order_relaxed) == 0) {
            }
            if (mode == 3) cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_device);
        } else if (mode == 4) {
            cuda::std::atomic_ref<unsigned>(flags[b - 1]).wait(0);  // line 32
        } else if (mode == 5) {
            while (flag.fetch_add(0, cuda::memory_order_acquire) == 0) {
            }
        } else {
            while (flag.load(cuda::std::memory_order_acquire) == 0) {  // line 37
            }
        }
        before = data[b - 1];  // line 40
    }
    data[b] = before + 1.0f;  // line 42
    if (mode == 0) Device(flags[b]).store(1, cuda::std::memory_order_release);
    if (mode == 1) Device(flags[b]).store(1, cuda::std::memory_order_relaxed);
    if (mode == 2) Block(flags[b]).store(1, cuda::memory_order_release);
    if (mode == 3) {
        cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_device);
        Device(flags[b]).store(1, cuda::memory_order_relaxed);
    }
    if (mode == 4) {
        cuda::std::atomic_ref<unsigned> flag(flags[b]);
        flag = 1;
        flag.notify_all();
    }
    if (mode == 5) Device(flags[b]).exchange(1, cuda::memory_order_acq_rel);
    out[b] = before;
}

cudaError_t launch_libcu_publish_chain(float* d_data, unsigned* d_flags, float* d_out, unsigned blocks, int mode) {
    libcu_publish_chain<<<blocks, 32>>>(d_data, d_flags, d_out, mode);  // line 60
    return cudaGetLastError();
}

// A release covers what its block wrote before it, not after: block 0 writes
// data[0], releases the flag, then writes data[1]; block 1 acquires the flag
// and reads both. data[0] is no race, data[1] is.
__global__ void libcu_release_then_write(float* data, unsigned* flag, float* out) {
    if (threadIdx.x != 0) return;
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0) {
        data[0] = 1.0f;
        f.store(1, cuda::memory_order_release);
        data[1] = 2.0f;  // line 73
    } else {
        while (f.load(cuda::memory_order_acquire) == 0) {
        }
        out[0] = data[0];
        out[1] = data[1];  // line 78
    }
}

cudaError_t launch_libcu_release_then_write(float* d_data, unsigned* d_flag, float* d_out) {
    libcu_release_then_write<<<2, 32>>>(d_data, d_flag, d_out);  // line 83
    return cudaGetLastError();
}
