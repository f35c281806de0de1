// The CUDA runtime API on the host: memory (device, managed, pinned and
// stream-ordered allocations, each a mapping of its own, so a kernel's access
// out of bounds lands where the checks see it; registered host memory;
// `__device__` variables), copies, CUDA's error state and symbols. Its errors'
// names are error_api.cpp's, streams and events stream_api.cpp's, launches
// launch.cpp's; the device's properties, kernels' attributes and the occupancy
// calculator device_api.cpp's.
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <utility>
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
using simt::detail::containing;
using simt::detail::fail;
using simt::detail::g_allocations;
using simt::detail::MemoryKind;
using simt::detail::unmap_allocation;
using simt::detail::valid_stream;

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

}  // namespace

namespace simt::detail {

// The allocation whose bytes p points into (not past its end), or null.
const std::pair<const unsigned char* const, Allocation>* containing(const void* p) {
    simt::detail::adopt_device_variables();
    const auto* q = static_cast<const unsigned char*>(p);
    auto it = g_allocations.upper_bound(q);
    if (it == g_allocations.begin()) return nullptr;
    --it;
    return q < it->first + it->second.bytes ? &*it : nullptr;
}

}  // namespace simt::detail

namespace {

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
cudaError_t map_allocation(void** ptr, std::size_t bytes, MemoryKind kind, unsigned flags,
                           const void* at = nullptr) {
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
    if (kind == MemoryKind::Device) a.init = std::make_shared<simt::detail::InitBits>(bytes);
    a.allocated_at = at;
    *ptr = p;
    return cudaSuccess;
}

}  // namespace

namespace simt::detail {

// Frees the allocation at `ptr` if it is one of `kinds` (a bit per MemoryKind).
bool unmap_allocation(void* ptr, unsigned kinds) {
    const auto it = g_allocations.find(static_cast<const unsigned char*>(ptr));
    if (it == g_allocations.end() || !(kinds >> static_cast<unsigned>(it->second.kind) & 1u)) return false;
    ++g_allocations_freed;
    traffic_forget(it->first);
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

}  // namespace simt::detail

namespace {

constexpr unsigned bit(MemoryKind k) { return 1u << static_cast<unsigned>(k); }

}  // namespace

// What cudaDeviceGetDefaultMemPool hands out: the device's one pool.
struct CUmemPoolHandle_st {};

namespace {

CUmemPoolHandle_st g_default_pool;

}  // namespace

// ---- device memory ----------------------------------------------------------------

namespace {

// cudaMalloc's, cudaMallocAsync's and cudaMallocFromPoolAsync's work: `at`
// is their caller, which the uninitialised-read report names.
thread_local const char* g_site_file = nullptr;  // simt::note_allocation_site's, for the next allocation
thread_local unsigned g_site_line = 0;

cudaError_t device_malloc(void** ptr, std::size_t bytes, const void* at) {
    const char* file = std::exchange(g_site_file, nullptr);
    if (ptr == nullptr) return fail(cudaErrorInvalidValue);
    *ptr = nullptr;
    if (bytes == 0) return cudaSuccess;
    const cudaError_t err = map_allocation(ptr, bytes, MemoryKind::Device, 0, at);
    if (err == cudaSuccess && file != nullptr) {
        Allocation& a = g_allocations[static_cast<const unsigned char*>(*ptr)];
        a.site_file = file;
        a.site_line = g_site_line;
    }
    return err;
}

}  // namespace

void simt::note_allocation_site(const char* file, unsigned line) {
    g_site_file = file;
    g_site_line = line;
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) { return device_malloc(ptr, bytes, __builtin_return_address(0)); }

cudaError_t cudaFree(void* ptr) {
    if (ptr == nullptr) return cudaSuccess;
    if (!unmap_allocation(ptr, bit(MemoryKind::Device) | bit(MemoryKind::Managed))) return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaMallocAsync(void** devPtr, std::size_t size, cudaStream_t hStream) {
    if (!valid_stream(hStream)) return fail(cudaErrorInvalidResourceHandle);
    return device_malloc(devPtr, size, __builtin_return_address(0));
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
    if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
    return device_malloc(ptr, size, __builtin_return_address(0));
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
    if (to->second.init) to->second.init->mark(static_cast<const unsigned char*>(dst) - to->first, bytes);
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
    simt::detail::traffic_before_copy(dst, src);
    std::memmove(dst, src, bytes);
    note_copy(dst, src, bytes);
    simt::detail::traffic_after_copy(dst, src, bytes);
    return cudaSuccess;
}

cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
    if (bytes == 0) return cudaSuccess;
    if (!device_side(dst, bytes)) return fail(cudaErrorInvalidValue);
    simt::detail::traffic_before_copy(dst, dst);
    std::memset(dst, value, bytes);
    if (const auto* a = holding(dst, bytes); a->second.init)
        a->second.init->mark(static_cast<const unsigned char*>(dst) - a->first, bytes);
    simt::detail::traffic_after_set(dst, bytes);
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
