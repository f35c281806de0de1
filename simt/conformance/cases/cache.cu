// The cache-hinted loads and stores, for the scalar types CUDA overloads
// them for and float2/float4 (the other vector types where the shim has
// them); and the way look-back scans use the coherent ones: a flag published
// with __stcg after a __threadfence(), polled with __ldcv, then the data read
// with __ldcg.
#include <string>
#include <vector>

#include "conformance.hpp"

namespace {

constexpr unsigned kThreads = 256;

// Each thread handles a word's worth of elements (4 chars, 2 shorts, one
// of the others): the emulator checks 1- and 2-byte accesses per 4-byte
// word, so threads that write bytes of one word would be reported racing.
template <typename T>
constexpr unsigned kPer = sizeof(T) >= 4 ? 1u : 4u / static_cast<unsigned>(sizeof(T));

template <typename T>
__global__ void k_loads(const T* in, T* out) {
    const unsigned n = kThreads;
    for (unsigned j = 0; j < kPer<T>; ++j) {
        const unsigned e = threadIdx.x * kPer<T> + j;
        const T* p = in + (e * 37u) % n;  // every element once, in another order
        out[e] = __ldg(p);
        out[n + e] = __ldca(p);
        out[2 * n + e] = __ldcg(p);
        out[3 * n + e] = __ldcs(p);
        out[4 * n + e] = __ldlu(p);
        out[5 * n + e] = __ldcv(p);
    }
}

template <typename T>
__global__ void k_stores(const T* in, T* out) {
    const unsigned n = kThreads, words = kThreads / kPer<T>;
    const unsigned w = (threadIdx.x * 37u) % words;  // the words in another order
    for (unsigned j = 0; j < kPer<T>; ++j) {
        const unsigned e = w * kPer<T> + j;
        const T v = in[e];
        __stwb(out + e, v);
        __stcg(out + n + e, v);
        __stcs(out + 2 * n + e, v);
        __stwt(out + 3 * n + e, v);
    }
}

template <typename T>
void record(conformance::Results& r, const char* type, const std::vector<T>& in) {
    static const char* const loads[6] = {"__ldg", "__ldca", "__ldcg", "__ldcs", "__ldlu", "__ldcv"};
    static const char* const stores[4] = {"__stwb", "__stcg", "__stcs", "__stwt"};
    conformance::Buffer<T> d_in(in), d_loaded(6 * kThreads), d_stored(4 * kThreads);
    const unsigned threads = kThreads / kPer<T>;
    k_loads<T><<<1, threads>>>(d_in, d_loaded);
    k_stores<T><<<1, threads>>>(d_in, d_stored);
    const std::vector<T> loaded = d_loaded.get(), stored = d_stored.get();
    for (unsigned k = 0; k < 6; ++k)
        r.exact(std::string(loads[k]) + " " + type,
                std::vector<T>(loaded.begin() + k * kThreads, loaded.begin() + (k + 1) * kThreads));
    for (unsigned k = 0; k < 4; ++k)
        r.exact(std::string(stores[k]) + " " + type,
                std::vector<T>(stored.begin() + k * kThreads, stored.begin() + (k + 1) * kThreads));
}

// float2 and float4: each function loads and stores whole vectors, recorded
// as their floats.
template <typename V>
__global__ void k_vectors(const V* in, V* out) {
    const unsigned t = threadIdx.x, n = blockDim.x;
    const V* p = in + (t * 37u) % n;
    V* q = out + 10 * t;
    q[0] = __ldg(p);
    q[1] = __ldca(p);
    q[2] = __ldcg(p);
    q[3] = __ldcs(p);
    q[4] = __ldlu(p);
    q[5] = __ldcv(p);
    __stwb(q + 6, *p);
    __stcg(q + 7, *p);
    __stcs(q + 8, *p);
    __stwt(q + 9, *p);
}

template <typename V>
void record_vectors(conformance::Results& r, const char* type, const std::vector<float>& floats) {
    constexpr unsigned per = sizeof(V) / sizeof(float);
    std::vector<V> in(kThreads);
    std::memcpy(in.data(), floats.data(), kThreads * sizeof(V) < floats.size() * sizeof(float) ? kThreads * sizeof(V)
                                                                                                  : floats.size() * sizeof(float));
    conformance::Buffer<V> d_in(in), d_out(10 * kThreads);
    k_vectors<V><<<1, kThreads>>>(d_in, d_out);
    const std::vector<V> out = d_out.get();
    std::vector<float> flat(out.size() * per);
    std::memcpy(flat.data(), out.data(), flat.size() * sizeof(float));
    r.exact(std::string("__ldg __ldca __ldcg __ldcs __ldlu __ldcv __stwb __stcg __stcs __stwt ") + type, flat);
}

// A chained publication, as a look-back scan's: each block takes a ticket,
// waits for the flag of the block before it (a volatile poll), fences, reads
// its total, adds its own and publishes: the total with a plain store,
// __threadfence(), then the flag. kHow 0 reads the total with __ldcg and
// raises the flag with __stcg, 1 with __ldcv and __stwt: ptxas makes both
// stores strong and the loads read what the fence ordered. (A wait that
// polls with __ldcv or __ldcg is no wait on an H100: ptxas removed the empty
// loop; the emulator reports it, memcheck_reports.cpp's hinted_access.)
template <int kHow>
__global__ void k_publish(unsigned* tickets, unsigned* totals, unsigned* flags, const unsigned* in) {
    if (threadIdx.x != 0) return;
    const unsigned ticket = atomicAdd(tickets, 1u);
    unsigned prior = 0;
    if (ticket > 0) {
        while (*(volatile unsigned*)&flags[ticket - 1] == 0u) {
        }
        __threadfence();
        prior = kHow == 0 ? __ldcg(&totals[ticket - 1]) : __ldcv(&totals[ticket - 1]);
    }
    totals[ticket] = prior + in[ticket];
    __threadfence();
    if (kHow == 0) __stcg(&flags[ticket], 1u);
    else __stwt(&flags[ticket], 1u);
}

template <typename T, typename U>
std::vector<T> as(const std::vector<U>& v) {
    std::vector<T> out;
    for (std::size_t i = 0; i < kThreads; ++i) out.push_back(static_cast<T>(v[i]));
    return out;
}

}  // namespace

CONFORMANCE_CASE(hinted_scalars, "__ldg __ldca __ldcg __ldcs __ldlu __ldcv __stwb __stcg __stcs __stwt") {
    const auto u = conformance::u32_inputs();
    const auto u64 = conformance::u64_inputs();
    record(r, "char", as<char>(u));
    record(r, "signed char", as<signed char>(u));
    record(r, "unsigned char", as<unsigned char>(u));
    record(r, "short", as<short>(u));
    record(r, "unsigned short", as<unsigned short>(u));
    record(r, "int", as<int>(u));
    record(r, "unsigned", as<unsigned>(u));
    record(r, "long", as<long>(u64));
    record(r, "unsigned long", as<unsigned long>(u64));
    record(r, "long long", as<long long>(u64));
    record(r, "unsigned long long", as<unsigned long long>(u64));
    record(r, "float", as<float>(conformance::f32_inputs()));
    record(r, "double", as<double>(conformance::f64_inputs()));
}

CONFORMANCE_CASE(hinted_vectors, "__ldg __ldca __ldcg __ldcs __ldlu __ldcv __stwb __stcg __stcs __stwt float2 float4") {
    std::vector<float> floats = conformance::f32_inputs();
    while (floats.size() < 4 * kThreads) floats.push_back(static_cast<float>(floats.size()) * 0.25f);
    record_vectors<float2>(r, "float2", floats);
    record_vectors<float4>(r, "float4", floats);
}

CONFORMANCE_CASE(hinted_publication, "__ldcg __ldcv __stcg __stwt __threadfence") {
    constexpr unsigned kBlocks = 16;
    const auto u = conformance::u32_inputs();
    const std::vector<unsigned> values(u.begin(), u.begin() + kBlocks);
    conformance::Buffer<unsigned> tickets(1), totals(kBlocks), flags(kBlocks), in(values);
    k_publish<0><<<kBlocks, 64>>>(tickets, totals, flags, in);
    r.exact("running totals read with __ldcg, flags raised with __stcg", totals.get());
    r.exact("flags raised with __stcg", flags.get());
    conformance::Buffer<unsigned> tickets2(1), totals2(kBlocks), flags2(kBlocks);
    k_publish<1><<<kBlocks, 64>>>(tickets2, totals2, flags2, in);
    r.exact("running totals read with __ldcv, flags raised with __stwt", totals2.get());
    r.exact("flags raised with __stwt", flags2.get());
}
