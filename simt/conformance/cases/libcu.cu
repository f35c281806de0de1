// libcu++'s atomics (<cuda/atomic>, <cuda/std/atomic>): every member of
// cuda::atomic_ref, cuda::atomic, cuda::std::atomic_ref and cuda::std::atomic
// on device memory, with each memory order and thread scope, and the fences.
//
// Every thread of 4 blocks of 64 updates one word (at block scope its block's
// word, at thread scope its own), so what each call returns depends on the
// order the threads ran in; a case records only what does not: the words'
// final values and, where the values handed back form the same multiset in
// every order, their sum, minimum and maximum (as order-preserving 64-bit
// keys), and counts (compare-exchanges that succeeded). Data published
// across blocks is read after the flag with a plain load, as a decoupled
// look-back does, so the emulator's race check sees each order's
// synchronisation: a finding there fails the case.
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/cstdint>
#include <cuda/std/type_traits>

#include <new>
#include <string>
#include <vector>

#include "conformance.hpp"

namespace {

constexpr unsigned kBlocks = 4, kThreads = 64, kN = kBlocks * kThreads;
using Order = cuda::std::memory_order;

// ---- how a kernel reaches the atomic at a word: a reference to a plain
// object, or an atomic object in device memory. kWhere: the word each
// thread uses (0: one for all, 1: its block's, 2: its own), as its scope allows.
constexpr int where_of(cuda::thread_scope s) {
    return s == cuda::thread_scope_block ? 1 : s == cuda::thread_scope_thread ? 2 : 0;
}
const char* scope_name(cuda::thread_scope s) {
    return s == cuda::thread_scope_system   ? "cuda::thread_scope_system"
           : s == cuda::thread_scope_device ? "cuda::thread_scope_device"
           : s == cuda::thread_scope_block  ? "cuda::thread_scope_block"
                                            : "cuda::thread_scope_thread";
}

}  // namespace

// (In a namespace with a name: nvcc warns of the members some views' kernels
// leave unused, in an unnamed one.)
namespace libcu_case {

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

}  // namespace libcu_case

namespace {

using namespace libcu_case;

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

// What the threads handed back: the sum (mod 2^64), minimum and maximum of
// their keys, and a count.
struct Agg {
    unsigned long long sum, min, max, count;
};

enum Op {
    kAddSame, kAddVarying, kSub, kAnd, kOr, kXor, kMin, kMax, kExchange, kCasStrong, kCasWeak, kCasOnce,
    kPreInc, kPostInc, kPreDec, kPostDec, kPlusEq, kMinusEq, kAndEq, kOrEq, kXorEq
};
// kSumWithFinal: the values handed back and the one left (the last
// thread's, which differs from run to run) form every value put in.
enum Recorded : unsigned { kSum = 1, kLow = 2, kHigh = 4, kCount = 8, kSumWithFinal = 16, kNoFinal = 32 };
struct OpInfo {
    Op op;
    const char* name;
    long long init;
    bool ordered;      // takes a memory order
    bool integral;     // integers only
    bool minmax;       // cuda:: only
    bool pointers;     // for pointers too
    unsigned recorded;  // what is the same in every order the threads may run in
};
// The values each op's threads use are in k_rmw.
const OpInfo kOps[] = {
    {kAddSame, "fetch_add", 100, true, false, false, true, kSum | kLow | kHigh},
    {kAddVarying, "fetch_add (operands differ)", 7, true, false, false, true, kLow},
    {kSub, "fetch_sub", 100000, true, false, false, true, kSum | kLow | kHigh},
    {kAnd, "fetch_and", -1, true, true, false, false, kHigh},
    {kOr, "fetch_or", 0, true, true, false, false, kLow},
    {kXor, "fetch_xor", 0x5a5a, true, true, false, false, kSum | kLow | kHigh},
    {kMin, "fetch_min", 50000, true, false, true, true, kHigh},
    {kMax, "fetch_max", 10, true, false, true, true, kLow},
    {kExchange, "exchange", 5, true, false, false, true, kSumWithFinal | kNoFinal},
    {kCasStrong, "compare_exchange_strong (a loop adding)", 1, true, false, false, true, kCount},
    {kCasWeak, "compare_exchange_weak (a loop adding, two orders)", 1, true, false, false, true, kCount},
    {kCasOnce, "compare_exchange_strong (once, two orders)", 0, true, false, false, true, kCount | kNoFinal},
    {kPreInc, "operator++", 1000, false, false, false, true, kSum | kLow | kHigh},
    {kPostInc, "operator++(int)", 1000, false, false, false, true, kSum | kLow | kHigh},
    {kPreDec, "operator--", 1000, false, false, false, true, kSum | kLow | kHigh},
    {kPostDec, "operator--(int)", 1000, false, false, false, true, kSum | kLow | kHigh},
    {kPlusEq, "operator+=", 1, false, false, false, true, kSum | kLow | kHigh},
    {kMinusEq, "operator-=", 100000, false, false, false, true, kSum | kLow | kHigh},
    {kAndEq, "operator&=", -1, false, true, false, false, kLow},
    {kOrEq, "operator|=", 0, false, true, false, false, kHigh},
    {kXorEq, "operator^=", 3, false, true, false, false, kSum | kLow | kHigh},
};

// A compare-exchange's failure order, from its success order.
__host__ __device__ Order failure_of(Order m) {
    return m == cuda::std::memory_order_acq_rel   ? cuda::std::memory_order_acquire
           : m == cuda::std::memory_order_release ? cuda::std::memory_order_relaxed
                                                  : m;
}

template <class V>
__global__ void k_init(typename V::storage* w, unsigned words, typename V::value_type v) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words) V::init(w + i, v);
}

// Each thread runs `op` once on its word; `defaults`: the overloads without
// an order (seq_cst), else with `m`.
template <class V>
__global__ void k_rmw(typename V::storage* w, Op op, Order m, bool defaults, Val<typename V::value_type> val,
                      Agg* agg) {
    using T = typename V::value_type;
    constexpr bool kInt = cuda::std::is_integral_v<T>;
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned i = V::kWhere == 0 ? 0 : V::kWhere == 1 ? blockIdx.x : t;
    auto&& a = V::at(w + i);
    T r{};
    unsigned long long count = 0;
#define ORDERED(call, ...) (defaults ? a.call(__VA_ARGS__) : a.call(__VA_ARGS__, m))
    switch (op) {
        case kAddSame: r = ORDERED(fetch_add, val.step(3)); break;
        case kAddVarying: r = ORDERED(fetch_add, val.step(t % 13 + 1)); break;
        case kSub: r = ORDERED(fetch_sub, val.step(5)); break;
        case kAnd:
            if constexpr (kInt) r = ORDERED(fetch_and, val.of(~(1ll << (t % 30))));
            break;
        case kOr:
            if constexpr (kInt) r = ORDERED(fetch_or, val.of(1ll << (t % 30)));
            break;
        case kXor:
            if constexpr (kInt) r = ORDERED(fetch_xor, val.of(0x0ff0));
            break;
        case kMin:
            if constexpr (V::kMinMax) r = ORDERED(fetch_min, val.of(40000 - 37ll * t));
            break;
        case kMax:
            if constexpr (V::kMinMax) r = ORDERED(fetch_max, val.of(37ll * t));
            break;
        case kExchange: r = ORDERED(exchange, val.of(t + 1)); break;
        case kCasStrong: {
            T expected = a.load(cuda::std::memory_order_relaxed);
            while (!ORDERED(compare_exchange_strong, expected, expected + val.step(t % 7 + 1))) {
            }
            count = 1;
            break;
        }
        case kCasWeak: {
            T expected = a.load(cuda::std::memory_order_relaxed);
            const Order f = defaults ? cuda::std::memory_order_seq_cst : failure_of(m);
            const Order s = defaults ? cuda::std::memory_order_seq_cst : m;
            while (!a.compare_exchange_weak(expected, expected + val.step(t % 7 + 1), s, f)) {
            }
            count = 1;
            break;
        }
        case kCasOnce: {
            // One thread of those sharing the word wins; each other finds the
            // winner's value in `expected`.
            T expected = val.of(0);
            const Order f = defaults ? cuda::std::memory_order_seq_cst : failure_of(m);
            const Order s = defaults ? cuda::std::memory_order_seq_cst : m;
            count = a.compare_exchange_strong(expected, val.of(t + 1), s, f) ? 1 : expected != val.of(0) ? 1000 : 0;
            break;
        }
        case kPreInc: r = ++a; break;
        case kPostInc: r = a++; break;
        case kPreDec: r = --a; break;
        case kPostDec: r = a--; break;
        case kPlusEq: r = (a += val.step(2)); break;
        case kMinusEq: r = (a -= val.step(3)); break;
        case kAndEq:
            if constexpr (kInt) r = (a &= val.of(~(1ll << (t % 30))));
            break;
        case kOrEq:
            if constexpr (kInt) r = (a |= val.of(1ll << (t % 30)));
            break;
        case kXorEq:
            if constexpr (kInt) r = (a ^= val.of(0x30));
            break;
    }
#undef ORDERED
    const unsigned long long k = val.key(r);
    atomicAdd(&agg->sum, k);
    atomicMin(&agg->min, k);
    atomicMax(&agg->max, k);
    atomicAdd(&agg->count, count);
}

template <class V>
__global__ void k_final(typename V::storage* w, unsigned words, Val<typename V::value_type> val,
                        unsigned long long* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < words) out[i] = val.key(V::at(w + i).load());
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
__host__ __device__ Order order_at(unsigned k) {
    return k == 0   ? cuda::std::memory_order_relaxed
           : k == 1 ? cuda::std::memory_order_acquire
           : k == 2 ? cuda::std::memory_order_release
           : k == 3 ? cuda::std::memory_order_acq_rel
                    : cuda::std::memory_order_seq_cst;
}
const char* order_name(Order m) {
    return m == cuda::std::memory_order_relaxed   ? "relaxed"
           : m == cuda::std::memory_order_acquire ? "acquire"
           : m == cuda::std::memory_order_release ? "release"
           : m == cuda::std::memory_order_acq_rel ? "acq_rel"
                                                  : "seq_cst";
}

// Runs every op the view and type have, with every order (`all_orders`) or
// with the overloads' default; records what is the same in every run.
template <class V>
void run_ops(conformance::Results& r, const char* type, bool all_orders) {
    using T = typename V::value_type;
    const unsigned words = V::kWhere == 0 ? 1 : V::kWhere == 1 ? kBlocks : kN;
    conformance::Buffer<int> pointees(1 << 17);
    const Val<T> val = values<T>(pointees);
    for (const OpInfo& info : kOps) {
        if (info.integral && !std::is_integral_v<T>) continue;
        if (info.minmax && !V::kMinMax) continue;
        if (std::is_pointer_v<T> && !info.pointers) continue;
        std::vector<std::pair<Order, bool>> runs;  // (order, defaults)
        if (info.ordered && all_orders)
            for (unsigned k = 0; k < 5; ++k) runs.push_back({order_at(k), false});
        else
            runs.push_back({cuda::std::memory_order_seq_cst, true});
        for (const auto& [m, defaults] : runs) {
            Words<V> w(words);
            k_init<V><<<conformance::blocks(words), 256>>>(w.get(), words, val.of(info.init));
            conformance::Buffer<Agg> agg(std::vector<Agg>{{0, ~0ull, 0, 0}});
            k_rmw<V><<<kBlocks, kThreads>>>(w.get(), info.op, m, defaults, val, agg);
            conformance::Buffer<unsigned long long> finals(words);
            k_final<V><<<conformance::blocks(words), 256>>>(w.get(), words, val, finals);
            const Agg a = agg.get()[0];
            std::vector<unsigned long long> out = finals.get();
            const unsigned rec = info.recorded;
            out.insert(out.begin(), {rec & kSum ? a.sum : 0, rec & kLow ? a.min : 0, rec & kHigh ? a.max : 0,
                                     rec & kCount ? a.count : 0});
            if (rec & kSumWithFinal) {
                out[0] = a.sum;
                for (std::size_t k = 4; k < out.size(); ++k) out[0] += out[k];
            }
            if (rec & kNoFinal)  // which thread was last (exchange) or first (the winner) varies
                for (std::size_t k = 4; k < out.size(); ++k) out[k] = 0;
            r.exact(V::name(type) + " " + info.name + (defaults ? "" : std::string(" ") + order_name(m)) +
                        " (sum, min, max, count, final)",
                    out);
        }
    }
}

// ---- stores, then (after the barrier) loads of a neighbour's word in the
// block (at thread scope its own): each order a store and a load take, and
// operator= with the conversion (seq_cst).
template <class V>
__global__ void k_store_load(typename V::storage* w, Order store, Order load, bool operators,
                             Val<typename V::value_type> val, unsigned long long* out) {
    const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    auto&& mine = V::at(w + t);
    if (operators) mine = val.of(5ll * t + 1);
    else mine.store(val.of(5ll * t + 1), store);
    __syncthreads();
    const unsigned other = V::kWhere == 2 ? t : blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x;
    auto&& theirs = V::at(w + other);
    const typename V::value_type v = operators ? static_cast<typename V::value_type>(theirs) : theirs.load(load);
    out[t] = val.key(v);
}

template <class V>
void run_store_load(conformance::Results& r, const char* type, bool all_orders) {
    using T = typename V::value_type;
    conformance::Buffer<int> pointees(1 << 17);
    const Val<T> val = values<T>(pointees);
    struct Run {
        Order store, load;
        bool operators;
    };
    std::vector<Run> runs = {{cuda::std::memory_order_release, cuda::std::memory_order_acquire, false},
                             {cuda::std::memory_order_seq_cst, cuda::std::memory_order_seq_cst, true}};
    if (all_orders)
        for (Order s : {cuda::std::memory_order_relaxed, cuda::std::memory_order_seq_cst})
            for (Order l : {cuda::std::memory_order_relaxed, cuda::std::memory_order_acquire,
                            cuda::std::memory_order_seq_cst})
                runs.push_back({s, l, false});
    for (const Run& run : runs) {
        Words<V> w(kN);
        conformance::Buffer<unsigned long long> out(kN);
        k_store_load<V><<<kBlocks, kThreads>>>(w.get(), run.store, run.load, run.operators, val, out);
        r.exact(V::name(type) + (run.operators ? std::string(" operator= and conversion")
                                               : std::string(" store ") + order_name(run.store) + ", load " +
                                                     order_name(run.load)),
                out.get());
    }
}

// ---- one block publishes plain data to another through a flag, in every
// way the orders, fences and waits allow: block 0's threads write data[t],
// meet at a barrier, and thread 0 raises the flag; block 1's thread 0 waits
// for it, its threads meet at a barrier and each reads data[t].
enum Pass {
    kReleaseAcquire,   // store(release) / load(acquire), cuda::memory_order_* spellings
    kSeqCstOperators,  // operator= / the conversion, at system scope
    kFences,           // relaxed accesses, cuda::atomic_thread_fence (orders and scopes as given)
    kStdFences,        // cuda::std::atomic_ref relaxed, cuda::std::atomic_thread_fence(seq_cst)
    kExchangeCas,      // exchange(acq_rel) / compare_exchange_strong(acquire, relaxed) until it finds 1
    kFetchAddFetchOr,  // fetch_add(release) / fetch_or(0, acq_rel)
    kCasWeakPublish,   // compare_exchange_weak(release, relaxed) / fetch_max(0, acquire) ... cuda:: only
    kWaitNotifyAll,    // store(release), notify_all / wait(0, acquire)
    kWaitNotifyOne,    // cuda::atomic: store, notify_one / wait(0) (seq_cst)
    kStdOwned,         // cuda::std::atomic: store(release) / load(acquire); its wait and notify_all
    kStdRefWait,       // cuda::std::atomic_ref: store(seq_cst), notify_one / wait(0, acquire)
};
struct Flags {
    unsigned* plain;
    cuda::atomic<unsigned, cuda::thread_scope_device>* owned;
    cuda::std::atomic<unsigned>* std_owned;
};

__global__ void k_message(unsigned* data, Flags flags, Pass how, Order wo, cuda::thread_scope ws, Order ro,
                          cuda::thread_scope rs, unsigned* out) {
    using Device = cuda::atomic_ref<unsigned, cuda::thread_scope_device>;
    using System = cuda::atomic_ref<unsigned, cuda::thread_scope_system>;
    const unsigned t = threadIdx.x;
    if (blockIdx.x == 0) {
        data[t] = 7 * t + 3;
        __syncthreads();
        if (t != 0) return;
        Device flag(*flags.plain);
        switch (how) {
            case kReleaseAcquire: flag.store(1, cuda::memory_order_release); break;
            case kSeqCstOperators: System(*flags.plain) = 1; break;
            case kFences:
                cuda::atomic_thread_fence(wo, ws);
                flag.store(1, cuda::memory_order_relaxed);
                break;
            case kStdFences:
                cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
                cuda::std::atomic_ref<unsigned>(*flags.plain).store(1, cuda::std::memory_order_relaxed);
                break;
            case kExchangeCas: flag.exchange(1, cuda::memory_order_acq_rel); break;
            case kFetchAddFetchOr: flag.fetch_add(1, cuda::memory_order_release); break;
            case kCasWeakPublish: {
                unsigned expected = 0;
                while (!flag.compare_exchange_weak(expected, 1, cuda::memory_order_release, cuda::memory_order_relaxed))
                    expected = 0;
                break;
            }
            case kWaitNotifyAll:
                flag.store(1, cuda::memory_order_release);
                flag.notify_all();
                break;
            case kWaitNotifyOne:
                flags.owned->store(1);
                flags.owned->notify_one();
                break;
            case kStdOwned:
                flags.std_owned->store(1, cuda::std::memory_order_release);
                flags.std_owned->notify_all();
                break;
            case kStdRefWait: {
                cuda::std::atomic_ref<unsigned> std_flag(*flags.plain);
                std_flag.store(1);
                std_flag.notify_one();
                break;
            }
        }
    } else {
        if (t == 0) {
            Device flag(*flags.plain);
            switch (how) {
                case kReleaseAcquire:
                    while (flag.load(cuda::memory_order_acquire) != 1) {
                    }
                    break;
                case kSeqCstOperators:
                    while (System(*flags.plain) != 1u) {
                    }
                    break;
                case kFences:
                    while (flag.load(cuda::memory_order_relaxed) != 1) {
                    }
                    cuda::atomic_thread_fence(ro, rs);
                    break;
                case kStdFences:
                    while (cuda::std::atomic_ref<unsigned>(*flags.plain).load(cuda::std::memory_order_relaxed) != 1) {
                    }
                    cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);
                    break;
                case kExchangeCas: {
                    unsigned expected = 1;
                    while (!flag.compare_exchange_strong(expected, 1, cuda::memory_order_acquire,
                                                         cuda::memory_order_relaxed))
                        expected = 1;
                    break;
                }
                case kFetchAddFetchOr:
                    while (flag.fetch_or(0, cuda::memory_order_acq_rel) == 0) {
                    }
                    break;
                case kCasWeakPublish:
                    while (flag.fetch_max(0, cuda::memory_order_acquire) == 0) {
                    }
                    break;
                case kWaitNotifyAll: flag.wait(0, cuda::memory_order_acquire); break;
                case kWaitNotifyOne: flags.owned->wait(0); break;
                case kStdOwned:
                    flags.std_owned->wait(0, cuda::std::memory_order_acquire);
                    while (flags.std_owned->load(cuda::std::memory_order_acquire) != 1) {
                    }
                    break;
                case kStdRefWait:
                    cuda::std::atomic_ref<unsigned>(*flags.plain).wait(0, cuda::std::memory_order_acquire);
                    break;
            }
        }
        __syncthreads();
        out[t] = data[t];
    }
}

void run_message(conformance::Results& r, const std::string& label, Pass how,
                 Order wo = cuda::std::memory_order_seq_cst, cuda::thread_scope ws = cuda::thread_scope_device,
                 Order ro = cuda::std::memory_order_seq_cst, cuda::thread_scope rs = cuda::thread_scope_device) {
    conformance::Buffer<unsigned> data(kThreads), out(kThreads), plain(1);
    Words<CudaOwned<unsigned, cuda::thread_scope_device>> owned(1);
    Words<StdOwned<unsigned>> std_owned(1);
    k_init<CudaOwned<unsigned, cuda::thread_scope_device>><<<1, 1>>>(owned.get(), 1, 0u);
    k_init<StdOwned<unsigned>><<<1, 1>>>(std_owned.get(), 1, 0u);
    k_message<<<2, kThreads>>>(data, Flags{plain, owned.get(), std_owned.get()}, how, wo, ws, ro, rs, out);
    r.exact(label, out.get());
}

// ---- within a block: warp 0's thread 0 stores data with relaxed atomics at
// block scope and publishes it at block scope; warp 1's thread 0 waits and
// reads it (atomically: the race check orders plain accesses in a block by
// barriers alone). `fence`: a block-scoped fence and relaxed flag, else a
// release store and an acquire load. Thread scope: each thread's own word,
// fenced at thread scope.
__global__ void k_block_message(unsigned* data, unsigned* flag, unsigned* own, bool fence, unsigned* out) {
    using Block = cuda::atomic_ref<unsigned, cuda::thread_scope_block>;
    using Thread = cuda::atomic_ref<unsigned, cuda::thread_scope_thread>;
    const unsigned t = threadIdx.x;
    if (t == 0) {
        for (unsigned k = 0; k < kThreads; ++k) Block(data[k]).store(11 * k + 2, cuda::memory_order_relaxed);
        if (fence) {
            cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_block);
            Block(*flag).store(1, cuda::memory_order_relaxed);
        } else {
            Block(*flag).store(1, cuda::memory_order_release);
        }
    } else if (t == 32) {
        if (fence) {
            while (Block(*flag).load(cuda::memory_order_relaxed) == 0) {
            }
            cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
        } else {
            while (Block(*flag).load(cuda::memory_order_acquire) == 0) {
            }
        }
        unsigned sum = 0;
        for (unsigned k = 0; k < kThreads; ++k) sum += Block(data[k]).load(cuda::memory_order_relaxed);
        out[kThreads] = sum;
    }
    Thread mine(own[t]);
    mine.store(t + 9, cuda::memory_order_relaxed);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_thread);
    cuda::atomic_thread_fence(cuda::memory_order_relaxed, cuda::thread_scope_device);
    out[t] = mine.fetch_add(1, cuda::memory_order_acq_rel) + mine.load(cuda::memory_order_acquire);
}

// ---- cuda::std::atomic_flag: every thread of the grid tests and sets one
// flag (one finds it clear); then one thread tests, clears and tests again.
__global__ void k_flag_set(cuda::std::atomic_flag* flag, unsigned long long* cleared) {
    const Order m = order_at(threadIdx.x % 5);
    if (!flag->test_and_set(m)) atomicAdd(cleared, 1ull);
}
__global__ void k_flag_clear(cuda::std::atomic_flag* flag, unsigned long long* out) {
    out[0] = flag->test(cuda::std::memory_order_acquire);
    flag->clear(cuda::std::memory_order_release);
    out[1] = flag->test();
    out[2] = flag->test_and_set();
    out[3] = flag->test(cuda::std::memory_order_relaxed);
    flag->clear();
    out[4] = flag->test(cuda::std::memory_order_seq_cst);
}

}  // namespace

// The read-modify-writes of cuda::atomic_ref at device scope, each with
// every order, on each type, and the operators (++, --, +=, -=, &=, |=, ^=;
// not named among the constructs: simt/README.md's table cannot hold `|=`).
CONFORMANCE_CASE(atomic_ref_read_modify_write,
                 "cuda::atomic_ref cuda::thread_scope_device fetch_add fetch_sub fetch_and fetch_or fetch_xor "
                 "fetch_min fetch_max exchange compare_exchange_weak compare_exchange_strong "
                 "cuda::std::memory_order_relaxed cuda::std::memory_order_acquire cuda::std::memory_order_release "
                 "cuda::std::memory_order_acq_rel cuda::std::memory_order_seq_cst") {
    constexpr auto D = cuda::thread_scope_device;
    run_ops<CudaRef<int, D>>(r, "int", true);
    run_ops<CudaRef<unsigned, D>>(r, "unsigned", true);
    run_ops<CudaRef<long long, D>>(r, "long long", true);
    run_ops<CudaRef<unsigned long long, D>>(r, "unsigned long long", true);
    run_ops<CudaRef<float, D>>(r, "float", true);
    run_ops<CudaRef<double, D>>(r, "double", true);
    run_ops<CudaRef<int*, D>>(r, "int*", true);
}

// cuda::atomic objects in device memory and cuda::std's atomic and
// atomic_ref, with the overloads' default order.
CONFORMANCE_CASE(atomic_objects_read_modify_write,
                 "cuda::atomic cuda::std::atomic cuda::std::atomic_ref fetch_add fetch_sub fetch_and fetch_or "
                 "fetch_xor fetch_min fetch_max exchange compare_exchange_weak compare_exchange_strong") {
    constexpr auto D = cuda::thread_scope_device;
    run_ops<CudaOwned<unsigned, D>>(r, "unsigned", false);
    run_ops<CudaOwned<long long, D>>(r, "long long", false);
    run_ops<CudaOwned<float, D>>(r, "float", false);
    run_ops<CudaOwned<double, D>>(r, "double", false);
    run_ops<CudaOwned<int*, D>>(r, "int*", false);
    run_ops<StdOwned<int>>(r, "int", false);
    run_ops<StdOwned<unsigned long long>>(r, "unsigned long long", false);
    run_ops<StdOwned<double>>(r, "double", false);
    run_ops<StdOwned<int*>>(r, "int*", false);
    run_ops<StdRef<unsigned>>(r, "unsigned", false);
    run_ops<StdRef<long long>>(r, "long long", false);
    run_ops<StdRef<float>>(r, "float", false);
}

// Each scope: at system scope one word for the grid, at block scope one per
// block, at thread scope one per thread (an atomic's scope must hold every
// thread that uses it).
CONFORMANCE_CASE(atomic_scopes,
                 "cuda::atomic_ref cuda::atomic cuda::thread_scope_system cuda::thread_scope_block "
                 "cuda::thread_scope_thread fetch_add fetch_and fetch_max exchange compare_exchange_strong") {
    run_ops<CudaRef<unsigned, cuda::thread_scope_system>>(r, "unsigned", false);
    run_ops<CudaRef<unsigned, cuda::thread_scope_block>>(r, "unsigned", false);
    run_ops<CudaRef<float, cuda::thread_scope_block>>(r, "float", false);
    run_ops<CudaRef<unsigned long long, cuda::thread_scope_thread>>(r, "unsigned long long", false);
    run_ops<CudaOwned<int, cuda::thread_scope_block>>(r, "int", false);
    run_ops<CudaOwned<double, cuda::thread_scope_system>>(r, "double", false);
}

CONFORMANCE_CASE(atomic_load_store,
                 "cuda::atomic_ref cuda::atomic cuda::std::atomic cuda::std::atomic_ref load store "
                 "cuda::std::memory_order_relaxed cuda::std::memory_order_acquire cuda::std::memory_order_release "
                 "cuda::std::memory_order_seq_cst cuda::thread_scope_thread") {
    constexpr auto D = cuda::thread_scope_device;
    run_store_load<CudaRef<int, D>>(r, "int", true);
    run_store_load<CudaRef<unsigned, D>>(r, "unsigned", true);
    run_store_load<CudaRef<long long, D>>(r, "long long", true);
    run_store_load<CudaRef<unsigned long long, D>>(r, "unsigned long long", true);
    run_store_load<CudaRef<float, D>>(r, "float", true);
    run_store_load<CudaRef<double, D>>(r, "double", true);
    run_store_load<CudaRef<int*, D>>(r, "int*", true);
    run_store_load<CudaRef<unsigned, cuda::thread_scope_thread>>(r, "unsigned", false);
    run_store_load<CudaOwned<float, cuda::thread_scope_block>>(r, "float", false);
    run_store_load<StdOwned<long long>>(r, "long long", false);
    run_store_load<StdRef<double>>(r, "double", false);
}

// Plain data published from one block to another: the reader's values.
CONFORMANCE_CASE(atomic_publication,
                 "cuda::atomic_ref cuda::atomic cuda::std::atomic cuda::std::atomic_ref cuda::atomic_thread_fence "
                 "cuda::std::atomic_thread_fence cuda::memory_order_relaxed cuda::memory_order_acquire "
                 "cuda::memory_order_release cuda::memory_order_acq_rel cuda::memory_order_seq_cst "
                 "cuda::thread_scope_device cuda::thread_scope_system wait notify_one notify_all load store "
                 "exchange compare_exchange_weak compare_exchange_strong fetch_add fetch_or fetch_max") {
    run_message(r, "store(release) / load(acquire)", kReleaseAcquire);
    run_message(r, "operator= / conversion at system scope", kSeqCstOperators);
    for (Order wo : {cuda::memory_order_release, cuda::memory_order_acq_rel, cuda::memory_order_seq_cst})
        for (Order ro : {cuda::memory_order_acquire, cuda::memory_order_acq_rel, cuda::memory_order_seq_cst})
            for (cuda::thread_scope s : {cuda::thread_scope_device, cuda::thread_scope_system})
                run_message(r,
                            std::string("cuda::atomic_thread_fence(") + order_name(wo) + ") / (" + order_name(ro) +
                                "), " + scope_name(s),
                            kFences, wo, s, ro, s);
    run_message(r, "cuda::std::atomic_thread_fence(seq_cst)", kStdFences);
    run_message(r, "exchange(acq_rel) / compare_exchange_strong(acquire)", kExchangeCas);
    run_message(r, "fetch_add(release) / fetch_or(acq_rel)", kFetchAddFetchOr);
    run_message(r, "compare_exchange_weak(release) / fetch_max(acquire)", kCasWeakPublish);
    run_message(r, "store(release), notify_all / wait(acquire)", kWaitNotifyAll);
    run_message(r, "cuda::atomic store, notify_one / wait", kWaitNotifyOne);
    run_message(r, "cuda::std::atomic store(release), notify_all / wait, load(acquire)", kStdOwned);
    run_message(r, "cuda::std::atomic_ref store, notify_one / wait(acquire)", kStdRefWait);
}

CONFORMANCE_CASE(atomic_block_and_thread_scope,
                 "cuda::atomic_ref cuda::thread_scope_block cuda::thread_scope_thread cuda::atomic_thread_fence "
                 "cuda::memory_order_relaxed cuda::memory_order_acquire cuda::memory_order_release "
                 "cuda::memory_order_acq_rel cuda::memory_order_seq_cst load store fetch_add") {
    for (bool fence : {false, true}) {
        conformance::Buffer<unsigned> data(kThreads), flag(1), own(kThreads), out(kThreads + 1);
        k_block_message<<<1, kThreads>>>(data, flag, own, fence, out);
        r.exact(fence ? "block-scoped fences" : "block-scoped release and acquire", out.get());
    }
}

CONFORMANCE_CASE(atomic_flag, "cuda::std::atomic_flag test_and_set test clear") {
    conformance::Buffer<unsigned long long> flag(1), cleared(1), out(5);
    auto* f = static_cast<cuda::std::atomic_flag*>(static_cast<void*>(static_cast<unsigned long long*>(flag)));
    k_flag_set<<<kBlocks, kThreads>>>(f, cleared);
    r.exact("test_and_set: threads that found it clear", cleared.get());
    k_flag_clear<<<1, 1>>>(f, out);
    r.exact("test, clear, test, test_and_set, test, clear, test", out.get());
}
