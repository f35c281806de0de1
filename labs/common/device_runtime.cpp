// The part of device.hpp both backends share: the CUDA runtime API calls,
// served by NVIDIA's runtime (cuda) or by the emulator's (emu).
#include <cuda_runtime_api.h>

#include "device.hpp"

namespace {

// Errors after which CUDA requires the process to end.
bool is_sticky(cudaError_t err) {
    switch (err) {
        case cudaErrorIllegalAddress:
        case cudaErrorLaunchFailure:
        case cudaErrorIllegalInstruction:
        case cudaErrorMisalignedAddress:
        case cudaErrorInvalidAddressSpace:
        case cudaErrorInvalidPc:
        case cudaErrorHardwareStackError:
        case cudaErrorAssert:
        case cudaErrorLaunchTimeout:
        case cudaErrorECCUncorrectable:
            return true;
        default:
            return false;
    }
}

// `detail`: what the error alone does not say (which launch, and why).
void check(cudaError_t err, const std::string& what, const std::string& detail = "") {
    if (err != cudaSuccess)
        throw device::Error(what + ": " + cudaGetErrorName(err) + ": " + cudaGetErrorString(err) +
                                (detail.empty() ? "" : "; " + detail),
                            is_sticky(err));
}

}  // namespace

namespace device {

float* alloc(std::size_t count) {
    if (count == 0) return nullptr;
    void* p = nullptr;
    check(cudaMalloc(&p, count * sizeof(float)), "cudaMalloc of " + std::to_string(count) + " floats");
    return static_cast<float*>(p);
}

void release(float* p) {
    if (p) check(cudaFree(p), "cudaFree");
}

void upload(float* dst, const float* src, std::size_t count) {
    if (count) check(cudaMemcpy(dst, src, count * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy to device");
}

void download(float* dst, const float* src, std::size_t count) {
    if (count) check(cudaMemcpy(dst, src, count * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

void check_after(const char* function) {
    const std::string what = std::string("CUDA error after ") + function;
    const cudaError_t launch = cudaGetLastError();
    check(launch, what + " (launch)", take_refused_launch());
    check(cudaDeviceSynchronize(), what);
}

}  // namespace device
