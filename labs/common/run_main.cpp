// labNN-run: the grader's runner. Runs one function of the lab on the input
// the grader wrote and writes what the device left (observation.hpp) where
// the grader reads it. It judges nothing and prints nothing the grader
// trusts: the grader compares the outputs with answers it computed itself.
//
//   labNN-run --function NAME --input FILE --output FILE [--divergence]
//
// --input: n float32 values, little-endian, nothing else. Exit 0 once the
// observation is written (whatever it holds), 2 on bad usage or input, 77
// without a usable device.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "device.hpp"
#include "observe.hpp"

namespace {

int usage(const std::string& why) {
    std::fprintf(stderr, "%s\nusage: labNN-run --function NAME --input FILE --output FILE [--divergence]\n",
                 why.c_str());
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    std::string function, input, output;
    bool divergence = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--divergence") divergence = true;
        else if (arg == "--function" && has_value) function = argv[++i];
        else if (arg == "--input" && has_value) input = argv[++i];
        else if (arg == "--output" && has_value) output = argv[++i];
        else return usage("unknown or incomplete option " + arg);
    }
    if (function.empty() || input.empty() || output.empty()) return usage("--function, --input and --output are needed");

    const harness::LabFunction* fn = nullptr;
    const auto functions = harness::lab_functions();
    for (const auto& f : functions)
        if (f.name == function) fn = &f;
    if (!fn) return usage("no function " + function + " in lab " + harness::kLab.id);

    std::ifstream file(input, std::ios::binary);
    const std::string bytes(std::istreambuf_iterator<char>(file), {});
    if (!file.is_open() || bytes.size() % sizeof(float) != 0) return usage("cannot read " + input + " as float32 values");
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), bytes.size());

    const device::Availability dev = device::probe();
    if (!dev.usable) {
        std::printf("SKIP: %s\n", dev.description.c_str());
        return 77;
    }
    if (divergence && !device::trace_divergence(true)) return usage("--divergence needs the emulator backend");
    const harness::Observation seen = harness::observe(*fn, values);
    try {
        harness::write_observation(output, seen);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
    return 0;
}
