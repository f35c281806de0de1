// Every lab's functions and what each computes: the one table the suites,
// the runner and the grader share. Each lab's lab.cpp binds these names to
// the functions of its scan.hpp (and static_asserts the section sizes).
#pragma once

#include <string>
#include <vector>

#include "scan_spec.hpp"

namespace catalog {

struct Function {
    std::string name;  // as in scan.hpp
    datasets::ScanSpec spec;
};

struct Lab {
    std::string id;        // "02-brent-kung": the folder under labs/ and reference/
    std::string suite;     // "lab02": the meson test suite and the executables' prefix
    std::vector<Function> functions;
    // The emulator's watchdog (simt/docs/scheduling.md): basic blocks a block's threads
    // may run in all without one of them finishing before the launch stops
    // as a possible endless loop. SIMT_SPIN_BUDGET overrides it.
    unsigned long long spin_budget = 100'000'000;
};

const std::vector<Lab>& labs();
// The lab named by its id, its suite or its number ("02", "2"); nullptr if none.
const Lab* find(const std::string& name);

}  // namespace catalog
