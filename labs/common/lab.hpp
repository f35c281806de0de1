// The lab this executable is built for: each lab's lab.cpp defines kLab,
// binding the catalog's function names to the functions of its scan.hpp.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "catalog.hpp"

namespace harness {

using ScanFunction = std::function<void(const float* d_in, float* d_out, std::size_t n)>;

struct Binding {
    std::string name;
    ScanFunction run;
};

struct LabBinding {
    const char* id;        // the catalog's lab id
    const char* manifest;  // the public manifest's path
    std::vector<Binding> functions;
};

extern const LabBinding kLab;

struct LabFunction {
    std::string name;
    datasets::ScanSpec spec;
    ScanFunction run;
};

// kLab's functions with their catalog specs; throws std::logic_error when the
// two disagree (a build defect, not a student's).
std::vector<LabFunction> lab_functions();

// Gives the device kLab's settings from the catalog (the emulator's watchdog
// budget); the suite and the runner call it once the device is usable.
void configure_device();

}  // namespace harness
