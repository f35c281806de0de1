// A lab build loaded as a module (labNN-scan.so, built beside each lab's
// test programs wherever nvcc exists), so one process can time two builds of
// the same lab, a student's and the reference, against each other. Each is
// opened with RTLD_LOCAL: their equal function and kernel names never meet.
#pragma once

#include <string>

#include "lab.hpp"

namespace bench {

struct Module {
    std::string path;
    const harness::LabBinding* binding = nullptr;
    const harness::Binding& function(const std::string& name) const;  // throws std::runtime_error
};

// Throws std::runtime_error naming the file and the loader's reason, or the
// lab the module was built for when it is not `lab_id`.
Module load_module(const std::string& path, const std::string& lab_id);

}  // namespace bench
