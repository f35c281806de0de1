// The CUDA runtime API on the host: device memory (each allocation a mapping
// of its own, so a kernel's access out of bounds lands where the checks see
// it), copies, CUDA's error state, events. Launches are runtime.cpp's.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <iterator>
#include <map>
#include <string>

#include "internal.hpp"
#include "simt/cuda.hpp"
#include "simt/runtime.hpp"

namespace simt::detail {

// Device pointer -> size and mapping (Allocation says how each is laid out),
// so a kernel's access past either end lands in memory the checks recognise
// as out of bounds rather than in a neighbour or the emulator's heap.
std::map<const unsigned char*, Allocation> g_allocations;
thread_local cudaError_t g_last_error = cudaSuccess;

cudaError_t fail(cudaError_t err) {
    g_last_error = err;
    return err;
}

const std::map<const unsigned char*, Allocation>& allocations() { return g_allocations; }

}  // namespace simt::detail

namespace simt {

using detail::g_allocations;

bool written_by_kernel(const void* device_ptr) {
    const auto it = g_allocations.find(static_cast<const unsigned char*>(device_ptr));
    return it != g_allocations.end() && it->second.kernel_written;
}

bool set_given_bytes(const void* device_ptr, std::size_t bytes) {
    const auto it = g_allocations.find(static_cast<const unsigned char*>(device_ptr));
    if (it == g_allocations.end()) return false;
    it->second.given = bytes;
    return true;
}

MemoryUsage memory_in_use() {
    MemoryUsage u;
    for (const auto& entry : g_allocations) u.bytes += entry.second.bytes;
    u.allocations = g_allocations.size();
    return u;
}

}  // namespace simt

using simt::detail::fail;
using simt::detail::g_allocations;
using simt::detail::g_last_error;


namespace {

// Whether [p, p + bytes) lies inside one device allocation.
bool is_device_range(const void* p, std::size_t bytes) {
    const auto* q = static_cast<const unsigned char*>(p);
    auto it = g_allocations.upper_bound(q);
    if (it == g_allocations.begin()) return false;
    --it;
    return q >= it->first && q + bytes <= it->first + it->second.bytes;
}

}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
    if (ptr == nullptr) return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess;
    using simt::detail::kGuard;
    using simt::detail::kRedzone;
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    if (bytes > (std::size_t{1} << 46)) return fail(cudaErrorMemoryAllocation);  // more than any GPU has
    // Reserved whole, inaccessible, then the middle opened: no other mapping
    // can come within kGuard of the allocation.
    const std::size_t accessible = (bytes + 2 * kRedzone + page - 1) / page * page, total = accessible + 2 * kGuard;
    void* mapping = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (mapping == MAP_FAILED) return fail(cudaErrorMemoryAllocation);
    auto* low = static_cast<unsigned char*>(mapping);
    if (mprotect(low + kGuard, accessible, PROT_READ | PROT_WRITE) != 0) {
        munmap(mapping, total);
        return fail(cudaErrorMemoryAllocation);
    }
    unsigned char* p = low + kGuard + kRedzone;  // 256-byte aligned, as CUDA's are
    simt::detail::Allocation& a = g_allocations[p];
    a = {bytes};
    a.map_low = low;
    a.map_high = low + total;
    a.accessible_high = low + kGuard + accessible;
    *ptr = p;
    return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
    if (ptr == nullptr) return cudaSuccess;
    const auto it = g_allocations.find(static_cast<const unsigned char*>(ptr));
    if (it == g_allocations.end()) return fail(cudaErrorInvalidDevicePointer);
    unsigned char* low = const_cast<unsigned char*>(it->second.map_low);
    const std::size_t total = static_cast<std::size_t>(it->second.map_high - low);
    g_allocations.erase(it);
    munmap(low, total);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    if (bytes == 0) return cudaSuccess;
    const bool dst_dev = is_device_range(dst, bytes), src_dev = is_device_range(src, bytes);
    bool ok = true;
    switch (kind) {
        case cudaMemcpyHostToHost: ok = !dst_dev && !src_dev; break;
        case cudaMemcpyHostToDevice: ok = dst_dev && !src_dev; break;
        case cudaMemcpyDeviceToHost: ok = !dst_dev && src_dev; break;
        case cudaMemcpyDeviceToDevice: ok = dst_dev && src_dev; break;
        case cudaMemcpyDefault: break;
        default: return fail(cudaErrorInvalidMemcpyDirection);
    }
    if (!ok) return fail(cudaErrorInvalidValue);
    std::memmove(dst, src, bytes);
    // Where a device allocation's data came from: a kernel, or the host.
    if (const auto d = g_allocations.upper_bound(static_cast<const unsigned char*>(dst));
        dst_dev && d != g_allocations.begin()) {
        const auto& to = std::prev(d)->second;
        bool from_kernel = false;
        if (src_dev) {
            const auto from = std::prev(g_allocations.upper_bound(static_cast<const unsigned char*>(src)));
            from_kernel = from->second.kernel_written;
        }
        to.kernel_written = from_kernel;
    }
    return cudaSuccess;
}

cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
    if (bytes == 0) return cudaSuccess;
    if (!is_device_range(dst, bytes)) return fail(cudaErrorInvalidValue);
    std::memset(dst, value, bytes);
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }  // launches run to completion

cudaError_t cudaGetLastError() {
    const cudaError_t err = g_last_error;
    g_last_error = cudaSuccess;
    return err;
}

cudaError_t cudaPeekAtLastError() { return g_last_error; }

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
    constexpr std::size_t kTotal = std::size_t{16} << 30;  // a nominal 16 GiB device
    const std::size_t used = simt::memory_in_use().bytes;
    if (free_bytes) *free_bytes = used < kTotal ? kTotal - used : 0;
    if (total_bytes) *total_bytes = kTotal;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceCount(int* count) {
    if (count == nullptr) return fail(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

const char* cudaGetErrorName(cudaError_t err) {
    switch (err) {
        case cudaSuccess: return "cudaSuccess";
        case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
        case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
        case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
        case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
        case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
        case cudaErrorNoDevice: return "cudaErrorNoDevice";
        case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
        case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
        case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
        case cudaErrorECCUncorrectable: return "cudaErrorECCUncorrectable";
        case cudaErrorLaunchTimeout: return "cudaErrorLaunchTimeout";
        case cudaErrorAssert: return "cudaErrorAssert";
        case cudaErrorHardwareStackError: return "cudaErrorHardwareStackError";
        case cudaErrorIllegalInstruction: return "cudaErrorIllegalInstruction";
        case cudaErrorMisalignedAddress: return "cudaErrorMisalignedAddress";
        case cudaErrorInvalidAddressSpace: return "cudaErrorInvalidAddressSpace";
        case cudaErrorInvalidPc: return "cudaErrorInvalidPc";
        case cudaErrorCooperativeLaunchTooLarge: return "cudaErrorCooperativeLaunchTooLarge";
    }
    return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t err) {
    switch (err) {
        case cudaSuccess: return "no error";
        case cudaErrorInvalidValue: return "invalid argument";
        case cudaErrorMemoryAllocation: return "out of memory";
        case cudaErrorInvalidConfiguration: return "invalid configuration argument";
        case cudaErrorInvalidDevicePointer: return "invalid device pointer";
        case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
        case cudaErrorNoDevice: return "no CUDA-capable device is detected";
        case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
        case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
        case cudaErrorLaunchFailure: return "unspecified launch failure";
        case cudaErrorECCUncorrectable: return "uncorrectable ECC error encountered";
        case cudaErrorLaunchTimeout: return "the launch timed out and was terminated";
        case cudaErrorAssert: return "device-side assert triggered";
        case cudaErrorHardwareStackError: return "hardware stack error";
        case cudaErrorIllegalInstruction: return "an illegal instruction was encountered";
        case cudaErrorMisalignedAddress: return "misaligned address";
        case cudaErrorInvalidAddressSpace: return "operation not supported on global/shared address space";
        case cudaErrorInvalidPc: return "invalid program counter";
        case cudaErrorCooperativeLaunchTooLarge: return "too many blocks in cooperative launch";
    }
    return "unknown error";
}

// ---- events: host time, since nothing runs on a GPU -------------------------

struct CUevent_st {
    std::chrono::steady_clock::time_point at{};
    bool recorded = false;
};

cudaError_t cudaEventCreate(cudaEvent_t* event) {
    if (event == nullptr) return cudaErrorInvalidValue;
    *event = new CUevent_st;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
    if (event == nullptr) return cudaErrorInvalidValue;
    event->at = std::chrono::steady_clock::now();  // launches have already run to completion
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) { return event ? cudaSuccess : cudaErrorInvalidValue; }

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (ms == nullptr || start == nullptr || end == nullptr || !start->recorded || !end->recorded)
        return cudaErrorInvalidValue;
    *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    delete event;
    return cudaSuccess;
}
