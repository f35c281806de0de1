// A lab build loaded as a module (labNN-scan.so, built beside each lab's
// test programs wherever nvcc exists). scan-bench loads each build in a
// process of its own (bench/worker.hpp): a student's module never shares a
// process with the reference's. Opened with RTLD_LOCAL.
#pragma once

#include <string>

#include "lab.hpp"

namespace bench {

struct Module {
    std::string path;
    const harness::LabBinding* binding = nullptr;
    int (*last_error)() = nullptr;  // the module's CUDA runtime's cudaGetLastError
    const harness::Binding& function(const std::string& name) const;  // throws std::runtime_error
};

// Throws std::runtime_error naming the file and the loader's reason, or the
// lab the module was built for when it is not `lab_id`.
Module load_module(const std::string& path, const std::string& lab_id);

}  // namespace bench
