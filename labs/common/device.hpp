// The harness's view of the device: device_runtime.cpp over the CUDA runtime
// API for both backends, plus device_cuda.cpp or device_emu.cpp. Tests never call a backend API directly, so the
// same suites run wherever an implementation exists.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "observation.hpp"

namespace device {

// A device call failed; sticky() errors leave the context unusable, so the
// rest of the process must not touch the device again.
struct Error : std::runtime_error {
    Error(const std::string& what, bool sticky) : std::runtime_error(what), sticky_(sticky) {}
    bool sticky() const { return sticky_; }

private:
    bool sticky_;
};

struct Availability {
    bool usable = false;
    std::string description;  // the device's name, or why there is none
};

Availability probe();
const char* backend();  // "emu" or "cuda": the scan_backend this build runs on

float* alloc(std::size_t count);  // count floats; nullptr for 0
void release(float* p);
void upload(float* dst, const float* src, std::size_t count);
void download(float* dst, const float* src, std::size_t count);

// Waits for all launched work and throws Error for any launch or execution
// error, naming the function that ran.
void check_after(const char* function);

// What the backend's own checks found since the last call (the emulator's
// race, barrier and memory checks; none on real hardware).
std::vector<finding::Finding> take_findings();

// The last kernel launch the runtime refused since the last call: which
// launch (the emulator: kernel and line; CUDA: the grid and block it was
// given) and the likely cause; "" if none.
std::string take_refused_launch();

// SIMT divergence tracing (the emulator's): switches it on or off and says
// whether the backend has it. One entry per launch: its warp-by-interval map
// and the emulator's report for a person, as the observation carries them.
using LaunchDivergence = harness::KernelDivergence;
bool trace_divergence(bool on);
std::vector<LaunchDivergence> take_divergence();

// Trace mode (the emulator's): record the first `elements` of each row of
// the __shared__ array `array` in block `block` at every barrier. False where
// the backend has none.
bool trace_shared(const std::string& array, unsigned block, std::size_t elements);
std::string take_shared_trace();
// Where the traced array or block matched nothing in the launches so far: an
// error naming what they had; "" otherwise.
std::string shared_trace_unmatched();

// The kernel launches and blocks run since the process started, where the
// backend counts them (-1 each where it does not).
struct Work {
    long long launches = -1, blocks = -1;
};
Work work_so_far();
// Whether the data at the start of device allocation `p` came from a kernel
// (1), from the host (0), or unknown (-1).
int written_by_kernel(const float* p);
// Data through the host during a lab function's call, where the backend
// counts it (the emulator; -1 each elsewhere): count_host_traffic starts the
// count; then `to_host` is the bytes copied from device memory to the host
// (or stored there by kernels), and `in_output` the bytes of host data
// (uploaded after such a copy, or written by the host into memory a kernel
// reads) that may have reached allocation `out`, through copies and kernels.
struct HostTraffic {
    long long to_host = -1, in_output = -1;
};
void count_host_traffic();
HostTraffic host_traffic(const float* out);
// Only the first `count` floats of allocation `p` are the lab's; the rest is
// the harness's guard, which a kernel must not read (a GPU's allocation of
// n elements would end there). The emulator reports such reads as
// out-of-bounds; on a GPU nothing can tell (a no-op).
void given(const float* p, std::size_t count);
// The order blocks start in, for a person ("" where the backend does not choose it),
// and choosing it (the emulator's: a seed, "reverse", "launch" or "default";
// false for anything else, and always on a GPU, whose hardware decides).
std::string block_order();
bool set_block_order(const std::string& spec);

// The emulator's watchdog: the basic blocks a block may run with no thread
// finishing before its launch stops with a "possible endless loop" finding
// (simt/docs/scheduling.md); the environment variable SIMT_SPIN_BUDGET, where set,
// wins unless `over_environment`. A no-op on a GPU.
void limit_spinning(unsigned long long basic_blocks, bool over_environment = false);

// Device memory allocated through the runtime's allocation calls and not yet
// freed, counted by the harness (every cudaMalloc-family call of the process,
// the lab's included, goes through it).
struct Usage {
    std::size_t bytes = 0;
    std::size_t allocations = 0;
};
Usage in_use();

// Destroys the device's context, and with it everything still allocated
// there, forgetting the harness's count of it (a GPU's cudaDeviceReset: the
// next call makes a new one, and compute-sanitizer's memcheck reports the
// leaks it frees there, as at a process's exit); false where the backend has
// none (the emulator).
bool reset();

}  // namespace device
