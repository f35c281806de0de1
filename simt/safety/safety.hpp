// The differential safety suite: small kernels, each with a bug of one class
// the safety checks are for, and its clean twin (the same kernel with the bug
// fixed). The emulator's build (driver.cpp) runs every variant and records
// the checks its findings name; the `safety` test compares them with
// expected.txt, and a finding in a clean twin fails by itself. nvcc's build
// runs one variant per process (--case NAME --variant bug|clean), so that
// run-sanitizer.sh can give each to compute-sanitizer's four tools alone.
//
// A case file (cases/GROUP.cu) holds the cases of a family of checks:
//
//   __global__ void sum_bug(...) { ... }    // the bug, as people write it
//   __global__ void sum_clean(...) { ... }  // the same with the fix
//   SAFETY_CASE(shared_race_function, "race on a __shared__ array declared in a function") {
//       safety::Buffer<float> in(input), out(blocks);
//       if (r.bug) sum_bug<<<blocks, 256>>>(in, out);
//       else sum_clean<<<blocks, 256>>>(in, out);
//       r.clean_result("block sums", out.get(), want);
//   }
//
// Case names are unique across the suite. The class (the second argument) is
// the row of simt/docs/checks.md's table of safety classes the case counts for.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

namespace safety {

// One run of one variant: which it is, and what went wrong that is not a
// safety check's finding (a CUDA call that failed; the clean twin's results
// not the ones it must compute).
struct Run {
    bool bug = false;
    std::vector<std::string> problems;

    // A CUDA call's code; a failure is recorded (a bug variant may make one:
    // a GPU stops a kernel that writes out of bounds) and the case goes on.
    void require(cudaError_t e, const char* call);
    // The clean twin's results against what it must compute; the bug
    // variant's are not judged (a bug may or may not change them).
    template <typename T>
    void clean_result(const char* what, const std::vector<T>& got, const std::vector<T>& want) {
        if (!bug && got != want) problems.push_back(std::string("wrong ") + what);
    }
};

struct Case {
    std::string group;  // the case file's name: cases/GROUP.cu
    std::string name;
    std::string what;   // its class, as simt/docs/checks.md's table names it
    void (*run)(Run&);
};
int add(const char* file, const char* name, const char* what, void (*run)(Run&));
const std::vector<Case>& cases();

// A device array, freed when it goes out of scope. Buffer(n) is cudaMalloc's
// memory as it comes (nothing written: the uninitialised-read cases want
// that); Buffer(host) is filled from the host.
template <typename T>
class Buffer {
public:
    explicit Buffer(std::size_t n) : n_(n) { cudaMalloc(&d_, bytes()); }
    explicit Buffer(const std::vector<T>& v) : n_(v.size()) {
        cudaMalloc(&d_, bytes());
        cudaMemcpy(d_, v.data(), bytes(), cudaMemcpyHostToDevice);
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { cudaFree(d_); }
    operator T*() const { return d_; }
    std::size_t bytes() const { return n_ * sizeof(T); }
    void zero() { cudaMemset(d_, 0, bytes()); }
    std::vector<T> get() const {
        cudaDeviceSynchronize();
        std::vector<T> h(n_);
        cudaMemcpy(h.data(), d_, bytes(), cudaMemcpyDeviceToHost);
        return h;
    }

private:
    T* d_ = nullptr;
    std::size_t n_;
};

}  // namespace safety

#define SAFETY_CASE(name, what)                                                                             \
    static void safety_case_##name(safety::Run&);                                                           \
    static const int safety_registered_##name = safety::add(__FILE__, #name, what, &safety_case_##name);   \
    static void safety_case_##name([[maybe_unused]] safety::Run& r)
