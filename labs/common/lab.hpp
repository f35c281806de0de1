// The lab this executable is built for: each lab's lab.cpp defines kLab,
// binding the catalog's function names to the functions of its scan.hpp.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "device.hpp"

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

// Each lab.cpp also defines its functions weakly (LAB_FALLBACK), and the
// suite, the runner and the module link the lab's scan.cu whole: a scan.cu
// that defines a function with scan.hpp's signature replaces the fallback;
// one that does not (a changed name or signature) leaves it, and the run
// fails naming the function; a scan.cu the emulator did not build (its
// limits, simt/limits.hpp) defines none, and the lab is skipped before any
// call (device_emu.cpp).
[[noreturn]] inline void undefined_function(const char* signature) {
    throw device::Error(std::string("scan.cu defines no ") + signature +
                            ": scan.hpp declares it so and the tests call it so (was its name or signature changed?)",
                        false);
}
#define LAB_FALLBACK(name, params) \
    __attribute__((weak)) void name params { ::harness::undefined_function(#name #params); }

struct LabFunction {
    std::string name;
    datasets::ScanSpec spec;
    ScanFunction run;
};

// kLab's functions with their catalog specs; throws std::logic_error when the
// two disagree (a build defect, not a student's).
std::vector<LabFunction> lab_functions();

// Gives the device kLab's settings from the catalog (the emulator's watchdog
// budget); the suite and the runner call it once the device is usable. The
// suite lets SIMT_SPIN_BUDGET override it (a developer's setting); the
// grader's runner (`from_command_line`) does not: its environment is the
// grader's minimal one, and anything else in it was put there by the
// submission's own static initialisers.
void configure_device(bool from_command_line = false);

}  // namespace harness
