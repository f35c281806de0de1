// Kernel launches, as the rewriter writes them, and the other calls it inserts:
// shared arrays' declarations and checked casts.
#pragma once

#include <cstddef>
#include <new>
#include <string>
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
    const void* function = nullptr;  // the kernel's address (its attributes: cudaFuncSetAttribute)
};

// Whether a launch may go to `stream`; if not, CUDA's error is set (stream_api.cpp).
bool launch_stream_ok(cudaStream_t stream);

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

// A launch converts its arguments on the host to the kernel's parameter types,
// as CUDA does, and each GPU thread calls the kernel on those copies. A
// template kernel launched with its template arguments left to deduction
// (`scan<<<g, b>>>(in, out)` for template <typename T> scan(const T*, T*)) is
// called instead from a generic lambda the rewriter writes at the launch site,
// [&](auto&&... a) { scan(a...); }, on copies of the arguments, so the call
// deduces them as nvcc's does.
//
// A file that uses __CUDA_ARCH__ is compiled twice in one translation unit
// (rewrite.hpp): a host pass, whose host code runs, and a device pass, in
// namespace __simt_device with __CUDA_ARCH__ defined, whose kernels run. Each
// launch site N of the device pass registers at start-up how to call its
// kernel (device_kernel, device_call); the host pass's site N finds it by the
// same key: the site's number, a lambda made at the site (whose type the
// compiler names after the enclosing function and its template arguments)
// and the argument tuple's type, the device pass's namespace left out.
template <int N>
struct Site {};
struct NoTag {};

using DeviceCall = void (*)(void* args);  // args: the launch's tuple of copies
void register_device_site(const std::string& key, DeviceCall call);
DeviceCall find_device_site(const std::string& key);
// __PRETTY_FUNCTION__ less the device pass's namespace and the numbers of a
// generic lambda's invented parameters.
std::string device_site_key(const char* pretty);

template <int N, typename Tag, typename Tuple>
__attribute__((no_sanitize_thread)) const std::string& site_key() {
    static const std::string key = device_site_key(__PRETTY_FUNCTION__);
    return key;
}

// Runs body(args) in every GPU thread, or, for site N >= 0 of a file
// compiled twice, the device pass's call registered for it.
template <int N, typename Tag, typename Tuple, typename Body>
void run_launch(const LaunchSite& site, dim3 grid, dim3 block, std::size_t shared_bytes, Tuple& args, Body& body) {
    struct Closure {
        Body* body;
        Tuple* args;
        DeviceCall device;
    } closure{&body, &args, nullptr};
    if constexpr (N >= 0) closure.device = find_device_site(site_key<N, Tag, Tuple>());
    run_grid(site, grid, block, shared_bytes,
             [](void* c) {
                 auto* cl = static_cast<Closure*>(c);
                 if (cl->device) cl->device(cl->args);
                 else (*cl->body)(*cl->args);
             },
             &closure);
}

struct LaunchConfig {
    LaunchSite site;
    dim3 grid, block;
    std::size_t shared_bytes;
    cudaStream_t stream;  // every stream's work has finished before a launch returns: it runs at once
};

// A kernel whose parameter types are known at the site (a function, or a
// template with its arguments written).
template <int N, typename Tag, typename... Params>
class Launch {
public:
    Launch(void (*kernel)(Params...), LaunchConfig config) : kernel_(kernel), config_(config) {
        config_.site.function = reinterpret_cast<const void*>(kernel);
    }

    template <typename... Args>
    void operator()(Args&&... args) {
        static_assert(sizeof...(Args) == sizeof...(Params), "kernel launched with the wrong number of arguments");
        if (!launch_stream_ok(config_.stream)) return;  // a destroyed stream: nothing runs
        using Tuple = std::tuple<std::decay_t<Params>...>;
        Tuple copies(std::forward<Args>(args)...);
        auto body = [kernel = kernel_](Tuple& t) { std::apply(kernel, t); };
        run_launch<N, Tag>(config_.site, config_.grid, config_.block, config_.shared_bytes, copies, body);
    }

private:
    void (*kernel_)(Params...);
    LaunchConfig config_;
};

// A template kernel whose arguments the call deduces.
template <int N, typename Tag, typename Call>
class CallLaunch {
public:
    CallLaunch(Call call, LaunchConfig config) : call_(std::move(call)), config_(config) {}

    template <typename... Args>
    void operator()(Args&&... args) {
        if (!launch_stream_ok(config_.stream)) return;
        using Tuple = std::tuple<std::decay_t<Args>...>;
        Tuple copies(std::forward<Args>(args)...);
        auto body = [this](Tuple& t) { std::apply(call_, t); };
        run_launch<N, Tag>(config_.site, config_.grid, config_.block, config_.shared_bytes, copies, body);
    }

private:
    Call call_;
    LaunchConfig config_;
};

// What `kernel<<<grid, block, shared, stream>>>` is rewritten to: launch in a
// file compiled once, launch with the site's number and tag in the host pass
// of one compiled twice; launch_call where the kernel's template arguments
// are deduced.
template <typename... Params>
Launch<-1, NoTag, Params...> launch(void (*kernel)(Params...), LaunchSite site, dim3 grid, dim3 block,
                                    std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
    return {kernel, {site, grid, block, shared_bytes, stream}};
}
template <int N, typename Tag, typename... Params>
Launch<N, Tag, Params...> launch(Site<N>, Tag, void (*kernel)(Params...), LaunchSite site, dim3 grid, dim3 block,
                                 std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
    return {kernel, {site, grid, block, shared_bytes, stream}};
}
template <typename Call>
CallLaunch<-1, NoTag, Call> launch_call(Call call, LaunchSite site, dim3 grid, dim3 block, std::size_t shared_bytes = 0,
                                        cudaStream_t stream = nullptr) {
    return {std::move(call), {site, grid, block, shared_bytes, stream}};
}
template <int N, typename Tag, typename Call>
CallLaunch<N, Tag, Call> launch_call(Site<N>, Tag, Call call, LaunchSite site, dim3 grid, dim3 block,
                                     std::size_t shared_bytes = 0, cudaStream_t stream = nullptr) {
    return {std::move(call), {site, grid, block, shared_bytes, stream}};
}

// The device pass's sites: never run; each registers at start-up, for the
// host pass's site of the same number, how to call its kernel on the tuple
// of copies the host pass's launch makes (the two passes' types differ only
// in their namespace, so their tuples have one layout).
struct IgnoredLaunch {
    template <typename... Args>
    void operator()(Args&&...) const {}
};

// Instantiated (odr-used) by a device pass's site, its token's initialiser
// registers `Call` at start-up: the site itself never runs.
template <int N, typename Tag, typename Tuple, DeviceCall Call>
struct DeviceRegistration {
    static const int token;
};
template <int N, typename Tag, typename Tuple, DeviceCall Call>
const int DeviceRegistration<N, Tag, Tuple, Call>::token = (register_device_site(site_key<N, Tag, Tuple>(), Call), 0);

template <typename Tuple, auto Kernel>
void call_kernel(void* args) {
    std::apply(Kernel, *static_cast<Tuple*>(args));
}
template <typename... Params>
std::tuple<std::decay_t<Params>...> params_of(void (*)(Params...));

// Site N of the device pass, for a kernel named with its parameter types known.
template <int N, auto Kernel, typename Tag>
IgnoredLaunch device_kernel(Site<N>, Tag) {
    using Tuple = decltype(params_of(Kernel));
    (void)DeviceRegistration<N, Tag, Tuple, &call_kernel<Tuple, Kernel>>::token;
    return {};
}

template <typename Call, typename Tuple>
void call_device(void* args) {
    static_assert(std::is_empty_v<Call>, "the device pass's call names its kernel and captures nothing");
    // A closure without captures has no state: calling it needs no object made from one.
    alignas(Call) unsigned char none[sizeof(Call)] = {};
    std::apply(*std::launder(reinterpret_cast<Call*>(none)), *static_cast<Tuple*>(args));
}

template <int N, typename Tag, typename Call>
struct DeviceCallSite {
    template <typename... Args>
    void operator()(Args&&...) const {
        using Tuple = std::tuple<std::decay_t<Args>...>;
        (void)DeviceRegistration<N, Tag, Tuple, &call_device<Call, Tuple>>::token;
    }
};
// Site N of the device pass, for a template kernel whose arguments are deduced.
template <int N, typename Tag, typename Call>
DeviceCallSite<N, Tag, Call> device_call(Site<N>, Tag, Call) {
    return {};
}

// Called where a `__shared__` array is declared (the rewriter adds the call):
// the checks then name accesses as name[i][j] and know its extent.
using ElementFormatter = void (*)(const void* element, char* out, std::size_t size);
void declare_shared_array(const void* base, std::size_t bytes, std::size_t element_bytes, const std::size_t* extents,
                          std::size_t rank, const char* name, int line, ElementFormatter format);

// Called once for each rewritten file (the rewriter adds the call at its
// end): `kept` lists, as (line, columns) pairs ending with a 0, the lines its
// passes changed and how much of each starts as written, so a report gives a
// line's column only where it still points into the .cu as written. A
// leading ~0u: no column of the file does (its lines no longer match).
bool note_kept_columns(const char* file, const unsigned* kept);

// How the trace mode prints one element of a shared array.
void format_element(float v, char* out, std::size_t size);
void format_element(double v, char* out, std::size_t size);
void format_element(long long v, char* out, std::size_t size);
void format_element(unsigned long long v, char* out, std::size_t size);

template <typename T>
__attribute__((no_sanitize_coverage)) void format_as(const void* element, char* out, std::size_t size) {
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
    declare_shared_array(const_cast<const std::remove_cv_t<A>*>(array), bytes, sizeof(Element), extents, sizeof...(I),
                         name, line, &format_as<Element>);
}

template <typename A>
void declare_shared(const A* array, std::size_t bytes, const char* name, int line) {
    declare_shared_impl(array, bytes, name, line, std::make_index_sequence<std::rank_v<A>>());
}

// Called at start-up for each `__shared__` variable at namespace scope (the
// rewriter adds the call): `address` gives the calling thread's copy, which
// a block's threads then share, as a function's `__shared__` arrays. The
// runtime takes it into a block's arrays at the block's first access to it
// (memcheck_launch.cpp), so a kernel counts only those it uses, as nvcc's do.
using SharedAddress = const volatile void* (*)();
void declare_static_shared_array(SharedAddress address, std::size_t bytes, std::size_t element_bytes,
                                 const std::size_t* extents, std::size_t rank, const char* name, int line,
                                 ElementFormatter format);

template <typename A, std::size_t... I>
bool declare_static_shared_impl(SharedAddress address, const char* name, int line, std::index_sequence<I...>) {
    using Element = std::remove_cv_t<std::remove_all_extents_t<A>>;
    const std::size_t extents[] = {std::extent_v<A, I>..., 0};
    declare_static_shared_array(address, sizeof(A), sizeof(Element), extents, sizeof...(I), name, line,
                                &format_as<Element>);
    return true;
}

template <typename A>
bool declare_static_shared(SharedAddress address, const char* name, int line) {
    return declare_static_shared_impl<A>(address, name, line, std::make_index_sequence<std::rank_v<A>>());
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
__attribute__((noinline, no_sanitize_coverage)) To reinterpret_checked(const char* type, From&& from) {
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
