// One kernel per device primitive the emulator accepts, each with a result
// that only a working primitive gives. Built for the emulator through the
// rewriter with the kernel instrumentation (test_primitives.cpp runs them)
// and, wherever nvcc exists, by nvcc too (simt/meson.build), so a primitive
// that stops compiling, linking or working on either side fails the build or
// the suite. Every kernel runs one block of 64 threads (two warps) and leaves
// one 64-bit number in *result.
#include "primitives.hpp"

#include <algorithm>
#include <cstring>

namespace {

constexpr unsigned kThreads = 64;

// The value at *p as the suite compares it: integers as their 64-bit two's
// complement, floating point times 4 (the sums below are multiples of 0.25).
__device__ unsigned long long encode(int v) { return static_cast<unsigned long long>(static_cast<long long>(v)); }
__device__ unsigned long long encode(unsigned v) { return v; }
__device__ unsigned long long encode(long long v) { return static_cast<unsigned long long>(v); }
__device__ unsigned long long encode(unsigned long long v) { return v; }
__device__ unsigned long long encode(float v) { return static_cast<unsigned long long>(v * 4.0f); }
__device__ unsigned long long encode(double v) { return static_cast<unsigned long long>(v * 4.0); }

// After every thread's update, thread 0 reports the word.
template <typename T>
__device__ void publish(const T* p, unsigned long long* result) {
    __syncthreads();
    if (threadIdx.x == 0) *result = encode(*p);
}

// ---- fences: thread 0 writes data, fences, then raises a flag with an atomic.
enum class Fence { Device, Block, System, Builtin };

#ifndef __NVCC__
// GCC warns that ThreadSanitizer does not model fences: the emulator needs no
// model, one OS thread runs every block.
#pragma GCC diagnostic ignored "-Wtsan"
#endif

__device__ void write_fence_flag(void* scratch, unsigned long long* result, int value, Fence fence) {
    int* w = static_cast<int*>(scratch);
    if (threadIdx.x == 0) {
        w[1] = value;
        switch (fence) {
            case Fence::Device: __threadfence(); break;
            case Fence::Block: __threadfence_block(); break;
            case Fence::System: __threadfence_system(); break;
            case Fence::Builtin:
#ifndef __NVCC__
                // Not CUDA: GCC's builtin (std::atomic_thread_fence is the same),
                // which reaches the emulator as __tsan_atomic_thread_fence.
                __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
                break;
        }
        atomicExch(&w[0], 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) *result = 100ull * static_cast<unsigned>(w[0]) + static_cast<unsigned>(w[1]);
}

__global__ void k_threadfence(void* s, unsigned long long* r) { write_fence_flag(s, r, 42, Fence::Device); }
__global__ void k_threadfence_block(void* s, unsigned long long* r) { write_fence_flag(s, r, 43, Fence::Block); }
__global__ void k_threadfence_system(void* s, unsigned long long* r) { write_fence_flag(s, r, 44, Fence::System); }
__global__ void k_cxx_fence(void* s, unsigned long long* r) { write_fence_flag(s, r, 45, Fence::Builtin); }

// ---- volatile stores, then volatile loads of every other thread's word.
__global__ void k_volatile(void* scratch, unsigned long long* result) {
    volatile int* v = static_cast<int*>(scratch);
    v[threadIdx.x] = 3 * static_cast<int>(threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) {
        long long sum = 0;
        for (unsigned i = 0; i < kThreads; ++i) sum += v[i];
        *result = static_cast<unsigned long long>(sum);
    }
}

// ---- __ldg: each thread loads its word through the read-only path.
__global__ void k_ldg(void* scratch, unsigned long long* result) {
    const unsigned long long* in = static_cast<const unsigned long long*>(scratch);
    atomicAdd(result, __ldg(&in[threadIdx.x]));
}

// float4: 16-byte stores and loads (a warp's 512 contiguous bytes), read back
// by another thread after the barrier.
__global__ void k_float4(void* scratch, unsigned long long* result) {
    float4* v = static_cast<float4*>(scratch);
    const unsigned t = threadIdx.x;
    if (t < 32) v[t] = make_float4(t, t + 0.25f, t + 0.5f, t + 0.75f);
    __syncthreads();
    if (t < 32) {
        const float4 f = v[31 - t];
        atomicAdd(result, encode(f.x + f.y + f.z + f.w));
    }
}

// ---- atomics: every thread updates one word.
__global__ void k_atomic_add_int(void* s, unsigned long long* r) {
    atomicAdd(static_cast<int*>(s), static_cast<int>(threadIdx.x));
    publish(static_cast<int*>(s), r);
}
__global__ void k_atomic_add_unsigned(void* s, unsigned long long* r) {
    atomicAdd(static_cast<unsigned*>(s), threadIdx.x + 1000u);
    publish(static_cast<unsigned*>(s), r);
}
__global__ void k_atomic_add_ull(void* s, unsigned long long* r) {
    atomicAdd(static_cast<unsigned long long*>(s), 1ull << 40);
    publish(static_cast<unsigned long long*>(s), r);
}
__global__ void k_atomic_add_float(void* s, unsigned long long* r) {
    atomicAdd(static_cast<float*>(s), 0.5f);
    publish(static_cast<float*>(s), r);
}
__global__ void k_atomic_add_double(void* s, unsigned long long* r) {
    atomicAdd(static_cast<double*>(s), 0.25);
    publish(static_cast<double*>(s), r);
}
__global__ void k_atomic_sub_int(void* s, unsigned long long* r) {
    atomicSub(static_cast<int*>(s), static_cast<int>(threadIdx.x));
    publish(static_cast<int*>(s), r);
}
__global__ void k_atomic_sub_unsigned(void* s, unsigned long long* r) {
    atomicSub(static_cast<unsigned*>(s), 1u);
    publish(static_cast<unsigned*>(s), r);
}
// Exchanges: the values handed back plus the one left form every value put in.
__global__ void k_atomic_exch_int(void* s, unsigned long long* r) {
    atomicAdd(r, encode(atomicExch(static_cast<int*>(s), static_cast<int>(threadIdx.x) + 1)));
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(r, encode(*static_cast<int*>(s)));
}
__global__ void k_atomic_exch_unsigned(void* s, unsigned long long* r) {
    atomicAdd(r, encode(atomicExch(static_cast<unsigned*>(s), threadIdx.x + 1)));
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(r, encode(*static_cast<unsigned*>(s)));
}
__global__ void k_atomic_exch_ull(void* s, unsigned long long* r) {
    atomicAdd(r, atomicExch(static_cast<unsigned long long*>(s), (threadIdx.x + 1ull) << 33));
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(r, *static_cast<unsigned long long*>(s));
}
__global__ void k_atomic_exch_float(void* s, unsigned long long* r) {
    atomicAdd(r, encode(atomicExch(static_cast<float*>(s), static_cast<float>(threadIdx.x + 1))));
    __syncthreads();
    if (threadIdx.x == 0) atomicAdd(r, encode(*static_cast<float*>(s)));
}
__global__ void k_atomic_max_int(void* s, unsigned long long* r) {
    atomicMax(static_cast<int*>(s), static_cast<int>(threadIdx.x) - 100);
    publish(static_cast<int*>(s), r);
}
__global__ void k_atomic_max_unsigned(void* s, unsigned long long* r) {
    atomicMax(static_cast<unsigned*>(s), 3 * threadIdx.x);
    publish(static_cast<unsigned*>(s), r);
}
__global__ void k_atomic_max_ll(void* s, unsigned long long* r) {
    atomicMax(static_cast<long long*>(s), (static_cast<long long>(threadIdx.x) << 35) - (1ll << 40));
    publish(static_cast<long long*>(s), r);
}
__global__ void k_atomic_max_ull(void* s, unsigned long long* r) {
    atomicMax(static_cast<unsigned long long*>(s), static_cast<unsigned long long>(threadIdx.x) << 36);
    publish(static_cast<unsigned long long*>(s), r);
}
__global__ void k_atomic_min_int(void* s, unsigned long long* r) {
    atomicMin(static_cast<int*>(s), static_cast<int>(threadIdx.x) - 10);
    publish(static_cast<int*>(s), r);
}
__global__ void k_atomic_min_unsigned(void* s, unsigned long long* r) {
    atomicMin(static_cast<unsigned*>(s), threadIdx.x + 5);
    publish(static_cast<unsigned*>(s), r);
}
__global__ void k_atomic_min_ll(void* s, unsigned long long* r) {
    atomicMin(static_cast<long long*>(s), (static_cast<long long>(threadIdx.x) + 1) << 34);
    publish(static_cast<long long*>(s), r);
}
__global__ void k_atomic_min_ull(void* s, unsigned long long* r) {
    atomicMin(static_cast<unsigned long long*>(s), threadIdx.x + 7ull);
    publish(static_cast<unsigned long long*>(s), r);
}
__global__ void k_atomic_and_int(void* s, unsigned long long* r) {
    atomicAnd(static_cast<int*>(s), ~(1 << (threadIdx.x % 31)));
    publish(static_cast<int*>(s), r);
}
__global__ void k_atomic_and_unsigned(void* s, unsigned long long* r) {
    atomicAnd(static_cast<unsigned*>(s), ~(1u << (threadIdx.x % 24)));
    publish(static_cast<unsigned*>(s), r);
}
__global__ void k_atomic_and_ull(void* s, unsigned long long* r) {
    atomicAnd(static_cast<unsigned long long*>(s), ~(1ull << (threadIdx.x % 48)));
    publish(static_cast<unsigned long long*>(s), r);
}
__global__ void k_atomic_or_int(void* s, unsigned long long* r) {
    atomicOr(static_cast<int*>(s), 1 << (threadIdx.x % 20));
    publish(static_cast<int*>(s), r);
}
__global__ void k_atomic_or_unsigned(void* s, unsigned long long* r) {
    atomicOr(static_cast<unsigned*>(s), 1u << (threadIdx.x % 32));
    publish(static_cast<unsigned*>(s), r);
}
__global__ void k_atomic_or_ull(void* s, unsigned long long* r) {
    atomicOr(static_cast<unsigned long long*>(s), 1ull << (threadIdx.x % 40 + 20));
    publish(static_cast<unsigned long long*>(s), r);
}
__global__ void k_atomic_xor_int(void* s, unsigned long long* r) {
    atomicXor(static_cast<int*>(s), static_cast<int>(threadIdx.x) + 1);
    publish(static_cast<int*>(s), r);
}
__global__ void k_atomic_xor_unsigned(void* s, unsigned long long* r) {
    atomicXor(static_cast<unsigned*>(s), 3 * threadIdx.x + 1);
    publish(static_cast<unsigned*>(s), r);
}
__global__ void k_atomic_xor_ull(void* s, unsigned long long* r) {
    atomicXor(static_cast<unsigned long long*>(s), 1ull << (threadIdx.x % 3 + 50));
    publish(static_cast<unsigned long long*>(s), r);
}
__global__ void k_atomic_inc(void* s, unsigned long long* r) {
    atomicInc(static_cast<unsigned*>(s), 9u);
    publish(static_cast<unsigned*>(s), r);
}
__global__ void k_atomic_dec(void* s, unsigned long long* r) {
    atomicDec(static_cast<unsigned*>(s), 9u);
    publish(static_cast<unsigned*>(s), r);
}
// Compare-and-swap as the usual loop: an addition built on it.
__global__ void k_atomic_cas_int(void* s, unsigned long long* r) {
    int* p = static_cast<int*>(s);
    int seen = atomicOr(p, 0), assumed;
    do {
        assumed = seen;
        seen = atomicCAS(p, assumed, assumed + static_cast<int>(threadIdx.x));
    } while (seen != assumed);
    publish(p, r);
}
__global__ void k_atomic_cas_unsigned(void* s, unsigned long long* r) {
    unsigned* p = static_cast<unsigned*>(s);
    unsigned seen = atomicOr(p, 0u), assumed;
    do {
        assumed = seen;
        seen = atomicCAS(p, assumed, assumed + 2 * threadIdx.x);
    } while (seen != assumed);
    publish(p, r);
}
__global__ void k_atomic_cas_ull(void* s, unsigned long long* r) {
    unsigned long long* p = static_cast<unsigned long long*>(s);
    unsigned long long seen = atomicOr(p, 0ull), assumed;
    do {
        assumed = seen;
        seen = atomicCAS(p, assumed, assumed + (1ull << 33));
    } while (seen != assumed);
    publish(p, r);
}

// ---- warp functions. Lane = threadIdx.x % 32; each lane adds what it got.
__global__ void k_syncwarp(void* s, unsigned long long* r) {
    // Each lane adds its own word in two steps with a __syncwarp() between
    // them; (the race check orders accesses by __syncthreads() only, so a
    // lane reading another lane's word here would be reported).
    int* w = static_cast<int*>(s);
    w[threadIdx.x] = static_cast<int>(threadIdx.x);
    __syncwarp();
    w[threadIdx.x] += 1;
    __syncwarp(0xffffffffu);
    atomicAdd(r, encode(w[threadIdx.x]));
}
__global__ void k_shfl(void*, unsigned long long* r) {
    atomicAdd(r, encode(__shfl_sync(0xffffffffu, 10 * static_cast<int>(threadIdx.x), 3)));
}
__global__ void k_shfl_up(void*, unsigned long long* r) {
    atomicAdd(r, encode(__shfl_up_sync(0xffffffffu, threadIdx.x, 1)));
}
__global__ void k_shfl_down(void*, unsigned long long* r) {
    atomicAdd(r, encode(__shfl_down_sync(0xffffffffu, threadIdx.x, 2, 16)));
}
__global__ void k_shfl_xor(void*, unsigned long long* r) {
    atomicAdd(r, encode(__shfl_xor_sync(0xffffffffu, 100 + threadIdx.x, 5)));
}
__global__ void k_ballot(void*, unsigned long long* r) {
    const unsigned bits = __ballot_sync(0xffffffffu, threadIdx.x % 3 == 0);
    if (threadIdx.x % 32 == 0) atomicAdd(r, static_cast<unsigned long long>(bits) << (threadIdx.x / 32 * 32));
}
__global__ void k_any_all(void*, unsigned long long* r) {
    const bool any = __any_sync(0xffffffffu, threadIdx.x == 40);
    const bool all = __all_sync(0xffffffffu, threadIdx.x < 60);
    if (threadIdx.x % 32 == 0) atomicAdd(r, (any ? 1ull : 0ull) + (all ? 10ull : 0ull));
}
__global__ void k_activemask(void*, unsigned long long* r) {
    const unsigned mask = __activemask();
    if (threadIdx.x % 32 == 0) atomicAdd(r, static_cast<unsigned long long>(mask));
}

using Kernel = void (*)(void*, unsigned long long*);

const struct {
    const char* name;
    Kernel kernel;
} kKernels[] = {
    {"__threadfence", k_threadfence},
    {"__threadfence_block", k_threadfence_block},
    {"__threadfence_system", k_threadfence_system},
#ifndef __NVCC__
    {"__atomic_thread_fence (emulator only)", k_cxx_fence},
#endif
    {"volatile", k_volatile},
    {"__ldg", k_ldg},
    {"float4, make_float4", k_float4},
    {"atomicAdd int", k_atomic_add_int},
    {"atomicAdd unsigned", k_atomic_add_unsigned},
    {"atomicAdd unsigned long long", k_atomic_add_ull},
    {"atomicAdd float", k_atomic_add_float},
    {"atomicAdd double", k_atomic_add_double},
    {"atomicSub int", k_atomic_sub_int},
    {"atomicSub unsigned", k_atomic_sub_unsigned},
    {"atomicExch int", k_atomic_exch_int},
    {"atomicExch unsigned", k_atomic_exch_unsigned},
    {"atomicExch unsigned long long", k_atomic_exch_ull},
    {"atomicExch float", k_atomic_exch_float},
    {"atomicMax int", k_atomic_max_int},
    {"atomicMax unsigned", k_atomic_max_unsigned},
    {"atomicMax long long", k_atomic_max_ll},
    {"atomicMax unsigned long long", k_atomic_max_ull},
    {"atomicMin int", k_atomic_min_int},
    {"atomicMin unsigned", k_atomic_min_unsigned},
    {"atomicMin long long", k_atomic_min_ll},
    {"atomicMin unsigned long long", k_atomic_min_ull},
    {"atomicAnd int", k_atomic_and_int},
    {"atomicAnd unsigned", k_atomic_and_unsigned},
    {"atomicAnd unsigned long long", k_atomic_and_ull},
    {"atomicOr int", k_atomic_or_int},
    {"atomicOr unsigned", k_atomic_or_unsigned},
    {"atomicOr unsigned long long", k_atomic_or_ull},
    {"atomicXor int", k_atomic_xor_int},
    {"atomicXor unsigned", k_atomic_xor_unsigned},
    {"atomicXor unsigned long long", k_atomic_xor_ull},
    {"atomicInc", k_atomic_inc},
    {"atomicDec", k_atomic_dec},
    {"atomicCAS int", k_atomic_cas_int},
    {"atomicCAS unsigned", k_atomic_cas_unsigned},
    {"atomicCAS unsigned long long", k_atomic_cas_ull},
    {"__syncwarp", k_syncwarp},
    {"__shfl_sync", k_shfl},
    {"__shfl_up_sync", k_shfl_up},
    {"__shfl_down_sync", k_shfl_down},
    {"__shfl_xor_sync", k_shfl_xor},
    {"__ballot_sync", k_ballot},
    {"__any_sync __all_sync", k_any_all},
    {"__activemask", k_activemask},
};

}  // namespace

std::vector<std::string> primitive_names() {
    std::vector<std::string> names;
    for (const auto& k : kKernels) names.push_back(k.name);
    return names;
}

cudaError_t run_primitive(const std::string& name, const std::vector<unsigned long long>& scratch_init,
                          unsigned long long* result) {
    Kernel kernel = nullptr;
    for (const auto& k : kKernels)
        if (name == k.name) kernel = k.kernel;
    if (kernel == nullptr) return cudaErrorInvalidValue;
    std::vector<unsigned long long> init(kThreads, 0);
    std::memcpy(init.data(), scratch_init.data(), std::min(init.size(), scratch_init.size()) * sizeof init[0]);
    void* scratch = nullptr;
    unsigned long long* d_result = nullptr;
    cudaError_t err = cudaMalloc(&scratch, kThreads * sizeof(unsigned long long));
    if (err == cudaSuccess) err = cudaMalloc(&d_result, sizeof *d_result);
    if (err == cudaSuccess) err = cudaMemcpy(scratch, init.data(), kThreads * sizeof init[0], cudaMemcpyHostToDevice);
    if (err == cudaSuccess) err = cudaMemset(d_result, 0, sizeof *d_result);
    if (err == cudaSuccess) {
        kernel<<<1, kThreads>>>(scratch, d_result);
        err = cudaGetLastError();
    }
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err == cudaSuccess) err = cudaMemcpy(result, d_result, sizeof *result, cudaMemcpyDeviceToHost);
    cudaFree(scratch);
    cudaFree(d_result);
    return err;
}
