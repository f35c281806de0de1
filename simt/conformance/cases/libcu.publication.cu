// The libcu family's second part (libcu.cu says what the family covers and
// how it records): stores and loads with each order, plain data published
// across blocks and within a block through every order, fence and wait the
// atomics have, and cuda::std::atomic_flag.
#include <string>
#include <vector>

#include "cases/libcu_atomics.hpp"

namespace {

using namespace libcu_case;

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
