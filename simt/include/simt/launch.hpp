// Kernel launches, as the rewriter writes them, and the other calls it inserts:
// shared arrays' declarations and checked casts.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include "simt/host_api.hpp"
#include "simt/vector_types.hpp"

namespace simt {

struct LaunchSite {
    const char* kernel;  // the kernel expression as written
    const char* file;
    int line;
};

// How a kernel was launched: <<<>>>, cudaLaunchKernel, or
// cudaLaunchCooperativeKernel (every block resident at once: grid syncs work).
enum class LaunchKind { Chevrons, Runtime, Cooperative };

// Runs body() once per thread of the grid; returns the launch error, if any.
cudaError_t run_grid(const LaunchSite& site, dim3 grid, dim3 block, std::size_t shared_bytes, void (*body)(void*),
                     void* closure, LaunchKind kind = LaunchKind::Chevrons);

// cudaLaunchKernel and cudaLaunchCooperativeKernel: the arguments are read
// from `args` (one pointer per parameter, as CUDA's runtime reads them) into
// copies of the kernel's parameter types when the launch is made.
template <typename... Params, std::size_t... I>
cudaError_t launch_with_args(void (*kernel)(Params...), const LaunchSite& site, dim3 grid, dim3 block, void** args,
                             std::size_t shared_bytes, LaunchKind kind, std::index_sequence<I...>) {
    struct Closure {
        void (*kernel)(Params...);
        std::tuple<std::decay_t<Params>...> args;
    } closure{kernel, std::tuple<std::decay_t<Params>...>(*static_cast<std::decay_t<Params>*>(args[I])...)};
    return run_grid(site, grid, block, shared_bytes,
                    [](void* c) {
                        auto* cl = static_cast<Closure*>(c);
                        std::apply(cl->kernel, cl->args);
                    },
                    &closure, kind);
}

template <typename... Params>
cudaError_t launch_through_api(void (*kernel)(Params...), const LaunchSite& site, dim3 grid, dim3 block, void** args,
                               std::size_t shared_bytes, LaunchKind kind) {
    if (sizeof...(Params) > 0 && args == nullptr) return cudaErrorInvalidValue;
    return launch_with_args(kernel, site, grid, block, args, shared_bytes, kind, std::index_sequence_for<Params...>());
}

// Where the rewriter names the launch (its kernel as written, file and line).
struct ApiLaunchSite {
    LaunchSite site;
};

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

// CUDA's runtime launches: templates over the kernel's parameter types, as
// cuda_runtime.h's (the rewriter drops a cast of the kernel to `void*` at the
// call and names the launch for the reports: ::simt::ApiLaunchSite first).
template <typename... Params>
cudaError_t cudaLaunchKernel(void (*func)(Params...), dim3 grid_dim, dim3 block_dim, void** args,
                             std::size_t sharedMem = 0, cudaStream_t = nullptr,
                             const char* simt_file = __builtin_FILE(), int simt_line = __builtin_LINE()) {
    return ::simt::launch_through_api(func, {"kernel", simt_file, simt_line}, grid_dim, block_dim, args, sharedMem,
                                      ::simt::LaunchKind::Runtime);
}
template <typename... Params>
cudaError_t cudaLaunchKernel(::simt::ApiLaunchSite at, void (*func)(Params...), dim3 grid_dim, dim3 block_dim,
                             void** args, std::size_t sharedMem = 0, cudaStream_t = nullptr) {
    return ::simt::launch_through_api(func, at.site, grid_dim, block_dim, args, sharedMem, ::simt::LaunchKind::Runtime);
}
template <typename... Params>
cudaError_t cudaLaunchCooperativeKernel(void (*func)(Params...), dim3 grid_dim, dim3 block_dim, void** args,
                                        std::size_t sharedMem = 0, cudaStream_t = nullptr,
                                        const char* simt_file = __builtin_FILE(), int simt_line = __builtin_LINE()) {
    return ::simt::launch_through_api(func, {"kernel", simt_file, simt_line}, grid_dim, block_dim, args, sharedMem,
                                      ::simt::LaunchKind::Cooperative);
}
template <typename... Params>
cudaError_t cudaLaunchCooperativeKernel(::simt::ApiLaunchSite at, void (*func)(Params...), dim3 grid_dim,
                                        dim3 block_dim, void** args, std::size_t sharedMem = 0, cudaStream_t = nullptr) {
    return ::simt::launch_through_api(func, at.site, grid_dim, block_dim, args, sharedMem,
                                      ::simt::LaunchKind::Cooperative);
}
// A kernel known only as a `void*` (not the kernel's own name, whose cast the
// rewriter drops): its parameters cannot be read from `args`.
template <typename F, typename = std::enable_if_t<!std::is_function_v<F>>>
cudaError_t cudaLaunchKernel(const F*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
    static_assert(std::is_function_v<F>, "simt: cudaLaunchKernel needs the kernel itself as its first argument (its "
                                         "name, or (void*)name), not a void* variable: the emulator reads the "
                                         "kernel's parameter types from it");
    return cudaErrorInvalidValue;
}
template <typename F, typename = std::enable_if_t<!std::is_function_v<F>>>
cudaError_t cudaLaunchCooperativeKernel(const F*, dim3, dim3, void**, std::size_t = 0, cudaStream_t = nullptr) {
    static_assert(std::is_function_v<F>, "simt: cudaLaunchCooperativeKernel needs the kernel itself as its first "
                                         "argument (its name, or (void*)name), not a void* variable: the emulator "
                                         "reads the kernel's parameter types from it");
    return cudaErrorInvalidValue;
}
