// The CUDA subset the labs use, for compiling a lab's unchanged .cu as C++ on
// the CPU emulator. The build force-includes this header into the rewritten
// source (see rewrite.hpp), whose <<<...>>> launches have become
// simt::launch(...) calls. Each GPU thread runs as a fiber; a block's fibers
// share one OS thread, so `static thread_local` is exactly block-shared memory.
#pragma once

#include <cstddef>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

// ---- qualifiers -------------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
// (__noinline__ is replaced by the rewriter, not defined here: rewrite.cpp.)
#define __launch_bounds__(...)
// One instance per block: all fibers of a block run on one OS thread. Each
// array 16-byte aligned: nvcc packs a kernel's arrays at their type's
// alignment, the first at offset 0, so a float4 view the GPU runs is never
// reported here as misaligned (misaligned_pointer); one it faults on may be missed.
#define __shared__ alignas(16) static thread_local
// CUDA's alignment qualifier (`__shared__ __align__(16) float tile[N];`,
// `struct __align__(16) pair {...}`), GCC's attribute, which may stand where
// nvcc allows it among the specifiers.
#define __align__(n) __attribute__((aligned(n)))
#define __constant__ static

// ---- types and errors (values as in CUDA's driver_types.h) -------------------
enum cudaError_t {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorNoDevice = 100,
    cudaErrorECCUncorrectable = 214,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorHardwareStackError = 714,
    cudaErrorIllegalInstruction = 715,
    cudaErrorMisalignedAddress = 716,
    cudaErrorInvalidAddressSpace = 717,
    cudaErrorInvalidPc = 718,
    cudaErrorLaunchFailure = 719,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

struct CUstream_st;
using cudaStream_t = CUstream_st*;

struct uint3 {
    unsigned x, y, z;
};

struct dim3 {
    unsigned x, y, z;
    constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
};

// Vector types, aligned as CUDA aligns them: one float4 load or store is one
// 16-byte access (a warp's 32 of them one 512-byte transaction on a GPU).
struct alignas(8) float2 {
    float x, y;
};
struct alignas(16) float4 {
    float x, y, z, w;
};
inline float2 make_float2(float x, float y) { return {x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }

// ---- host API ---------------------------------------------------------------
cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
template <typename T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
    return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFree(void* ptr);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);
cudaError_t cudaGetDeviceCount(int* count);
const char* cudaGetErrorString(cudaError_t err);
const char* cudaGetErrorName(cudaError_t err);

// Events measure host time around the emulated kernels, not GPU time.
struct CUevent_st;
using cudaEvent_t = CUevent_st*;
cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);

// What the emulator does not provide fails to compile with a message naming
// it (a plain undeclared name would too, less clearly).
#define SIMT_UNSUPPORTED(name)                                                                         \
    template <typename... Args>                                                                        \
    int name(Args&&...) {                                                                              \
        static_assert(sizeof...(Args) < 0, "simt: " #name " is not supported by the CPU emulator " \
                                           "(scan_backend=emu); see simt/README.md");                  \
        return 0;                                                                                      \
    }
SIMT_UNSUPPORTED(cudaStreamCreate)
SIMT_UNSUPPORTED(cudaStreamSynchronize)
SIMT_UNSUPPORTED(cudaStreamDestroy)
SIMT_UNSUPPORTED(cudaMemcpyAsync)
SIMT_UNSUPPORTED(cudaMemsetAsync)
SIMT_UNSUPPORTED(cudaMallocHost)
SIMT_UNSUPPORTED(cudaHostAlloc)
SIMT_UNSUPPORTED(cudaFreeHost)
SIMT_UNSUPPORTED(cudaMallocManaged)
SIMT_UNSUPPORTED(cudaMallocAsync)
SIMT_UNSUPPORTED(cudaFuncSetAttribute)
SIMT_UNSUPPORTED(cudaMemcpyToSymbol)
SIMT_UNSUPPORTED(cudaMemcpyFromSymbol)
SIMT_UNSUPPORTED(cudaLaunchKernel)
SIMT_UNSUPPORTED(cudaLaunchCooperativeKernel)
SIMT_UNSUPPORTED(__shfl)
SIMT_UNSUPPORTED(__shfl_up)
SIMT_UNSUPPORTED(__shfl_down)
SIMT_UNSUPPORTED(__shfl_xor)
SIMT_UNSUPPORTED(__match_any_sync)
SIMT_UNSUPPORTED(__reduce_add_sync)
SIMT_UNSUPPORTED(tex1Dfetch)
#undef SIMT_UNSUPPORTED

// ---- device built-ins -------------------------------------------------------
namespace simt {

struct ThreadIndex {
    uint3 thread_idx, block_idx;
    dim3 block_dim, grid_dim;
};

// The GPU thread the calling fiber emulates. The shim reads it by value, so
// the kernel file never loads the runtime's own memory (the host-memory
// check would see that as a kernel touching host data).
const ThreadIndex& current();
#define SIMT_RUNTIME_READ __attribute__((no_sanitize_thread)) inline
SIMT_RUNTIME_READ uint3 thread_idx() { return current().thread_idx; }
SIMT_RUNTIME_READ uint3 block_idx() { return current().block_idx; }
SIMT_RUNTIME_READ dim3 block_dim() { return current().block_dim; }
SIMT_RUNTIME_READ dim3 grid_dim() { return current().grid_dim; }
void syncthreads(const char* file, int line);
void* dynamic_shared();

}  // namespace simt

#define threadIdx (::simt::thread_idx())
#define blockIdx (::simt::block_idx())
#define blockDim (::simt::block_dim())
#define gridDim (::simt::grid_dim())
#define warpSize 32
#define __syncthreads() ::simt::syncthreads(__FILE__, __LINE__)
// One OS thread runs every block's fibers, so memory is always coherent: a
// fence is a call into the runtime, which keeps the compiler from moving
// accesses across it. (Not __atomic_thread_fence: under -fsanitize=thread GCC
// turns that into __tsan_atomic_thread_fence, which memcheck.cpp defines too,
// for code that writes it directly.)
// A device-wide fence also tells the race check that the thread's block has
// published what it wrote before (memcheck.cpp); __threadfence_block does not.
namespace simt {
void threadfence(bool device_wide = true);
}
#define __threadfence() ::simt::threadfence()
#define __threadfence_block() ::simt::threadfence(false)
#define __threadfence_system() ::simt::threadfence()

// Read-only loads through the texture path: a plain load here (instrumented,
// so the memory checks see it).
template <typename T>
inline T __ldg(const T* address) {
    return *address;
}

// ---- warp functions ---------------------------------------------------------
namespace simt {

// Every lane named in `mask` deposits a value and waits for the others; the
// result points at the 32 deposits of that round, by lane.
// The lanes of `mask` meet; `orders_memory` for __syncwarp, which (unlike the
// shuffles and votes) orders the participants' memory accesses.
const unsigned long long* warp_exchange(unsigned mask, unsigned long long deposit, const char* file, int line,
                                        bool orders_memory = false);
unsigned lane_id();

template <typename T>
unsigned long long to_bits(T v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "simt: shuffles move values of at most 8 bytes");
    unsigned long long bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    return bits;
}

template <typename T>
T from_bits(unsigned long long bits) {
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
}

// src_of(lane) gives the source lane; out of the segment or the mask, a lane
// keeps its own value (CUDA leaves such results undefined or unchanged).
// Not instrumented: it reads the runtime's deposit buffer, not kernel data.
template <typename T, typename Source>
__attribute__((no_sanitize_thread)) T shuffle(const char* file, int line, unsigned mask, T var, int width,
                                              Source src_of) {
    const unsigned lane = lane_id();
    const unsigned long long* all = warp_exchange(mask, to_bits(var), file, line);
    const int w = (width > 0 && width <= 32) ? width : 32;
    const int base = static_cast<int>(lane) / w * w;
    const int src = src_of(static_cast<int>(lane), base, w);
    if (src < base || src >= base + w || !(mask >> src & 1u)) return var;
    return from_bits<T>(all[src]);
}

}  // namespace simt

#define __syncwarp(...) ::simt::SyncWarp{__FILE__, __LINE__}(__VA_ARGS__)
#define __shfl_sync(mask, var, src, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int, int base, int w) { return base + static_cast<int>(src) % w; })
#define __shfl_up_sync(mask, var, delta, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int lane, int base, int) { int s = lane - static_cast<int>(delta); return s < base ? lane : s; })
#define __shfl_down_sync(mask, var, delta, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int lane, int base, int w) { int s = lane + static_cast<int>(delta); return s >= base + w ? lane : s; })
#define __shfl_xor_sync(mask, var, lane_mask, ...) \
    ::simt::shuffle(__FILE__, __LINE__, mask, var, ::simt::width_or_32(__VA_ARGS__), \
                    [&](int lane, int, int) { return lane ^ static_cast<int>(lane_mask); })
#define __ballot_sync(mask, predicate) ::simt::ballot_at(__FILE__, __LINE__, mask, (predicate) ? 1 : 0)
#define __any_sync(mask, predicate) (__ballot_sync(mask, predicate) != 0u)
#define __all_sync(mask, predicate) (__ballot_sync(mask, predicate) == (mask))
#define __activemask() 0xffffffffu

namespace simt {
constexpr int width_or_32(int width = 32) { return width; }
struct SyncWarp {  // __syncwarp() and __syncwarp(mask), at the caller's line
    const char* file;
    int line;
    void operator()(unsigned mask = 0xffffffffu) const { warp_exchange(mask, 0, file, line, true); }
};
__attribute__((no_sanitize_thread)) inline unsigned ballot_at(const char* file, int line, unsigned mask,
                                                              int predicate) {
    const unsigned long long* all = warp_exchange(mask, static_cast<unsigned long long>(predicate), file, line);
    unsigned bits = 0;
    for (unsigned l = 0; l < 32; ++l)
        if ((mask >> l & 1u) && all[l]) bits |= 1u << l;
    return bits;
}
}  // namespace simt

// ---- atomics: one fiber runs at a time, so a plain read-modify-write is
// atomic; they live in the runtime (not instrumented) and tell the race check
// the access was atomic.
int atomicAdd(int* address, int value);
unsigned atomicAdd(unsigned* address, unsigned value);
unsigned long long atomicAdd(unsigned long long* address, unsigned long long value);
float atomicAdd(float* address, float value);
double atomicAdd(double* address, double value);
int atomicSub(int* address, int value);
unsigned atomicSub(unsigned* address, unsigned value);
int atomicExch(int* address, int value);
unsigned atomicExch(unsigned* address, unsigned value);
float atomicExch(float* address, float value);
int atomicMax(int* address, int value);
unsigned atomicMax(unsigned* address, unsigned value);
int atomicMin(int* address, int value);
unsigned atomicMin(unsigned* address, unsigned value);
unsigned long long atomicExch(unsigned long long* address, unsigned long long value);
long long atomicMax(long long* address, long long value);
unsigned long long atomicMax(unsigned long long* address, unsigned long long value);
long long atomicMin(long long* address, long long value);
unsigned long long atomicMin(unsigned long long* address, unsigned long long value);
int atomicAnd(int* address, int value);
unsigned atomicAnd(unsigned* address, unsigned value);
unsigned long long atomicAnd(unsigned long long* address, unsigned long long value);
int atomicOr(int* address, int value);
unsigned atomicOr(unsigned* address, unsigned value);
unsigned long long atomicOr(unsigned long long* address, unsigned long long value);
int atomicXor(int* address, int value);
unsigned atomicXor(unsigned* address, unsigned value);
unsigned long long atomicXor(unsigned long long* address, unsigned long long value);
unsigned atomicInc(unsigned* address, unsigned limit);  // ((old >= limit) ? 0 : old + 1)
unsigned atomicDec(unsigned* address, unsigned limit);  // ((old == 0 || old > limit) ? limit : old - 1)
int atomicCAS(int* address, int compare, int value);
unsigned atomicCAS(unsigned* address, unsigned compare, unsigned value);
unsigned long long atomicCAS(unsigned long long* address, unsigned long long compare, unsigned long long value);

// ---- launches ---------------------------------------------------------------
namespace simt {

struct LaunchSite {
    const char* kernel;  // the kernel expression as written
    const char* file;
    int line;
};

// Runs body() once per thread of the grid; returns the launch error, if any.
cudaError_t run_grid(const LaunchSite& site, dim3 grid, dim3 block, std::size_t shared_bytes, void (*body)(void*),
                     void* closure);

template <typename... Params>
class Launch {
public:
    Launch(void (*kernel)(Params...), LaunchSite site, dim3 grid, dim3 block, std::size_t shared_bytes)
        : kernel_(kernel), site_(site), grid_(grid), block_(block), shared_bytes_(shared_bytes) {}

    template <typename... Args>
    void operator()(Args&&... args) {
        static_assert(sizeof...(Args) == sizeof...(Params), "kernel launched with the wrong number of arguments");
        struct Closure {
            void (*kernel)(Params...);
            std::tuple<std::decay_t<Params>...> args;
        } closure{kernel_, std::tuple<std::decay_t<Params>...>(std::forward<Args>(args)...)};
        run_grid(site_, grid_, block_, shared_bytes_,
                 [](void* c) {
                     auto* cl = static_cast<Closure*>(c);
                     std::apply(cl->kernel, cl->args);
                 },
                 &closure);
    }

private:
    void (*kernel_)(Params...);
    LaunchSite site_;
    dim3 grid_, block_;
    std::size_t shared_bytes_;
};

// What `kernel<<<grid, block, shared, stream>>>` is rewritten to.
template <typename... Params>
Launch<Params...> launch(void (*kernel)(Params...), LaunchSite site, dim3 grid, dim3 block,
                         std::size_t shared_bytes = 0, cudaStream_t = nullptr) {
    return Launch<Params...>(kernel, site, grid, block, shared_bytes);
}

// Called where a `__shared__` array is declared (the rewriter adds the call):
// the checks then name accesses as name[i][j] and know its extent.
using ElementFormatter = void (*)(const void* element, char* out, std::size_t size);
void declare_shared_array(const void* base, std::size_t bytes, std::size_t element_bytes, const std::size_t* extents,
                          std::size_t rank, const char* name, int line, ElementFormatter format);

// How the trace mode prints one element of a shared array.
void format_element(float v, char* out, std::size_t size);
void format_element(double v, char* out, std::size_t size);
void format_element(long long v, char* out, std::size_t size);
void format_element(unsigned long long v, char* out, std::size_t size);

template <typename T>
void format_as(const void* element, char* out, std::size_t size) {
    if constexpr (std::is_floating_point_v<T>)
        format_element(*static_cast<const T*>(element), out, size);
    else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>)
        format_element(static_cast<long long>(*static_cast<const T*>(element)), out, size);
    else if constexpr (std::is_integral_v<T>)
        format_element(static_cast<unsigned long long>(*static_cast<const T*>(element)), out, size);
    else if (size > 1) {
        out[0] = '?';
        out[1] = '\0';
    }
}

template <typename A, std::size_t... I>
void declare_shared_impl(const A* array, std::size_t bytes, const char* name, int line, std::index_sequence<I...>) {
    using Element = std::remove_cv_t<std::remove_all_extents_t<A>>;
    const std::size_t extents[] = {std::extent_v<A, I>..., 0};
    declare_shared_array(array, bytes, sizeof(Element), extents, sizeof...(I), name, line, &format_as<Element>);
}

template <typename A>
void declare_shared(const A* array, std::size_t bytes, const char* name, int line) {
    declare_shared_impl(array, bytes, name, line, std::make_index_sequence<std::rank_v<A>>());
}

// What `extern __shared__ T name[];` is rewritten to.
template <typename T>
T* dynamic_shared_as() {
    return static_cast<T*>(dynamic_shared());
}

// A pointer made in a kernel to a type that needs more alignment than its
// address has (`type` as the cast wrote it): reported, and the launch stopped.
void misaligned_pointer(const void* address, std::size_t alignment, const char* type, const void* pc);

// What `reinterpret_cast<To>(from)` is rewritten to: the same cast, and in a
// kernel a check of the pointer it makes. A float4* made from `in + 1`
// faults at its first load or store on a GPU (misaligned address), while
// x86 performs them, so the check stops the launch where it is made.
template <typename To, typename From>
__attribute__((noinline)) To reinterpret_checked(const char* type, From&& from) {
    To to = reinterpret_cast<To>(from);
    if constexpr (std::is_pointer_v<To>) {
        using Pointee = std::remove_cv_t<std::remove_pointer_t<To>>;
        if constexpr (!std::is_void_v<Pointee> && !std::is_function_v<Pointee>)
            if (reinterpret_cast<std::size_t>(to) % alignof(Pointee) != 0)
                misaligned_pointer(const_cast<const void*>(reinterpret_cast<const volatile void*>(to)), alignof(Pointee),
                                   type, __builtin_return_address(0));
    }
    return to;
}

}  // namespace simt
