// The runtime API's memory (host_api.hpp; runtime_api.cpp): device,
// stream-ordered, pinned and managed allocations, copies and sets, pointers'
// attributes, and `__device__` and `__constant__` variables as symbols.
#pragma once

#include <cstddef>
#include "simt/host_types.hpp"

// ---- device memory ---------------------------------------------------------------

// The typed overloads tell the runtime their caller's line (a report of a
// read of unwritten memory names it; the untyped ones find it themselves):
// GCC's default arguments __builtin_FILE() and __builtin_LINE() are the call's.
namespace simt {
void note_allocation_site(const char* file, unsigned line);
}
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
template <typename T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes, const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
    simt::note_allocation_site(file, line);
    return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream = 0);
cudaError_t cudaMemsetAsync(void* devPtr, int value, std::size_t count, cudaStream_t stream = 0);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);

// Stream-ordered allocation: device memory, freed by cudaFreeAsync or cudaFree.
cudaError_t cudaMallocAsync(void** devPtr, std::size_t size, cudaStream_t hStream);
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t hStream);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* memPool, int device);
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* memPool, int device);
cudaError_t cudaMallocFromPoolAsync(void** ptr, std::size_t size, cudaMemPool_t memPool, cudaStream_t stream);
inline cudaError_t cudaMallocAsync(void** ptr, std::size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t size, cudaMemPool_t memPool, cudaStream_t stream,
                            const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
    simt::note_allocation_site(file, line);
    return cudaMallocFromPoolAsync((void**)(void*)ptr, size, memPool, stream);
}
template <class T>
cudaError_t cudaMallocAsync(T** ptr, std::size_t size, cudaStream_t stream, const char* file = __builtin_FILE(),
                            unsigned line = __builtin_LINE()) {
    simt::note_allocation_site(file, line);
    return cudaMallocAsync((void**)(void*)ptr, size, stream);
}
template <class T>
cudaError_t cudaMallocFromPoolAsync(T** ptr, std::size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync((void**)(void*)ptr, size, memPool, stream);
}

// Pinned host memory: host memory a kernel may also read and write (the
// H100 has unified addressing), so the checks treat it as a kernel's own.
cudaError_t cudaMallocHost(void** ptr, std::size_t size);
cudaError_t cudaHostAlloc(void** pHost, std::size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaHostRegister(void* ptr, std::size_t size, unsigned int flags);
cudaError_t cudaHostUnregister(void* ptr);
cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags);
cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost);
inline cudaError_t cudaMallocHost(void** ptr, std::size_t size, unsigned int flags) {
    return cudaHostAlloc(ptr, size, flags);
}
template <class T>
cudaError_t cudaMallocHost(T** ptr, std::size_t size, unsigned int flags = 0) {
    return cudaMallocHost((void**)(void*)ptr, size, flags);
}
template <class T>
cudaError_t cudaHostAlloc(T** ptr, std::size_t size, unsigned int flags) {
    return cudaHostAlloc((void**)(void*)ptr, size, flags);
}
template <class T>
cudaError_t cudaHostGetDevicePointer(T** pDevice, void* pHost, unsigned int flags) {
    return cudaHostGetDevicePointer((void**)(void*)pDevice, pHost, flags);
}

// Managed memory: device memory the host may read and write as well.
cudaError_t cudaMallocManaged(void** devPtr, std::size_t size, unsigned int flags = cudaMemAttachGlobal);
template <class T>
cudaError_t cudaMallocManaged(T** devPtr, std::size_t size, unsigned int flags = cudaMemAttachGlobal) {
    return cudaMallocManaged((void**)(void*)devPtr, size, flags);
}
enum cudaMemLocationType {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeNone = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
    cudaMemLocationTypeHostNuma = 3,
    cudaMemLocationTypeHostNumaCurrent = 4,
};
struct cudaMemLocation {
    enum cudaMemLocationType type;
    int id;
};
// Nothing migrates on the emulator: a check of the arguments.
cudaError_t cudaMemPrefetchAsync(const void* devPtr, std::size_t count, struct cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream = 0);

enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3,
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void* devicePointer;
    void* hostPointer;
    long reserved[8];
};
cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes* attributes, const void* ptr);

// ---- symbols: `__device__` and `__constant__` variables ----------------------------
// On the emulator a symbol is the variable itself; the rewriter registers each
// one defined at namespace scope in the .cu (simt::declare_device_variable).

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, std::size_t count, std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice);
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, std::size_t count, std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost);
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, std::size_t count, std::size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, std::size_t count, std::size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream = 0);
cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol);
cudaError_t cudaGetSymbolSize(std::size_t* size, const void* symbol);
template <class T>
cudaError_t cudaMemcpyToSymbol(const T& symbol, const void* src, std::size_t count, std::size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return cudaMemcpyToSymbol((const void*)&symbol, src, count, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyToSymbolAsync(const T& symbol, const void* src, std::size_t count, std::size_t offset = 0,
                                    cudaMemcpyKind kind = cudaMemcpyHostToDevice, cudaStream_t stream = 0) {
    return cudaMemcpyToSymbolAsync((const void*)&symbol, src, count, offset, kind, stream);
}
template <class T>
cudaError_t cudaMemcpyFromSymbol(void* dst, const T& symbol, std::size_t count, std::size_t offset = 0,
                                 cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return cudaMemcpyFromSymbol(dst, (const void*)&symbol, count, offset, kind);
}
template <class T>
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const T& symbol, std::size_t count, std::size_t offset = 0,
                                      cudaMemcpyKind kind = cudaMemcpyDeviceToHost, cudaStream_t stream = 0) {
    return cudaMemcpyFromSymbolAsync(dst, (const void*)&symbol, count, offset, kind, stream);
}
template <class T>
cudaError_t cudaGetSymbolAddress(void** devPtr, const T& symbol) {
    return cudaGetSymbolAddress(devPtr, (const void*)&symbol);
}
template <class T>
cudaError_t cudaGetSymbolSize(std::size_t* size, const T& symbol) {
    return cudaGetSymbolSize(size, (const void*)&symbol);
}

namespace simt {
// What the rewriter adds after each `__device__` or `__constant__` variable
// defined at namespace scope: the kernels' accesses to it are then checked as
// device memory's, and it is a symbol for cudaMemcpyToSymbol and the rest.
bool declare_device_variable(const volatile void* address, std::size_t bytes, const char* name, int line);
}  // namespace simt
