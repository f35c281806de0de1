// The CUDA runtime API on the host: memory (device, managed, pinned and
// stream-ordered allocations, each a mapping of its own, so a kernel's access
// out of bounds lands where the checks see it; registered host memory;
// `__device__` variables), copies, CUDA's error state, streams, events and
// symbols. Launches are launch.cpp's; the device's properties, kernels'
// attributes and the occupancy calculator device_api.cpp's.
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

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

namespace {

// `__device__` variables, registered during static initialisation (before
// g_allocations is certain to exist), waiting to join it.
std::vector<Allocation>& pending_variables() {
    static std::vector<Allocation> pending;
    return pending;
}

}  // namespace

void adopt_device_variables() {
    std::vector<Allocation>& pending = pending_variables();
    for (const Allocation& v : pending) g_allocations.emplace(v.map_low, v);
    pending.clear();
}

std::string describe_allocation(const Allocation& a) {
    if (a.kind == MemoryKind::Variable)
        return "the " + std::to_string(a.bytes) + "-byte __device__ variable " + std::string(a.name) +
               " declared at line " + std::to_string(a.line);
    const char* what = a.kind == MemoryKind::Managed      ? "managed allocation"
                       : a.kind == MemoryKind::Pinned     ? "pinned host allocation"
                       : a.kind == MemoryKind::Registered ? "registered host range"
                                                          : "device allocation";
    return "a " + std::to_string(a.bytes) + "-byte " + what;
}

}  // namespace simt::detail

namespace simt {

using detail::g_allocations;
using detail::MemoryKind;

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
    for (const auto& entry : g_allocations)
        if (detail::counts_as_device(entry.second.kind)) {
            u.bytes += entry.second.bytes;
            ++u.allocations;
        }
    return u;
}

bool declare_device_variable(const volatile void* address, std::size_t bytes, const char* name, int line) {
    const auto* p = static_cast<const unsigned char*>(const_cast<const void*>(address));
    detail::Allocation v{bytes};
    v.map_low = p;  // the variable alone: no mapping of its own
    v.map_high = v.accessible_high = p + bytes;
    v.kind = MemoryKind::Variable;
    v.name = name;
    v.line = line;
    detail::pending_variables().push_back(v);
    return true;
}

}  // namespace simt

using simt::detail::Allocation;
using simt::detail::fail;
using simt::detail::g_allocations;
using simt::detail::g_last_error;
using simt::detail::MemoryKind;

namespace {

// The H100's memory, as cudaMemGetInfo and cudaDeviceProp::totalGlobalMem
// give it, and what a program may allocate of it: the driver keeps some (here
// a nominal 512 MiB), so free memory is below the total even before the first
// allocation, as on the GPU.
constexpr std::size_t kTotalGlobalMem = 85017493504ull;
constexpr std::size_t kAvailableGlobalMem = kTotalGlobalMem - (std::size_t{512} << 20);

// The allocation (of any kind) that [p, p + bytes) lies in, or null.
const std::pair<const unsigned char* const, Allocation>* holding(const void* p, std::size_t bytes) {
    simt::detail::adopt_device_variables();
    const auto* q = static_cast<const unsigned char*>(p);
    auto it = g_allocations.upper_bound(q);
    if (it == g_allocations.begin()) return nullptr;
    --it;
    return q >= it->first && q + bytes <= it->first + it->second.bytes ? &*it : nullptr;
}

// The allocation whose bytes p points into (not past its end), or null.
const std::pair<const unsigned char* const, Allocation>* containing(const void* p) {
    simt::detail::adopt_device_variables();
    const auto* q = static_cast<const unsigned char*>(p);
    auto it = g_allocations.upper_bound(q);
    if (it == g_allocations.begin()) return nullptr;
    --it;
    return q < it->first + it->second.bytes ? &*it : nullptr;
}

// Copies and memsets, with unified addressing as on the H100: the device may
// use every kind of allocation (managed, pinned and registered host memory
// included), the host everything but device memory proper.
bool device_side(const void* p, std::size_t bytes) { return holding(p, bytes) != nullptr; }
bool host_side(const void* p, std::size_t bytes) {
    const auto* a = containing(p);
    if (a == nullptr) {
        // Not starting in one: the range must not run into device memory either.
        const auto* end = containing(static_cast<const unsigned char*>(p) + bytes - 1);
        return end == nullptr || (end->second.kind != MemoryKind::Device && end->second.kind != MemoryKind::Variable);
    }
    const MemoryKind k = a->second.kind;
    return k != MemoryKind::Device && k != MemoryKind::Variable && holding(p, bytes) != nullptr;
}
// cudaMemcpyDefault infers the direction: a pointer into an allocation must keep within it.
bool either_side(const void* p, std::size_t bytes) { return containing(p) == nullptr || holding(p, bytes) != nullptr; }

// A mapping of its own for `bytes` (Allocation says how it is laid out), of `kind`.
cudaError_t map_allocation(void** ptr, std::size_t bytes, MemoryKind kind, unsigned flags) {
    using simt::detail::kGuard;
    using simt::detail::kRedzone;
    static const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    if (bytes > (std::size_t{1} << 46)) return fail(cudaErrorMemoryAllocation);  // more than any machine has
    if (simt::detail::counts_as_device(kind) && bytes > kAvailableGlobalMem - simt::memory_in_use().bytes)
        return fail(cudaErrorMemoryAllocation);  // more than the H100 has left
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
    Allocation& a = g_allocations[p];
    a = {bytes};
    a.map_low = low;
    a.map_high = low + total;
    a.accessible_high = low + kGuard + accessible;
    a.kind = kind;
    a.flags = flags;
    *ptr = p;
    return cudaSuccess;
}

// Frees the allocation at `ptr` if it is one of `kinds` (a bit per MemoryKind).
bool unmap_allocation(void* ptr, unsigned kinds) {
    const auto it = g_allocations.find(static_cast<const unsigned char*>(ptr));
    if (it == g_allocations.end() || !(kinds >> static_cast<unsigned>(it->second.kind) & 1u)) return false;
    if (it->second.kind == MemoryKind::Registered) {
        g_allocations.erase(it);  // the program's own memory
        return true;
    }
    unsigned char* low = const_cast<unsigned char*>(it->second.map_low);
    const std::size_t total = static_cast<std::size_t>(it->second.map_high - low);
    g_allocations.erase(it);
    munmap(low, total);
    return true;
}
constexpr unsigned bit(MemoryKind k) { return 1u << static_cast<unsigned>(k); }

// ---- streams and events -------------------------------------------------------

}  // namespace

struct CUstream_st {
    unsigned flags = 0;
    int priority = 0;
    unsigned long long id = 0;
};

struct CUevent_st {
    unsigned flags = 0;
    std::chrono::steady_clock::time_point at{};
    bool recorded = false;
};

// What cudaDeviceGetDefaultMemPool hands out: the device's one pool.
struct CUmemPoolHandle_st {};

namespace {

std::set<cudaStream_t> g_streams;
std::set<cudaEvent_t> g_events;
CUmemPoolHandle_st g_default_pool;

// The H100's stream priorities (cudaDeviceGetStreamPriorityRange): 0 the least, -5 the greatest.
constexpr int kLeastPriority = 0, kGreatestPriority = -5;

bool is_default_stream(cudaStream_t s) { return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread; }
bool valid_stream(cudaStream_t s) { return is_default_stream(s) || g_streams.count(s) != 0; }
bool valid_event(cudaEvent_t e) { return e != nullptr && g_events.count(e) != 0; }

}  // namespace

bool simt::launch_stream_ok(cudaStream_t stream) {
    if (valid_stream(stream)) return true;
    fail(cudaErrorInvalidResourceHandle);
    return false;
}

// ---- device memory ----------------------------------------------------------------

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
    if (ptr == nullptr) return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess;
    return map_allocation(ptr, bytes, MemoryKind::Device, 0);
}

cudaError_t cudaFree(void* ptr) {
    if (ptr == nullptr) return cudaSuccess;
    if (!unmap_allocation(ptr, bit(MemoryKind::Device) | bit(MemoryKind::Managed))) return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void** devPtr, std::size_t size, cudaStream_t hStream) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    return cudaMalloc(devPtr, size);
}

cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    return cudaFree(devPtr);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device) {
    if (memPool == nullptr) return fail(cudaErrorInvalidValue);
    if (device != 0) return fail(cudaErrorInvalidDevice);
    *memPool = &g_default_pool;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device) { return cudaDeviceGetDefaultMemPool(memPool, device); }

cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    if (memPool != &g_default_pool) return fail(cudaErrorInvalidValue);
    return cudaMallocAsync(ptr, size, stream);
}

cudaError_t cudaMallocManaged(void** devPtr, std::size_t size, unsigned int flags) {
    if (devPtr == nullptr || (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost))
        return fail(cudaErrorInvalidValue);
    *devPtr = nullptr;
    if (size == 0) return cudaSuccess;  // as the H100 answered (0 bytes: no allocation)
    return map_allocation(devPtr, size, MemoryKind::Managed, flags);
}

cudaError_t cudaHostAlloc(void** pHost, std::size_t size, unsigned int flags) {
    if (pHost == nullptr || (flags & ~0x7u) != 0) return fail(cudaErrorInvalidValue);
    *pHost = nullptr;
    if (size == 0) return cudaSuccess;
    return map_allocation(pHost, size, MemoryKind::Pinned, flags);
}

cudaError_t cudaMallocHost(void** ptr, std::size_t size) { return cudaHostAlloc(ptr, size, cudaHostAllocDefault); }

cudaError_t cudaFreeHost(void* ptr) {
    if (ptr == nullptr) return cudaSuccess;
    if (!unmap_allocation(ptr, bit(MemoryKind::Pinned))) return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaHostRegister(void* ptr, std::size_t size, unsigned int flags) {
    if (ptr == nullptr || size == 0 || (flags & ~0xfu) != 0) return fail(cudaErrorInvalidValue);
    const auto* p = static_cast<const unsigned char*>(ptr);
    simt::detail::adopt_device_variables();
    // Nothing registered or allocated may overlap it.
    const auto after = g_allocations.lower_bound(p + size);
    if (after != g_allocations.begin()) {
        const auto& [base, a] = *std::prev(after);
        if (base + a.bytes > p)
            return fail(a.kind == MemoryKind::Registered || a.kind == MemoryKind::Pinned
                            ? cudaErrorHostMemoryAlreadyRegistered
                            : cudaErrorInvalidValue);
    }
    Allocation& a = g_allocations[p];
    a = {size};
    a.map_low = p;
    a.map_high = a.accessible_high = p + size;
    a.kind = MemoryKind::Registered;
    a.flags = flags;
    return cudaSuccess;
}

cudaError_t cudaHostUnregister(void* ptr) {
    if (ptr == nullptr) return fail(cudaErrorInvalidValue);
    if (!unmap_allocation(ptr, bit(MemoryKind::Registered))) return fail(cudaErrorHostMemoryNotRegistered);
    return cudaSuccess;
}

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
    if (pDevice == nullptr || flags != 0) return fail(cudaErrorInvalidValue);
    const auto* a = containing(pHost);
    if (a == nullptr || (a->second.kind != MemoryKind::Pinned && a->second.kind != MemoryKind::Registered))
        return fail(cudaErrorInvalidValue);
    *pDevice = pHost;  // unified addressing: the same address on both sides
    return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
    const auto* a = containing(pHost);
    if (pFlags == nullptr || a == nullptr || (a->second.kind != MemoryKind::Pinned && a->second.kind != MemoryKind::Registered))
        return fail(cudaErrorInvalidValue);
    // Pinned memory is mapped into the device's address space: unified addressing.
    *pFlags = a->second.flags | cudaHostAllocMapped;
    return cudaSuccess;
}

cudaError_t cudaMemPrefetchAsync(const void* devPtr, std::size_t count, cudaMemLocation location, unsigned int flags,
                                 cudaStream_t stream) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    const auto* a = holding(devPtr, count);
    if (count == 0 || flags != 0 || a == nullptr || a->second.kind != MemoryKind::Managed ||
        (location.type == cudaMemLocationTypeDevice && location.id != 0) ||
        (location.type != cudaMemLocationTypeDevice && location.type != cudaMemLocationTypeHost &&
         location.type != cudaMemLocationTypeHostNumaCurrent))
        return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
    if (attributes == nullptr) return fail(cudaErrorInvalidValue);
    *attributes = {};
    attributes->device = cudaInvalidDeviceId;
    const auto* a = containing(ptr);
    if (a == nullptr) return cudaSuccess;  // pageable host memory: unregistered
    void* p = const_cast<void*>(ptr);
    attributes->device = 0;
    attributes->devicePointer = p;
    switch (a->second.kind) {
        case MemoryKind::Device:
        case MemoryKind::Variable: attributes->type = cudaMemoryTypeDevice; break;
        case MemoryKind::Managed:
            attributes->type = cudaMemoryTypeManaged;
            attributes->hostPointer = p;
            break;
        case MemoryKind::Pinned:
        case MemoryKind::Registered:
            attributes->type = cudaMemoryTypeHost;
            attributes->hostPointer = p;
            break;
    }
    return cudaSuccess;
}

namespace {

// Where a device allocation's data came from: a kernel, or the host.
void note_copy(void* dst, const void* src, std::size_t bytes) {
    const auto* to = holding(dst, bytes);
    if (to == nullptr) return;
    const auto* from = holding(src, bytes);
    to->second.kernel_written = from != nullptr && from->second.kernel_written;
}

}  // namespace

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
    if (bytes == 0) return cudaSuccess;
    bool ok = true;
    switch (kind) {
        case cudaMemcpyHostToHost: ok = host_side(dst, bytes) && host_side(src, bytes); break;
        case cudaMemcpyHostToDevice: ok = device_side(dst, bytes) && host_side(src, bytes); break;
        case cudaMemcpyDeviceToHost: ok = host_side(dst, bytes) && device_side(src, bytes); break;
        case cudaMemcpyDeviceToDevice: ok = device_side(dst, bytes) && device_side(src, bytes); break;
        case cudaMemcpyDefault: ok = either_side(dst, bytes) && either_side(src, bytes); break;
        default: return fail(cudaErrorInvalidMemcpyDirection);
    }
    if (!ok) return fail(cudaErrorInvalidValue);
    std::memmove(dst, src, bytes);
    note_copy(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
    if (bytes == 0) return cudaSuccess;
    if (!device_side(dst, bytes)) return fail(cudaErrorInvalidValue);
    std::memset(dst, value, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, std::size_t count, cudaStream_t stream) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
    const std::size_t used = simt::memory_in_use().bytes;
    if (free_bytes) *free_bytes = used < kAvailableGlobalMem ? kAvailableGlobalMem - used : 0;
    if (total_bytes) *total_bytes = kTotalGlobalMem;
    return cudaSuccess;
}

// ---- symbols ------------------------------------------------------------------------

namespace {

const Allocation* symbol(const void* address) {
    const auto* a = containing(address);
    return a != nullptr && a->first == address && a->second.kind == MemoryKind::Variable ? &a->second : nullptr;
}

}  // namespace

cudaError_t cudaMemcpyToSymbol(const void* sym, const void* src, std::size_t count, std::size_t offset,
                               cudaMemcpyKind kind) {
    const Allocation* v = symbol(sym);
    if (v == nullptr) return fail(cudaErrorInvalidSymbol);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection);
    if (offset > v->bytes || count > v->bytes - offset) return fail(cudaErrorInvalidValue);
    auto* dst = const_cast<unsigned char*>(static_cast<const unsigned char*>(sym)) + offset;
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* sym, std::size_t count, std::size_t offset,
                                 cudaMemcpyKind kind) {
    const Allocation* v = symbol(sym);
    if (v == nullptr) return fail(cudaErrorInvalidSymbol);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return fail(cudaErrorInvalidMemcpyDirection);
    if (offset > v->bytes || count > v->bytes - offset) return fail(cudaErrorInvalidValue);
    return cudaMemcpy(dst, static_cast<const unsigned char*>(sym) + offset, count, kind);
}

cudaError_t cudaMemcpyToSymbolAsync(const void* sym, const void* src, std::size_t count, std::size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    return cudaMemcpyToSymbol(sym, src, count, offset, kind);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* sym, std::size_t count, std::size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    return cudaMemcpyFromSymbol(dst, sym, count, offset, kind);
}

cudaError_t cudaGetSymbolAddress(void** devPtr, const void* sym) {
    const Allocation* v = symbol(sym);
    if (v == nullptr) return fail(cudaErrorInvalidSymbol);
    if (devPtr == nullptr) return fail(cudaErrorInvalidValue);
    *devPtr = const_cast<void*>(sym);
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(std::size_t* size, const void* sym) {
    const Allocation* v = symbol(sym);
    if (v == nullptr) return fail(cudaErrorInvalidSymbol);
    if (size == nullptr) return fail(cudaErrorInvalidValue);
    *size = v->bytes;
    return cudaSuccess;
}

// ---- errors ---------------------------------------------------------------------------

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }  // launches run to completion

cudaError_t cudaGetLastError() {
    const cudaError_t err = g_last_error;
    g_last_error = cudaSuccess;
    return err;
}

cudaError_t cudaPeekAtLastError() { return g_last_error; }

namespace {

// CUDA 13's codes with the names and strings its runtime gives them.
struct ErrorText {
    int code;
    const char* name;
    const char* text;
};
constexpr ErrorText kErrors[] = {
        {0, "cudaSuccess", "no error"},
        {1, "cudaErrorInvalidValue", "invalid argument"},
        {2, "cudaErrorMemoryAllocation", "out of memory"},
        {3, "cudaErrorInitializationError", "initialization error"},
        {4, "cudaErrorCudartUnloading", "driver shutting down"},
        {5, "cudaErrorProfilerDisabled", "profiler disabled while using external profiling tool"},
        {6, "cudaErrorProfilerNotInitialized", "profiler not initialized: call cudaProfilerInitialize()"},
        {7, "cudaErrorProfilerAlreadyStarted", "profiler already started"},
        {8, "cudaErrorProfilerAlreadyStopped", "profiler already stopped"},
        {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
        {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
        {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
        {16, "cudaErrorInvalidHostPointer", "invalid host pointer"},
        {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
        {18, "cudaErrorInvalidTexture", "invalid texture reference"},
        {19, "cudaErrorInvalidTextureBinding", "texture is not bound to a pointer"},
        {20, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"},
        {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
        {22, "cudaErrorAddressOfConstant", "invalid address of constant"},
        {23, "cudaErrorTextureFetchFailed", "fetch from texture failed"},
        {24, "cudaErrorTextureNotBound", "cannot fetch from a texture that is not bound"},
        {25, "cudaErrorSynchronizationError", "incorrect use of __syncthreads()"},
        {26, "cudaErrorInvalidFilterSetting", "linear filtering not supported for non-float type"},
        {27, "cudaErrorInvalidNormSetting", "read as normalized float not supported for data type"},
        {28, "cudaErrorMixedDeviceExecution", "device emulation mode and device execution mode cannot be mixed"},
        {31, "cudaErrorNotYetImplemented", "feature not yet implemented"},
        {32, "cudaErrorMemoryValueTooLarge", "memory size or pointer value too large to fit in 32 bit"},
        {34, "cudaErrorStubLibrary", "CUDA driver is a stub library"},
        {35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
        {36, "cudaErrorCallRequiresNewerDriver", "API call is not supported in the installed CUDA driver"},
        {37, "cudaErrorInvalidSurface", "invalid surface reference"},
        {43, "cudaErrorDuplicateVariableName", "duplicate global variable looked up by string name"},
        {44, "cudaErrorDuplicateTextureName", "duplicate texture looked up by string name"},
        {45, "cudaErrorDuplicateSurfaceName", "duplicate surface looked up by string name"},
        {46, "cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"},
        {49, "cudaErrorIncompatibleDriverContext", "incompatible driver context"},
        {52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
        {53, "cudaErrorPriorLaunchFailure", "unspecified launch failure in prior launch"},
        {65, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
        {66, "cudaErrorLaunchFileScopedTex", "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)"},
        {67, "cudaErrorLaunchFileScopedSurf", "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)"},
        {68, "cudaErrorSyncDepthExceeded", "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth"},
        {69, "cudaErrorLaunchPendingCountExceeded", "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"},
        {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
        {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
        {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
        {102, "cudaErrorDeviceNotLicensed", "device doesn't have valid Grid license"},
        {103, "cudaErrorSoftwareValidityNotEstablished", "integrity checks failed"},
        {127, "cudaErrorStartupFailure", "startup failure in cuda runtime"},
        {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
        {201, "cudaErrorDeviceUninitialized", "invalid device context"},
        {205, "cudaErrorMapBufferObjectFailed", "mapping of buffer object failed"},
        {206, "cudaErrorUnmapBufferObjectFailed", "unmapping of buffer object failed"},
        {207, "cudaErrorArrayIsMapped", "array is mapped"},
        {208, "cudaErrorAlreadyMapped", "resource already mapped"},
        {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
        {210, "cudaErrorAlreadyAcquired", "resource already acquired"},
        {211, "cudaErrorNotMapped", "resource not mapped"},
        {212, "cudaErrorNotMappedAsArray", "resource not mapped as array"},
        {213, "cudaErrorNotMappedAsPointer", "resource not mapped as pointer"},
        {214, "cudaErrorECCUncorrectable", "uncorrectable ECC error encountered"},
        {215, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
        {216, "cudaErrorDeviceAlreadyInUse", "exclusive-thread device already in use by a different thread"},
        {217, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
        {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
        {219, "cudaErrorInvalidGraphicsContext", "invalid OpenGL or DirectX context"},
        {220, "cudaErrorNvlinkUncorrectable", "uncorrectable NVLink error detected during the execution"},
        {221, "cudaErrorJitCompilerNotFound", "PTX JIT compiler library not found"},
        {222, "cudaErrorUnsupportedPtxVersion", "the provided PTX was compiled with an unsupported toolchain."},
        {223, "cudaErrorJitCompilationDisabled", "PTX JIT compilation was disabled"},
        {224, "cudaErrorUnsupportedExecAffinity", "the provided execution affinity is not supported"},
        {225, "cudaErrorUnsupportedDevSideSync", "the provided PTX contains unsupported call to cudaDeviceSynchronize"},
        {226, "cudaErrorContained", "Invalid access of peer GPU memory over nvlink or a hardware error"},
        {300, "cudaErrorInvalidSource", "device kernel image is invalid"},
        {301, "cudaErrorFileNotFound", "file not found"},
        {302, "cudaErrorSharedObjectSymbolNotFound", "shared object symbol not found"},
        {303, "cudaErrorSharedObjectInitFailed", "shared object initialization failed"},
        {304, "cudaErrorOperatingSystem", "OS call failed or operation not supported on this OS"},
        {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
        {401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
        {402, "cudaErrorLossyQuery", "attempted introspection would be semantically lossy"},
        {500, "cudaErrorSymbolNotFound", "named symbol not found"},
        {600, "cudaErrorNotReady", "device not ready"},
        {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
        {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
        {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
        {703, "cudaErrorLaunchIncompatibleTexturing", "launch uses incompatible texturing mode"},
        {704, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
        {705, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
        {708, "cudaErrorSetOnActiveProcess", "cannot set while device is active in this process"},
        {709, "cudaErrorContextIsDestroyed", "context is destroyed"},
        {710, "cudaErrorAssert", "device-side assert triggered"},
        {711, "cudaErrorTooManyPeers", "peer mapping resources exhausted"},
        {712, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
        {713, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
        {714, "cudaErrorHardwareStackError", "hardware stack error"},
        {715, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
        {716, "cudaErrorMisalignedAddress", "misaligned address"},
        {717, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"},
        {718, "cudaErrorInvalidPc", "invalid program counter"},
        {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
        {720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
        {721, "cudaErrorTensorMemoryLeak", "tensor memory not completely freed"},
        {800, "cudaErrorNotPermitted", "operation not permitted"},
        {801, "cudaErrorNotSupported", "operation not supported"},
        {802, "cudaErrorSystemNotReady", "system not yet initialized"},
        {803, "cudaErrorSystemDriverMismatch", "system has unsupported display driver / cuda driver combination"},
        {804, "cudaErrorCompatNotSupportedOnDevice", "forward compatibility was attempted on non supported HW"},
        {805, "cudaErrorMpsConnectionFailed", "MPS client failed to connect to the MPS control daemon or the MPS server"},
        {806, "cudaErrorMpsRpcFailure", "the remote procedural call between the MPS server and the MPS client failed"},
        {807, "cudaErrorMpsServerNotReady", "MPS server is not ready to accept new MPS client requests"},
        {808, "cudaErrorMpsMaxClientsReached", "the hardware resources required to create MPS client have been exhausted"},
        {809, "cudaErrorMpsMaxConnectionsReached", "the hardware resources required to support device connections have been exhausted"},
        {810, "cudaErrorMpsClientTerminated", "the MPS client has been terminated by the server"},
        {811, "cudaErrorCdpNotSupported", "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it"},
        {812, "cudaErrorCdpVersionMismatch", "unsupported interaction between different versions of CUDA Dynamic Parallelism"},
        {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
        {901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
        {902, "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences"},
        {903, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
        {904, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
        {905, "cudaErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream"},
        {906, "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"},
        {907, "cudaErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream"},
        {908, "cudaErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"},
        {909, "cudaErrorTimeout", "wait operation timed out"},
        {910, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
        {911, "cudaErrorExternalDevice", "an async error has occured in external entity outside of CUDA"},
        {912, "cudaErrorInvalidClusterSize", "a kernel launch error has occurred due to cluster misconfiguration"},
        {913, "cudaErrorFunctionNotLoaded", "the function handle is not loaded when calling an API that requires a loaded function"},
        {914, "cudaErrorInvalidResourceType", "one or more resources passed in are not valid resource types for the operation"},
        {915, "cudaErrorInvalidResourceConfiguration", "one or more resources are insufficient or non-applicable for the operation"},
        {999, "cudaErrorUnknown", "unknown error"},
        {10000, "cudaErrorApiFailureBase", "api failure base"},
};

const ErrorText* error_text(cudaError_t err) {
    for (const ErrorText& e : kErrors)
        if (e.code == static_cast<int>(err)) return &e;
    return nullptr;
}

}  // namespace

const char* cudaGetErrorName(cudaError_t err) {
    const ErrorText* e = error_text(err);
    return e ? e->name : "unrecognized error code";
}

const char* cudaGetErrorString(cudaError_t err) {
    const ErrorText* e = error_text(err);
    return e ? e->text : "unrecognized error code";
}

// ---- streams ------------------------------------------------------------------------------

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags, int priority) {
    if (pStream == nullptr || (flags & ~0x1u) != 0) return fail(cudaErrorInvalidValue);
    auto* s = new CUstream_st;
    s->flags = flags;
    s->priority = priority > kLeastPriority ? kLeastPriority : priority < kGreatestPriority ? kGreatestPriority : priority;
    static unsigned long long ids = 2;  // after the default streams' (cudaStreamGetId)
    s->id = ++ids;
    g_streams.insert(s);
    *pStream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
    return cudaStreamCreateWithPriority(pStream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t* pStream) { return cudaStreamCreateWithPriority(pStream, cudaStreamDefault, 0); }

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
    if (leastPriority) *leastPriority = kLeastPriority;
    if (greatestPriority) *greatestPriority = kGreatestPriority;
    return cudaSuccess;
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
    if (g_streams.erase(stream) == 0) return fail(cudaErrorInvalidResourceHandle);
    delete stream;
    return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
    return valid_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
    return valid_stream(stream) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);  // never cudaErrorNotReady
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
    if (!valid_stream(stream) || !valid_event(event)) return fail(cudaErrorInvalidResourceHandle);
    if ((flags & ~cudaEventWaitExternal) != 0) return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaStreamGetFlags(cudaStream_t hStream, unsigned int* flags) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (flags == nullptr) return fail(cudaErrorInvalidValue);
    *flags = is_default_stream(hStream) ? 0u : hStream->flags;
    return cudaSuccess;
}

cudaError_t cudaStreamGetPriority(cudaStream_t hStream, int* priority) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (priority == nullptr) return fail(cudaErrorInvalidValue);
    *priority = is_default_stream(hStream) ? 0 : hStream->priority;
    return cudaSuccess;
}

cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int* device) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (device == nullptr) return fail(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long* streamId) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    if (streamId == nullptr) return fail(cudaErrorInvalidValue);
    *streamId = hStream == nullptr || hStream == cudaStreamLegacy ? 1 : hStream == cudaStreamPerThread ? 2 : hStream->id;
    return cudaSuccess;
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, std::size_t length, unsigned int flags) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    const auto* a = containing(devPtr);
    if (a == nullptr || a->second.kind != MemoryKind::Managed || a->first != devPtr ||
        (length != 0 && length != a->second.bytes) ||
        (flags != cudaMemAttachGlobal && flags != cudaMemAttachHost && flags != cudaMemAttachSingle))
        return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void* userData,
                                  unsigned int flags) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    if (callback == nullptr || flags != 0) return fail(cudaErrorInvalidValue);
    callback(stream, cudaSuccess, userData);  // the stream's work is done already
    return cudaSuccess;
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void* userData) {
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    if (fn == nullptr) return fail(cudaErrorInvalidValue);
    fn(userData);
    return cudaSuccess;
}

// ---- events: host time, since nothing runs on a GPU -------------------------

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
    if (event == nullptr || (flags & ~0x7u) != 0 ||
        ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)))
        return fail(cudaErrorInvalidValue);
    auto* e = new CUevent_st;
    e->flags = flags;
    g_events.insert(e);
    *event = e;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) { return cudaEventCreateWithFlags(event, cudaEventDefault); }

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
    if (!valid_event(event) || !valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    if ((flags & ~cudaEventRecordExternal) != 0) return fail(cudaErrorInvalidValue);
    event->at = std::chrono::steady_clock::now();  // launches have already run to completion
    event->recorded = true;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) { return cudaEventRecordWithFlags(event, stream, 0); }

cudaError_t cudaEventQuery(cudaEvent_t event) {
    return valid_event(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
    return valid_event(event) ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
    if (!valid_event(start) || !valid_event(end)) return fail(cudaErrorInvalidResourceHandle);
    if (ms == nullptr) return fail(cudaErrorInvalidValue);
    // Never recorded, or created without timing: CUDA's answer for both.
    if (!start->recorded || !end->recorded || ((start->flags | end->flags) & cudaEventDisableTiming))
        return fail(cudaErrorInvalidResourceHandle);
    *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
    if (g_events.erase(event) == 0) return fail(cudaErrorInvalidResourceHandle);
    delete event;
    return cudaSuccess;
}

// ---- the device as a whole ------------------------------------------------------------

cudaError_t cudaDeviceReset() {
    // CUDA destroys the context: every allocation, stream and event goes.
    for (auto it = g_allocations.begin(); it != g_allocations.end();) {
        const auto next = std::next(it);
        if (it->second.kind != MemoryKind::Variable) unmap_allocation(const_cast<unsigned char*>(it->first), ~0u);
        it = next;
    }
    for (cudaStream_t s : g_streams) delete s;
    g_streams.clear();
    for (cudaEvent_t e : g_events) delete e;
    g_events.clear();
    simt::detail::reset_device_settings();
    g_last_error = cudaSuccess;
    return cudaSuccess;
}
