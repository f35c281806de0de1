// The emulator's host-side interface for the harness and the tests: what its
// checks found, and the device memory the program holds.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace simt {

struct Finding {
    std::string check;    // "barrier divergence", ...
    std::string kernel;   // the kernel as written at its launch
    std::string message;  // block, threads and source lines
};

// Findings since the last call, in the order found (deterministic).
std::vector<Finding> take_findings();
std::string format(const Finding& finding);

struct MemoryUsage {
    std::size_t bytes = 0;
    std::size_t allocations = 0;
};
MemoryUsage memory_in_use();

}  // namespace simt
