#include "device.hpp"

#include <cub/device/device_scan.cuh>

#include <cuda_runtime.h>

namespace bench {
namespace {

void check(cudaError_t e, const std::string& what) {
    if (e != cudaSuccess)
        throw DeviceError(what + ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

cudaEvent_t event(void* e) { return static_cast<cudaEvent_t>(e); }

}  // namespace

DeviceInfo probe() {
    DeviceInfo info;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        info.name = e != cudaSuccess ? std::string("cudaGetDeviceCount failed with ") + cudaGetErrorName(e) + " (" +
                                           cudaGetErrorString(e) + ")"
                                     : "no CUDA device";
        return info;
    }
    cudaDeviceProp p{};
    check(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    info.usable = true;
    info.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
    info.name = std::string(p.name) + ", " + std::to_string(p.multiProcessorCount) + " SMs, CUDA " +
                std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
    return info;
}

std::size_t free_bytes() {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
}

Buffers::Buffers(const std::vector<float>& input, std::size_t n, unsigned outputs, float fill, std::size_t l2_bytes)
    : n_(n), length_(input.size()), flush_bytes_(2 * l2_bytes) {
    const std::size_t bytes = length_ * sizeof(float);
    check(cudaMalloc(&in_, bytes), "cudaMalloc of the input");
    check(cudaMemcpy(in_, input.data(), bytes, cudaMemcpyHostToDevice), "uploading the input");
    const std::vector<float> filled(length_, fill);
    for (unsigned k = 0; k < outputs; ++k) {
        float* out = nullptr;
        check(cudaMalloc(&out, bytes), "cudaMalloc of an output");
        outs_.push_back(out);
        check(cudaMemcpy(out, filled.data(), bytes, cudaMemcpyHostToDevice), "filling an output");
    }
    check(cudaMalloc(&flush_, flush_bytes_), "cudaMalloc of the L2 flush buffer");
    cudaEvent_t a, b;
    check(cudaEventCreate(&a), "cudaEventCreate");
    check(cudaEventCreate(&b), "cudaEventCreate");
    start_ = a;
    stop_ = b;
}

Buffers::~Buffers() {
    // After a sticky error these fail too; nothing more can be done then.
    cudaFree(in_);
    for (float* o : outs_) cudaFree(o);
    cudaFree(flush_);
    cudaFree(cub_temp_);
    if (start_) cudaEventDestroy(event(start_));
    if (stop_) cudaEventDestroy(event(stop_));
}

double Buffers::time(const std::function<void()>& work, const std::string& what) {
    // A different byte each time, so no flush can be skipped as a repeat.
    check(cudaMemsetAsync(flush_, static_cast<int>(++flushes_ & 0xff), flush_bytes_), "flushing L2");
    check(cudaEventRecord(event(start_)), "cudaEventRecord");
    work();
    check(cudaGetLastError(), what + " (launch)");
    check(cudaEventRecord(event(stop_)), "cudaEventRecord after " + what);
    check(cudaEventSynchronize(event(stop_)), what + " (execution)");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, event(start_), event(stop_)), "cudaEventElapsedTime");
    return ms;
}

void Buffers::run(const std::function<void()>& work, const std::string& what) {
    work();
    check(cudaGetLastError(), what + " (launch)");
    check(cudaDeviceSynchronize(), what + " (execution)");
}

double Buffers::copy(unsigned k) {
    return time([&] { cudaMemcpyAsync(outs_.at(k), in_, n_ * sizeof(float), cudaMemcpyDeviceToDevice); },
                "cudaMemcpy device to device");
}

double Buffers::cub(bool exclusive, unsigned k) {
    const auto run = [&](void* temp, std::size_t& bytes) {
        return exclusive ? cub::DeviceScan::ExclusiveSum(temp, bytes, in_, outs_.at(k), static_cast<long long>(n_))
                         : cub::DeviceScan::InclusiveSum(temp, bytes, in_, outs_.at(k), static_cast<long long>(n_));
    };
    if (!cub_temp_) {  // once per buffer set: the scratch CUB asks for
        check(run(nullptr, cub_bytes_), "CUB temporary storage size");
        check(cudaMalloc(&cub_temp_, cub_bytes_ ? cub_bytes_ : 1), "cudaMalloc of CUB's temporary storage");
    }
    return time([&] { run(cub_temp_, cub_bytes_); }, exclusive ? "CUB ExclusiveSum" : "CUB InclusiveSum");
}

std::vector<float> Buffers::download_in() const {
    std::vector<float> v(length_);
    check(cudaMemcpy(v.data(), in_, length_ * sizeof(float), cudaMemcpyDeviceToHost), "downloading the input");
    return v;
}

std::vector<float> Buffers::download_out(unsigned k) const {
    std::vector<float> v(length_);
    check(cudaMemcpy(v.data(), outs_.at(k), length_ * sizeof(float), cudaMemcpyDeviceToHost), "downloading an output");
    return v;
}

}  // namespace bench
