// What the libcu family's files (libcu.cu, libcu.publication.cu) share: how
// a kernel reaches an atomic (four views: cuda:: and cuda::std::, a reference
// to a plain object or an atomic object), the values and keys of each type,
// device memory for the atomics, and the memory orders by number and name.
#pragma once

#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <new>
#include <string>
#include <type_traits>

#include "conformance.hpp"

// (In a namespace with a name: nvcc warns of the members some views' kernels
// leave unused, in an unnamed one.)
namespace libcu_case {

constexpr unsigned kBlocks = 4, kThreads = 64, kN = kBlocks * kThreads;
using Order = cuda::std::memory_order;

// ---- how a kernel reaches the atomic at a word: a reference to a plain
// object, or an atomic object in device memory. kWhere: the word each
// thread uses (0: one for all, 1: its block's, 2: its own), as its scope allows.
constexpr int where_of(cuda::thread_scope s) {
    return s == cuda::thread_scope_block ? 1 : s == cuda::thread_scope_thread ? 2 : 0;
}
inline const char* scope_name(cuda::thread_scope s) {
    return s == cuda::thread_scope_system   ? "cuda::thread_scope_system"
           : s == cuda::thread_scope_device ? "cuda::thread_scope_device"
           : s == cuda::thread_scope_block  ? "cuda::thread_scope_block"
                                            : "cuda::thread_scope_thread";
}

template <class T, cuda::thread_scope S>
struct CudaRef {
    using value_type = T;
    using storage = T;
    static constexpr bool kMinMax = true;
    static constexpr int kWhere = where_of(S);
    static std::string name(const char* type) { return std::string("cuda::atomic_ref<") + type + ", " + scope_name(S) + ">"; }
    __device__ static cuda::atomic_ref<T, S> at(storage* p) { return cuda::atomic_ref<T, S>(*p); }
    __device__ static void init(storage* p, T v) { at(p).store(v, cuda::std::memory_order_relaxed); }
};
template <class T, cuda::thread_scope S>
struct CudaOwned {
    using value_type = T;
    using storage = cuda::atomic<T, S>;
    static constexpr bool kMinMax = true;
    static constexpr int kWhere = where_of(S);
    static std::string name(const char* type) { return std::string("cuda::atomic<") + type + ", " + scope_name(S) + ">"; }
    __device__ static storage& at(storage* p) { return *p; }
    __device__ static void init(storage* p, T v) { new (p) storage(v); }
};
template <class T>
struct StdRef {
    using value_type = T;
    using storage = T;
    static constexpr bool kMinMax = false;
    static constexpr int kWhere = 0;
    static std::string name(const char* type) { return std::string("cuda::std::atomic_ref<") + type + ">"; }
    __device__ static cuda::std::atomic_ref<T> at(storage* p) { return cuda::std::atomic_ref<T>(*p); }
    __device__ static void init(storage* p, T v) { at(p).store(v, cuda::std::memory_order_relaxed); }
};
template <class T>
struct StdOwned {
    using value_type = T;
    using storage = cuda::std::atomic<T>;
    static constexpr bool kMinMax = false;
    static constexpr int kWhere = 0;
    static std::string name(const char* type) { return std::string("cuda::std::atomic<") + type + ">"; }
    __device__ static storage& at(storage* p) { return *p; }
    __device__ static void init(storage* p, T v) { new (p) storage(v); }
};

// ---- values: k as a T (floating point k / 4, exact; a pointer base + k),
// steps (pointers move by elements), and keys that order values as T does.
template <class T>
struct Val {
    T base;  // pointers: an element of a buffer; otherwise unused
    __host__ __device__ T of(long long k) const {
        if constexpr (cuda::std::is_pointer_v<T>) return base + k;
        else if constexpr (cuda::std::is_floating_point_v<T>) return static_cast<T>(k) * static_cast<T>(0.25);
        else return static_cast<T>(k);
    }
    __host__ __device__ auto step(long long k) const {
        if constexpr (cuda::std::is_pointer_v<T>) return static_cast<cuda::std::ptrdiff_t>(k);
        else return of(k);
    }
    __device__ unsigned long long key(T v) const {
        if constexpr (cuda::std::is_pointer_v<T>) {
            return static_cast<unsigned long long>(static_cast<long long>(v - base)) ^ (1ull << 63);
        } else if constexpr (cuda::std::is_floating_point_v<T>) {
            const double d = v;
            unsigned long long b;
            memcpy(&b, &d, sizeof b);
            return (b >> 63) ? ~b : b | (1ull << 63);
        } else if constexpr (cuda::std::is_signed_v<T>) {
            return static_cast<unsigned long long>(static_cast<long long>(v)) ^ (1ull << 63);
        } else {
            return static_cast<unsigned long long>(v);
        }
    }
};

template <class V>
__global__ void k_init(typename V::storage* w, unsigned words, typename V::value_type v) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words) V::init(w + i, v);
}

// Device memory for `words` atomics of the view's storage, freed at the end.
template <class V>
struct Words {
    using S = typename V::storage;
    explicit Words(unsigned n) : bytes(n * sizeof(S)) {}
    conformance::Buffer<unsigned char> bytes;
    S* get() const { return static_cast<S*>(static_cast<void*>(static_cast<unsigned char*>(bytes))); }
};

// A pointer's values point into this buffer (never dereferenced).
template <class T>
Val<T> values(conformance::Buffer<int>& buffer) {
    if constexpr (std::is_pointer_v<T>) return {static_cast<int*>(buffer)};
    else return {T{}};
}

// The five orders a read-modify-write takes, by number.
inline __host__ __device__ Order order_at(unsigned k) {
    return k == 0   ? cuda::std::memory_order_relaxed
           : k == 1 ? cuda::std::memory_order_acquire
           : k == 2 ? cuda::std::memory_order_release
           : k == 3 ? cuda::std::memory_order_acq_rel
                    : cuda::std::memory_order_seq_cst;
}
inline const char* order_name(Order m) {
    return m == cuda::std::memory_order_relaxed   ? "relaxed"
           : m == cuda::std::memory_order_acquire ? "acquire"
           : m == cuda::std::memory_order_release ? "release"
           : m == cuda::std::memory_order_acq_rel ? "acq_rel"
                                                  : "seq_cst";
}

}  // namespace libcu_case
