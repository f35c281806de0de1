// CUDA backend of device.hpp (with device_runtime.cpp). The build links every test with
// -Wl,--wrap=<call> for the allocation and launch calls below, so allocations made by
// the lab's scan.cu are counted here and a lab that forgets cudaFree is caught, and
// so are its launches (nvcc's `kernel<<<...>>>` stubs call __cudaLaunchKernel from
// CUDA 13 on, cudaLaunchKernel before): a lab function that launched nothing
// computed its answer on the host.
#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "device.hpp"

extern "C" {
cudaError_t __real_cudaMalloc(void** p, size_t bytes);
cudaError_t __real_cudaMallocManaged(void** p, size_t bytes, unsigned flags);
cudaError_t __real_cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream);
cudaError_t __real_cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height);
cudaError_t __real_cudaFree(void* p);
cudaError_t __real_cudaFreeAsync(void* p, cudaStream_t stream);
cudaError_t __real_cudaLaunchKernel(const void* f, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s);
cudaError_t __real_cudaLaunchCooperativeKernel(const void* f, dim3 grid, dim3 block, void** args, size_t shared,
                                               cudaStream_t s);
cudaError_t __real_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* f, void** args);
#if CUDART_VERSION >= 13000
cudaError_t __real___cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s);
cudaError_t __real___cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void** args, size_t shared,
                                           cudaStream_t s);
#endif
}

namespace {

std::mutex g_mutex;
std::unordered_map<void*, std::size_t> g_live;  // pointer -> bytes

// Records an allocation once the real call has returned: `p` is the caller's
// pointer-to-pointer, read only after the call wrote it.
cudaError_t track(cudaError_t err, void** p, std::size_t bytes) {
    if (err == cudaSuccess && *p != nullptr) {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_live[*p] = bytes;
    }
    return err;
}

std::atomic<long long> g_launches{0}, g_blocks{0};

thread_local std::string g_refused;  // device::take_refused_launch()

// Counts a launch the runtime accepted (one it refused ran nothing) and
// describes one it refused: the stubs do not give the kernel's name or line.
cudaError_t count_launch(cudaError_t err, dim3 grid, dim3 block) {
    if (err == cudaSuccess) {
        ++g_launches;
        g_blocks += 1ll * grid.x * grid.y * grid.z;
    } else {
        const auto dims = [](dim3 d) {
            return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
        };
        g_refused = "a kernel launch with <<<" + dims(grid) + ", " + dims(block) + ">>> was refused" +
                    (grid.x == 0 || grid.y == 0 || grid.z == 0
                         ? ": a grid of 0 blocks (a block count computed from n is 0 for n == 0, which must return "
                           "before launching)"
                         : "");
    }
    return err;
}

cudaError_t untrack(cudaError_t err, void* p) {
    if (err == cudaSuccess && p != nullptr) {
        std::lock_guard<std::mutex> lock(g_mutex);
        g_live.erase(p);
    }
    return err;
}

}  // namespace

extern "C" {
cudaError_t __wrap_cudaMalloc(void** p, size_t bytes) {
    const cudaError_t err = __real_cudaMalloc(p, bytes);
    return track(err, p, bytes);
}
cudaError_t __wrap_cudaMallocManaged(void** p, size_t bytes, unsigned flags) {
    const cudaError_t err = __real_cudaMallocManaged(p, bytes, flags);
    return track(err, p, bytes);
}
cudaError_t __wrap_cudaMallocAsync(void** p, size_t bytes, cudaStream_t stream) {
    const cudaError_t err = __real_cudaMallocAsync(p, bytes, stream);
    return track(err, p, bytes);
}
cudaError_t __wrap_cudaMallocPitch(void** p, size_t* pitch, size_t width, size_t height) {
    const cudaError_t err = __real_cudaMallocPitch(p, pitch, width, height);
    return track(err, p, err == cudaSuccess ? *pitch * height : 0);
}
cudaError_t __wrap_cudaFree(void* p) { return untrack(__real_cudaFree(p), p); }
cudaError_t __wrap_cudaFreeAsync(void* p, cudaStream_t stream) {
    return untrack(__real_cudaFreeAsync(p, stream), p);
}
cudaError_t __wrap_cudaLaunchKernel(const void* f, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s) {
    return count_launch(__real_cudaLaunchKernel(f, grid, block, args, shared, s), grid, block);
}
cudaError_t __wrap_cudaLaunchCooperativeKernel(const void* f, dim3 grid, dim3 block, void** args, size_t shared,
                                               cudaStream_t s) {
    return count_launch(__real_cudaLaunchCooperativeKernel(f, grid, block, args, shared, s), grid, block);
}
cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* f, void** args) {
    return count_launch(__real_cudaLaunchKernelExC(config, f, args), config->gridDim, config->blockDim);
}
#if CUDART_VERSION >= 13000
cudaError_t __wrap___cudaLaunchKernel(cudaKernel_t k, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t s) {
    return count_launch(__real___cudaLaunchKernel(k, grid, block, args, shared, s), grid, block);
}
cudaError_t __wrap___cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 grid, dim3 block, void** args, size_t shared,
                                           cudaStream_t s) {
    return count_launch(__real___cudaLaunchKernel_ptsz(k, grid, block, args, shared, s), grid, block);
}
#endif
}

namespace device {

Availability probe() {
    const auto none = [](const std::string& why) -> Availability {
        return {false, "no usable CUDA device: " + why +
                           "; the cuda backend needs an NVIDIA GPU (-Dscan_backend=emu runs the suites on the CPU emulator)"};
    };
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess)
        return none(std::string("cudaGetDeviceCount failed with ") + cudaGetErrorName(err) + " (" +
                    cudaGetErrorString(err) + ")");
    if (count == 0) return none("the driver reports none");
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return none("cudaGetDeviceProperties failed");
    return {true, std::string(prop.name) + " (compute capability " + std::to_string(prop.major) +
                      "." + std::to_string(prop.minor) + ")"};
}

const char* backend() { return "cuda"; }

std::vector<finding::Finding> take_findings() { return {}; }  // the hardware reports none

// nvcc predicates the labs' branches, so hardware counters cannot tell; the
// emulator can.
bool trace_divergence(bool) { return false; }
std::vector<LaunchDivergence> take_divergence() { return {}; }
bool trace_shared(const std::string&, unsigned, std::size_t) { return false; }
std::string take_shared_trace() { return {}; }
std::string shared_trace_unmatched() { return {}; }
std::string take_refused_launch() {
    std::string out;
    out.swap(g_refused);
    return out;
}

Work work_so_far() { return {g_launches.load(), g_blocks.load()}; }
// Where the output's data came from is the emulator's to tell.
int written_by_kernel(const float*) { return -1; }
void given(const float*, std::size_t) {}
// So is what went through the host: no copy is followed here.
void count_host_traffic() {}
HostTraffic host_traffic(const float*) { return {}; }
std::string block_order() { return ""; }
bool set_block_order(const std::string&) { return false; }
void limit_spinning(unsigned long long, bool) {}  // a GPU has no watchdog of the emulator's

Usage in_use() {
    std::lock_guard<std::mutex> lock(g_mutex);
    Usage u;
    for (const auto& entry : g_live) u.bytes += entry.second;
    u.allocations = g_live.size();
    return u;
}

bool reset() {
    const bool done = cudaDeviceReset() == cudaSuccess;
    std::lock_guard<std::mutex> lock(g_mutex);
    g_live.clear();
    return done;
}

}  // namespace device
