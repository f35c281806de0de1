// The worker side of scan-bench (serve.cpp; bench/worker.hpp tells the design).
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace bench {

struct WorkerOptions {
    int fd = -1;
    std::uint64_t seed = 0;  // the dataset's input (observe)
    bool grading = false;
    std::vector<std::tuple<std::string, std::string, std::string>> jobs;  // lab, function, module
};

// Serves the coordinator until it closes the socket, then ends the process.
[[noreturn]] void serve(const WorkerOptions& w);

}  // namespace bench
