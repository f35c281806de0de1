// Helpers shared by the emulator's own tests (test_*.cpp): device arrays that
// free themselves, copies back to the host, and the findings of a launch as text.
#pragma once

#include <doctest/doctest.h>

#include <simt/cuda.hpp>
#include <simt/runtime.hpp>

#include <cstddef>
#include <string>
#include <vector>

template <typename T>
struct DeviceArray {
    T* ptr = nullptr;
    explicit DeviceArray(std::size_t n) { REQUIRE(cudaMalloc(&ptr, n * sizeof(T)) == cudaSuccess); }
    ~DeviceArray() { cudaFree(ptr); }
};

template <typename T>
std::vector<T> download(const T* d, std::size_t n) {
    std::vector<T> h(n);
    REQUIRE(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost) == cudaSuccess);
    return h;
}

inline std::vector<std::string> formatted_findings() {
    std::vector<std::string> out;
    for (const auto& f : simt::take_findings()) out.push_back(simt::format(f));
    return out;
}
