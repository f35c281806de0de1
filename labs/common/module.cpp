// What a lab's module (labNN-scan.so) exports for scan-bench: the binding of
// the lab's functions (its lab.cpp), found by name after dlopen.
#include "lab.hpp"

extern "C" __attribute__((visibility("default"))) const harness::LabBinding* scan_labs_binding() {
    return &harness::kLab;
}
