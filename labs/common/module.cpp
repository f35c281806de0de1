// What a lab's module (labNN-scan.so, built beside each lab's test programs
// wherever nvcc exists) exports for scan-bench: the binding of the lab's
// functions (its lab.cpp), found by name after dlopen, and the module's own
// CUDA runtime's last error. scan-bench links its runtime statically (so no
// module can patch its clock): a launch error stays in the module's runtime.
#include <cuda_runtime.h>

#include "lab.hpp"

extern "C" __attribute__((visibility("default"))) const harness::LabBinding* scan_labs_binding() {
    return &harness::kLab;
}

extern "C" __attribute__((visibility("default"))) int scan_labs_last_error() {
    return static_cast<int>(cudaGetLastError());
}
