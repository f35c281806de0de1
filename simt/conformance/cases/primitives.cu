// CUDA's device primitives the labs' kernels were first written with, each
// in a kernel of its own: one block of 64 threads (two warps) updates a
// scratch array and leaves one 64-bit number (moved here from the
// emulator's own primitives test, which checked them against values worked
// out from CUDA's definitions; the record is now the GPU's).
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "conformance.hpp"

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
enum class Fence { Device, Block, System };

__device__ void write_fence_flag(void* scratch, unsigned long long* result, int value, Fence fence) {
    int* w = static_cast<int*>(scratch);
    if (threadIdx.x == 0) {
        w[1] = value;
        switch (fence) {
            case Fence::Device: __threadfence(); break;
            case Fence::Block: __threadfence_block(); break;
            case Fence::System: __threadfence_system(); break;
        }
        atomicExch(&w[0], 1);
    }
    __syncthreads();
    if (threadIdx.x == 0) *result = 100ull * static_cast<unsigned>(w[0]) + static_cast<unsigned>(w[1]);
}

__global__ void k_threadfence(void* s, unsigned long long* r) { write_fence_flag(s, r, 42, Fence::Device); }
__global__ void k_threadfence_block(void* s, unsigned long long* r) { write_fence_flag(s, r, 43, Fence::Block); }
__global__ void k_threadfence_system(void* s, unsigned long long* r) { write_fence_flag(s, r, 44, Fence::System); }

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

struct Primitive {
    const char* name;
    Kernel kernel;
    std::vector<unsigned long long> scratch;  // the scratch array's first words (the rest zero)
};

// Runs each primitive's kernel on its scratch and records the number it leaves.
void run_all(conformance::Results& r, const std::vector<Primitive>& primitives) {
    for (const Primitive& p : primitives) {
        std::vector<unsigned long long> init(kThreads, 0);
        std::copy(p.scratch.begin(), p.scratch.end(), init.begin());
        conformance::Buffer<unsigned long long> scratch(init), result(1);
        p.kernel<<<1, kThreads>>>(scratch, result);
        r.exact(p.name, result.get());
    }
}

std::vector<unsigned long long> ldg_scratch() {
    std::vector<unsigned long long> v(kThreads);
    for (unsigned i = 0; i < kThreads; ++i) v[i] = 5 * i + 1;
    return v;
}
unsigned long long bits_of(float f) {
    unsigned b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}
unsigned long long as_u64(long long v) { return static_cast<unsigned long long>(v); }

}  // namespace

CONFORMANCE_CASE(fences_and_memory, "__threadfence __threadfence_block __threadfence_system volatile __ldg float4 make_float4") {
    run_all(r, {
        {"__threadfence", k_threadfence, {}},
        {"__threadfence_block", k_threadfence_block, {}},
        {"__threadfence_system", k_threadfence_system, {}},
        {"volatile", k_volatile, {}},
        {"__ldg", k_ldg, ldg_scratch()},
        {"float4, make_float4", k_float4, {}},
    });
}

CONFORMANCE_CASE(atomics, "atomicAdd atomicSub atomicExch atomicMax atomicMin atomicAnd atomicOr atomicXor atomicInc atomicDec atomicCAS") {
    run_all(r, {
        {"atomicAdd int", k_atomic_add_int, {}},
        {"atomicAdd unsigned", k_atomic_add_unsigned, {}},
        {"atomicAdd unsigned long long", k_atomic_add_ull, {}},
        {"atomicAdd float", k_atomic_add_float, {}},
        {"atomicAdd double", k_atomic_add_double, {}},
        {"atomicSub int", k_atomic_sub_int, {5000}},
        {"atomicSub unsigned", k_atomic_sub_unsigned, {5000}},
        {"atomicExch int", k_atomic_exch_int, {0}},
        {"atomicExch unsigned", k_atomic_exch_unsigned, {7}},
        {"atomicExch unsigned long long", k_atomic_exch_ull, {1}},
        {"atomicExch float", k_atomic_exch_float, {bits_of(2.5f)}},
        {"atomicMax int", k_atomic_max_int, {static_cast<unsigned>(-1000)}},
        {"atomicMax unsigned", k_atomic_max_unsigned, {0}},
        {"atomicMax long long", k_atomic_max_ll, {as_u64(-(1ll << 50))}},
        {"atomicMax unsigned long long", k_atomic_max_ull, {0}},
        {"atomicMin int", k_atomic_min_int, {1000}},
        {"atomicMin unsigned", k_atomic_min_unsigned, {1000}},
        {"atomicMin long long", k_atomic_min_ll, {1ull << 60}},
        {"atomicMin unsigned long long", k_atomic_min_ull, {~0ull}},
        {"atomicAnd int", k_atomic_and_int, {0xffffffffull}},
        {"atomicAnd unsigned", k_atomic_and_unsigned, {0xffffffffull}},
        {"atomicAnd unsigned long long", k_atomic_and_ull, {~0ull}},
        {"atomicOr int", k_atomic_or_int, {0}},
        {"atomicOr unsigned", k_atomic_or_unsigned, {0}},
        {"atomicOr unsigned long long", k_atomic_or_ull, {0}},
        {"atomicXor int", k_atomic_xor_int, {0}},
        {"atomicXor unsigned", k_atomic_xor_unsigned, {0}},
        {"atomicXor unsigned long long", k_atomic_xor_ull, {0}},
        {"atomicInc", k_atomic_inc, {0}},
        {"atomicDec", k_atomic_dec, {0}},
        {"atomicCAS int", k_atomic_cas_int, {0}},
        {"atomicCAS unsigned", k_atomic_cas_unsigned, {3}},
        {"atomicCAS unsigned long long", k_atomic_cas_ull, {0}},
    });
}

CONFORMANCE_CASE(warp_functions, "__syncwarp __shfl_sync __shfl_up_sync __shfl_down_sync __shfl_xor_sync __ballot_sync __any_sync __all_sync __activemask") {
    run_all(r, {
        {"__syncwarp", k_syncwarp, {}},
        {"__shfl_sync", k_shfl, {}},
        {"__shfl_up_sync", k_shfl_up, {}},
        {"__shfl_down_sync", k_shfl_down, {}},
        {"__shfl_xor_sync", k_shfl_xor, {}},
        {"__ballot_sync", k_ballot, {}},
        {"__any_sync __all_sync", k_any_all, {}},
        {"__activemask", k_activemask, {}},
    });
}
