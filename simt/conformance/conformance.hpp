// The differential suite: cases that run one source on the CPU emulator and
// on a GPU, each recording what its kernels computed. The driver
// (driver.cpp) writes a GPU's results (--record) and compares the
// emulator's with them (--expect): bit for bit where CUDA is exact, within
// the bound the CUDA Math API documents where it is not. Each case names the
// constructs it exercises, as simt/docs/what-it-runs.md's table of what the
// emulator runs names them; a test keeps the two lists equal.
//
// A case file (cases/NAME.cu, the family NAME) is compiled by nvcc and, for
// the emulator, through the rewriter like a student's scan.cu. A family too
// long for one file is in parts, cases/NAME.cu and cases/NAME.PART.cu (the
// family is a file's name up to its first dot), one record between them:
//
//   __global__ void k_ffs(const unsigned* in, int* out, unsigned n) { ... }
//   CONFORMANCE_CASE(ffs, "__ffs __ffsll") {
//       const auto in = conformance::u32_inputs();
//       conformance::Buffer<unsigned> d_in(in);
//       conformance::Buffer<int> d_out(in.size());
//       k_ffs<<<conformance::blocks(in.size()), 256>>>(d_in, d_out, in.size());
//       r.exact("__ffs(x)", d_out.get());
//   }
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace conformance {

enum class How { Exact, Ulps, Absolute };

// One array of results: exact (integers, or floating point bit for bit, any
// NaN equal to any NaN), or within `tolerance` ulps or absolutely.
struct Values {
    std::string label;  // what was computed: "__ffs(x)"
    std::string type;   // i8 ... u64, f32, f64
    How how = How::Exact;
    double tolerance = 0;
    std::vector<std::uint64_t> bits;
};

template <typename T>
const char* type_name() {
    if constexpr (std::is_same_v<T, float>) return "f32";
    else if constexpr (std::is_same_v<T, double>) return "f64";
    else if constexpr (std::is_same_v<T, bool>) return "u8";
    else {
        static_assert(std::is_integral_v<T>, "conformance: integers, float or double");
        static const char* const names[2][4] = {{"u8", "u16", "u32", "u64"}, {"i8", "i16", "i32", "i64"}};
        const int size = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
        return names[std::is_signed_v<T>][size];
    }
}

template <typename T>
std::uint64_t bits_of(T v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof v);
    return b;
}

// What a case records; the driver fills in a failure of the case itself.
class Results {
public:
    template <typename T>
    void exact(const std::string& label, const std::vector<T>& v) {
        add(label, type_name<T>(), How::Exact, 0, v);
    }
    template <typename T>
    void exact(const std::string& label, T v) {
        exact(label, std::vector<T>{v});
    }
    // Within `ulps` units in the last place: the Math API's documented bound.
    template <typename T>
    void ulps(const std::string& label, const std::vector<T>& v, double ulps) {
        static_assert(std::is_floating_point_v<T>, "ulps are for float and double");
        add(label, type_name<T>(), How::Ulps, ulps, v);
    }
    // Within an absolute error (the intrinsics' bounds, such as __sinf's).
    template <typename T>
    void absolute(const std::string& label, const std::vector<T>& v, double bound) {
        static_assert(std::is_floating_point_v<T>, "absolute bounds are for float and double");
        add(label, type_name<T>(), How::Absolute, bound, v);
    }
    // A CUDA call that must succeed; a failure ends the case with its name.
    void require(cudaError_t e, const char* call);

    std::vector<Values> values;
    std::string problem;  // why the case failed to run ("" when it ran)

private:
    template <typename T>
    void add(const std::string& label, const char* type, How how, double tolerance, const std::vector<T>& v) {
        Values out{label, type, how, tolerance, {}};
        for (const T& x : v) out.bits.push_back(bits_of(x));
        values.push_back(std::move(out));
    }
};

struct Case {
    std::string family;      // the case file's name: cases/FAMILY.cu (or FAMILY.PART.cu)
    std::string name;
    std::string constructs;  // space-separated, as simt/docs/what-it-runs.md names them
    void (*run)(Results&);
};
int add(const char* file, const char* name, const char* constructs, void (*run)(Results&));
const std::vector<Case>& cases();

// Thrown by Results::require: the driver records the case as not run.
struct Failed {
    std::string what;
};

// A device array, filled from the host or zeroed, read back with get().
template <typename T>
class Buffer {
public:
    explicit Buffer(std::size_t n) : n_(n) { alloc(); }
    explicit Buffer(const std::vector<T>& v) : n_(v.size()) {
        alloc();
        check(cudaMemcpy(d_, v.data(), bytes(), cudaMemcpyHostToDevice), "cudaMemcpy");
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { cudaFree(d_); }
    operator T*() const { return d_; }
    std::size_t size() const { return n_; }
    std::vector<T> get() const {
        check(cudaDeviceSynchronize(), "a kernel");
        std::vector<T> h(n_);
        check(cudaMemcpy(h.data(), d_, bytes(), cudaMemcpyDeviceToHost), "cudaMemcpy");
        return h;
    }

private:
    std::size_t bytes() const { return (n_ ? n_ : 1) * sizeof(T); }
    void alloc() {
        check(cudaMalloc(&d_, bytes()), "cudaMalloc");
        check(cudaMemset(d_, 0, bytes()), "cudaMemset");
    }
    static void check(cudaError_t e, const char* call) {
        if (e != cudaSuccess) throw Failed{std::string(call) + ": " + cudaGetErrorString(e)};
    }
    T* d_ = nullptr;
    std::size_t n_;
};

inline unsigned blocks(std::size_t n, unsigned threads = 256) { return static_cast<unsigned>((n + threads - 1) / threads); }

// Inputs: CUDA's edge cases first (zero, signs, powers of two, extremes;
// for floating point also infinities, NaN, subnormals), then values from a
// fixed pseudo-random sequence, the same on every machine.
std::vector<unsigned> u32_inputs();
std::vector<unsigned long long> u64_inputs();
std::vector<int> i32_inputs();
std::vector<float> f32_inputs();
std::vector<double> f64_inputs();

}  // namespace conformance

#define CONFORMANCE_CASE(name, constructs)                                                                     \
    static void conformance_case_##name(conformance::Results&);                                              \
    static const int conformance_registered_##name =                                                         \
        conformance::add(__FILE__, #name, constructs, &conformance_case_##name);                             \
    static void conformance_case_##name([[maybe_unused]] conformance::Results& r)
