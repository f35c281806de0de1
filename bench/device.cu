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

// A step in [-4, 4] from (seed, i): splitmix64's finalizer over their sum, so
// neighbouring indices and seeds give unrelated steps.
__device__ float step_of(std::uint64_t seed, std::uint64_t i) {
    std::uint64_t z = seed + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(static_cast<int>(z % 9) - 4);
}

__global__ void fresh_input_kernel(float* in, std::size_t n, std::uint64_t seed) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x)
        in[i] = step_of(seed, i);
}

// The recurrence a scan of integer steps holds exactly in float32 (every
// partial sum of a walk is an integer far below 2^24): checking it at every
// index checks every output, in one read of the input and the output.
__global__ void check_kernel(const float* in, const float* out, std::size_t n, std::uint64_t seed, bool exclusive,
                             std::size_t section, OutputCheck* found) {
    for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n; i += std::size_t{gridDim.x} * blockDim.x) {
        const float x = step_of(seed, i);
        if (in[i] != x) atomicAdd(reinterpret_cast<unsigned long long*>(&found->input_changed), 1ull);
        const bool start = section ? i % section == 0 : i == 0;
        const float want = start ? (exclusive ? 0.0f : x) : out[i - 1] + (exclusive ? step_of(seed, i - 1) : x);
        if (!(out[i] == want)) {  // a NaN, the poison included, is never equal
            atomicAdd(reinterpret_cast<unsigned long long*>(&found->wrong), 1ull);
            atomicMin(reinterpret_cast<unsigned long long*>(&found->first), static_cast<unsigned long long>(i));
        }
    }
}

constexpr unsigned kThreads = 256, kBlocks = 132 * 8;  // grid-stride loops: enough blocks to fill a large GPU

// check_kernel over out[0, n), its counters in `counters` (device memory):
// Buffers::verify's and verify_device_only's one way to check an output.
OutputCheck check_output(const float* in, const float* out, std::size_t n, std::uint64_t seed, bool exclusive,
                         std::size_t section, OutputCheck* counters) {
    OutputCheck found;
    found.first = ~std::uint64_t{0};
    check(cudaMemcpy(counters, &found, sizeof found, cudaMemcpyHostToDevice), "resetting the output check");
    check_kernel<<<kBlocks, kThreads>>>(in, out, n, seed, exclusive, section, counters);
    check(cudaGetLastError(), "checking an output");
    check(cudaMemcpy(&found, counters, sizeof found, cudaMemcpyDeviceToHost), "checking an output");
    return found;
}

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

std::string error_text(int code) {
    const auto e = static_cast<cudaError_t>(code);
    return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

std::size_t free_bytes() {
    std::size_t free = 0, total = 0;
    check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
    return free;
}

int synchronize() { return static_cast<int>(cudaDeviceSynchronize()); }

Buffers::Buffers(const std::vector<float>& input, std::size_t n, unsigned outputs, float fill, std::size_t l2_bytes)
    : n_(n), length_(input.size()), flush_bytes_(2 * l2_bytes) {
    const std::size_t bytes = length_ * sizeof(float);
    check(cudaMalloc(&in_, bytes), "cudaMalloc of the input");
    for (unsigned k = 0; k < outputs; ++k) {
        float* out = nullptr;
        check(cudaMalloc(&out, bytes), "cudaMalloc of an output");
        outs_.push_back(out);
    }
    reset(input, fill);
    check(cudaMalloc(&flush_, flush_bytes_), "cudaMalloc of the L2 flush buffer");
    check(cudaMalloc(&found_, sizeof(OutputCheck)), "cudaMalloc of the output check's counters");
    cudaEvent_t a, b;
    check(cudaEventCreate(&a), "cudaEventCreate");
    check(cudaEventCreate(&b), "cudaEventCreate");
    start_ = a;
    stop_ = b;
}

void Buffers::reset(const std::vector<float>& input, float fill) {
    if (input.size() != length_) throw DeviceError("an input of another length");
    const std::size_t bytes = length_ * sizeof(float);
    check(cudaMemcpy(in_, input.data(), bytes, cudaMemcpyHostToDevice), "uploading the input");
    const std::vector<float> filled(length_, fill);
    for (float* out : outs_) check(cudaMemcpy(out, filled.data(), bytes, cudaMemcpyHostToDevice), "filling an output");
}

Buffers::~Buffers() {
    // After a sticky error these fail too; nothing more can be done then.
    cudaFree(in_);
    for (float* o : outs_) cudaFree(o);
    cudaFree(flush_);
    cudaFree(found_);
    cudaFree(cub_temp_);
    if (start_) cudaEventDestroy(event(start_));
    if (stop_) cudaEventDestroy(event(stop_));
}

double Buffers::time(const std::function<void()>& work, const std::string& what) {
    // Lines an access policy window marked persisting would survive the
    // flush: made normal first, so no call starts with data a call before it left in L2.
    check(cudaCtxResetPersistingL2Cache(), "resetting persisting L2 lines");
    // A different byte each time, so no flush can be skipped as a repeat.
    check(cudaMemsetAsync(flush_, static_cast<int>(++flushes_ & 0xff), flush_bytes_), "flushing L2");
    // The clock starts with the whole device idle and stops once it is idle
    // again: work a call puts on another stream (which an event on the
    // default stream does not wait for) or leaves running when it returns is
    // counted, and none of it overlaps the flush.
    check(cudaDeviceSynchronize(), "flushing L2");
    check(cudaEventRecord(event(start_)), "cudaEventRecord");
    work();
    check(cudaGetLastError(), what + " (launch)");
    check(cudaDeviceSynchronize(), what + " (execution)");
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

void Buffers::fresh_input(std::uint64_t seed) {
    fresh_input_kernel<<<kBlocks, kThreads>>>(in_, n_, seed);
    check(cudaGetLastError(), "generating an input");
}

OutputCheck Buffers::verify(unsigned k, std::uint64_t seed, bool exclusive, std::size_t section) {
    return check_output(in_, outs_.at(k), n_, seed, exclusive, section, static_cast<OutputCheck*>(found_));
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

std::size_t DeviceOnlyRun::bytes_for(std::size_t n) { return 2 * n * sizeof(float) + (256u << 20); }

DeviceOnlyRun::DeviceOnlyRun(std::size_t n, std::uint64_t seed) {
    check(cudaMalloc(&in_, n * sizeof(float)), "cudaMalloc of the input");
    check(cudaMalloc(&out_, n * sizeof(float)), "cudaMalloc of the output");
    fresh_input_kernel<<<kBlocks, kThreads>>>(in_, n, seed);
    check(cudaGetLastError(), "generating the input");
    check(cudaMemset(out_, 0xff, n * sizeof(float)), "poisoning the output");  // a NaN, never equal
    check(cudaDeviceSynchronize(), "generating the input");
}

DeviceOnlyRun::~DeviceOnlyRun() {
    cudaFree(in_);
    cudaFree(out_);
}

namespace {

std::string hex(const cudaIpcMemHandle_t& h) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (char c : h.reserved) {
        const auto b = static_cast<unsigned char>(c);
        out += digits[b >> 4];
        out += digits[b & 15];
    }
    return out;
}

cudaIpcMemHandle_t unhex(const std::string& text) {
    cudaIpcMemHandle_t h{};
    if (text.size() != 2 * sizeof h.reserved) throw DeviceError("an IPC handle of the wrong length");
    for (std::size_t i = 0; i < sizeof h.reserved; ++i)
        h.reserved[i] = static_cast<char>(std::stoi(text.substr(2 * i, 2), nullptr, 16));
    return h;
}

}  // namespace

std::string DeviceOnlyRun::handles() const {
    cudaIpcMemHandle_t a, b;
    check(cudaIpcGetMemHandle(&a, in_), "cudaIpcGetMemHandle of the input");
    check(cudaIpcGetMemHandle(&b, out_), "cudaIpcGetMemHandle of the output");
    return hex(a) + " " + hex(b);
}

OutputCheck verify_device_only(const std::string& handles, std::size_t n, std::uint64_t seed, bool exclusive,
                               std::size_t section) {
    const std::size_t space = handles.find(' ');
    if (space == std::string::npos) throw DeviceError("two IPC handles expected");
    void* in = nullptr;
    void* out = nullptr;
    check(cudaIpcOpenMemHandle(&in, unhex(handles.substr(0, space)), cudaIpcMemLazyEnablePeerAccess),
          "opening the input's IPC handle");
    check(cudaIpcOpenMemHandle(&out, unhex(handles.substr(space + 1)), cudaIpcMemLazyEnablePeerAccess),
          "opening the output's IPC handle");
    OutputCheck* counters = nullptr;
    check(cudaMalloc(&counters, sizeof(OutputCheck)), "cudaMalloc of the output check's counters");
    const OutputCheck found = check_output(static_cast<const float*>(in), static_cast<const float*>(out), n, seed,
                                           exclusive, section, counters);
    cudaFree(counters);
    cudaIpcCloseMemHandle(in);
    cudaIpcCloseMemHandle(out);
    return found;
}

}  // namespace bench
