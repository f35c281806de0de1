// The GPU side of scan-bench (device.cu, compiled by nvcc): what the device
// is, its buffers for one input size, and one timed call: the L2 cache
// flushed first (persisting lines made normal, then a memset over twice its
// size), the device idle, then CUDA events around the work and a
// synchronization of the whole device, so work the call leaves on any stream
// is counted. For grading, fresh inputs made on the device and a full check
// of each output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace bench {

struct DeviceError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What verify() found in one output.
struct OutputCheck {
    std::uint64_t wrong = 0;       // outputs that break the scan's recurrence
    std::uint64_t first = 0;       // the first of them (when wrong > 0)
    std::uint64_t input_changed = 0;  // inputs the call modified
};

struct DeviceInfo {
    bool usable = false;
    std::string name;  // "NVIDIA H100 80GB HBM3, 132 SMs, CUDA 13.0", or why there is no device
    std::size_t l2_bytes = 0;
};
DeviceInfo probe();
std::string error_text(int code);  // a cudaError_t's name and description
std::size_t free_bytes();  // device memory free now
int synchronize();         // cudaDeviceSynchronize()'s cudaError_t

class Buffers {
public:
    // Uploads `input` (the values and any guard elements after them) and sets
    // `outputs` output buffers of the same length to `fill`; n is the scan's length.
    Buffers(const std::vector<float>& input, std::size_t n, unsigned outputs, float fill, std::size_t l2_bytes);
    ~Buffers();
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;

    // Uploads `input` again (its length as the constructor's) and refills every output with `fill`.
    void reset(const std::vector<float>& input, float fill);

    const float* in() const { return in_; }
    float* out(unsigned k) const { return outs_.at(k); }
    std::size_t n() const { return n_; }

    // Milliseconds `work` took on the device; throws DeviceError naming
    // `what` if it left a CUDA error.
    double time(const std::function<void()>& work, const std::string& what);
    // `work` once, untimed, no flush: what ncu profiles.
    void run(const std::function<void()>& work, const std::string& what);
    // Overwrites in()[0, n) with seed's input: integer steps in [-4, 4], as
    // the walk4 dataset (every sum exact), from a hash of seed and the index,
    // so each timed call can have an input no earlier call saw.
    void fresh_input(std::uint64_t seed);
    // Checks all n outputs of out(k) for the input of `seed` (fresh_input),
    // on the device: each output must equal the one before plus its input
    // (exclusive: plus the input before), restarting every `section`
    // elements (0: the whole array is one scan), and the input must be unchanged.
    OutputCheck verify(unsigned k, std::uint64_t seed, bool exclusive, std::size_t section);

    // The baselines, timed the same way: a device-to-device copy of n floats
    // and CUB's single-pass scan of the whole array, into out(k).
    double copy(unsigned k);
    double cub(bool exclusive, unsigned k);

    std::vector<float> download_in() const;
    std::vector<float> download_out(unsigned k) const;

private:
    std::size_t n_, length_;
    float* in_ = nullptr;
    std::vector<float*> outs_;
    void* flush_ = nullptr;
    std::size_t flush_bytes_ = 0;
    void* found_ = nullptr;  // verify()'s counters on the device
    void* cub_temp_ = nullptr;
    std::size_t cub_bytes_ = 0;
    void* start_ = nullptr;  // cudaEvent_t, kept opaque so this header needs no CUDA
    void* stop_ = nullptr;
    unsigned flushes_ = 0;
};

// A run too large for the host to hold its input and output (above 2^31
// elements: 8 GiB each), made and checked on the device alone. The
// submission's worker holds the buffers, makes seed's input (as
// Buffers::fresh_input), poisons the output and runs the function; another
// process, which never ran the submission's code, opens them through CUDA's
// IPC handles and checks the output (as Buffers::verify).
class DeviceOnlyRun {
public:
    // Throws DeviceError where an allocation or the input's making fails.
    DeviceOnlyRun(std::size_t n, std::uint64_t seed);
    ~DeviceOnlyRun();
    DeviceOnlyRun(const DeviceOnlyRun&) = delete;
    DeviceOnlyRun& operator=(const DeviceOnlyRun&) = delete;
    const float* in() const { return in_; }
    float* out() const { return out_; }
    // The input's and the output's IPC handles, in hex, space-separated.
    std::string handles() const;
    // The device memory it needs for n elements.
    static std::size_t bytes_for(std::size_t n);

private:
    float* in_ = nullptr;
    float* out_ = nullptr;
};
// In another process: the check of a DeviceOnlyRun's output, opened from
// its handles.
OutputCheck verify_device_only(const std::string& handles, std::size_t n, std::uint64_t seed, bool exclusive,
                               std::size_t section);

}  // namespace bench
