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
//
// In parts (conformance.hpp): here the read-modify-writes, in
// libcu.publication.cu stores, loads, publication and atomic_flag; what
// both use is libcu_atomics.hpp's.
#include <string>
#include <vector>

#include "cases/libcu_atomics.hpp"

namespace {

using namespace libcu_case;

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

}  // namespace

// The read-modify-writes of cuda::atomic_ref at device scope, each with
// every order, on each type, and the operators (++, --, +=, -=, &=, |=, ^=;
// not named among the constructs: simt/docs/what-it-runs.md's table cannot hold `|=`).
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
