// labNN-run: the grader's runner. Runs one function of the lab on the input
// the grader wrote and writes what the device left (observation.hpp) where
// the grader reads it. It judges nothing and prints nothing the grader
// trusts: the grader compares the outputs with answers it computed itself.
//
//   labNN-run --function NAME --input FILE --output FILE [--divergence] [--block-order O] [--reversed-too]
//   labNN-run --plan FILE [--divergence] [--block-order O] [--reversed-too]
//
// --block-order: the emulator's order of blocks (a seed, reverse, launch).
// --reversed-too: after a run whose launches had more than one block, the
// emulator runs the function again with the blocks in reverse order and
// writes that observation to OUTPUT.reversed, so a scan that is right only
// in one order fails.
//
// --input: n float32 values, little-endian, nothing else. --plan: one run per
// line, FUNCTION<tab>INPUT<tab>OUTPUT, run in order in this one process (on a
// GPU the context is made once, not once per dataset), each observation
// written as soon as its run ends, so the grader knows how far a process
// that hung or crashed got. Exit 0 once the observations are written
// (whatever they hold), 3 after a run that left the device unusable (the
// grader runs the rest in a new process), 2 on bad usage or input, 77 without
// a usable device.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "device.hpp"
#include "observe.hpp"

namespace {

int usage(const std::string& why) {
    std::fprintf(stderr,
                 "%s\nusage: labNN-run --function NAME --input FILE --output FILE [--divergence] [--block-order O] [--reversed-too]\n"
                 "       labNN-run --plan FILE [--divergence] [--block-order O] [--reversed-too]\n",
                 why.c_str());
    return 2;
}

struct Run {
    std::string function, input, output;
};

std::vector<Run> read_plan(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw std::runtime_error("cannot read the plan " + path);
    std::vector<Run> runs;
    for (std::string line; std::getline(file, line);) {
        if (line.empty()) continue;
        const std::size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
        if (b == std::string::npos) throw std::runtime_error("a plan line is not FUNCTION<tab>INPUT<tab>OUTPUT: " + line);
        runs.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
    }
    return runs;
}

std::vector<float> read_input(const std::string& path) {
    std::ifstream file(path, std::ios::binary | std::ios::ate);  // read whole, in one call (40 MB for 10^7 elements)
    const std::streamoff size = file.is_open() ? static_cast<std::streamoff>(file.tellg()) : -1;
    if (size < 0 || size % static_cast<std::streamoff>(sizeof(float)) != 0)
        throw std::runtime_error("cannot read " + path + " as float32 values");
    std::vector<float> values(static_cast<std::size_t>(size) / sizeof(float));
    file.seekg(0);
    if (!file.read(reinterpret_cast<char*>(values.data()), size)) throw std::runtime_error("cannot read " + path + " as float32 values");
    return values;
}

}  // namespace

int main(int argc, char** argv) {
    Run single;
    std::string plan;
    std::string block_order;
    bool divergence = false, reversed_too = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--divergence") divergence = true;
        else if (arg == "--function" && has_value) single.function = argv[++i];
        else if (arg == "--input" && has_value) single.input = argv[++i];
        else if (arg == "--output" && has_value) single.output = argv[++i];
        else if (arg == "--plan" && has_value) plan = argv[++i];
        else if (arg == "--block-order" && has_value) block_order = argv[++i];
        else if (arg == "--reversed-too") reversed_too = true;
        else return usage("unknown or incomplete option " + arg);
    }
    std::vector<Run> runs;
    if (!plan.empty()) {
        try {
            runs = read_plan(plan);
        } catch (const std::exception& e) {
            return usage(e.what());
        }
    } else if (single.function.empty() || single.input.empty() || single.output.empty()) {
        return usage("--function, --input and --output (or --plan) are needed");
    } else {
        runs.push_back(single);
    }

    const auto functions = harness::lab_functions();
    std::vector<const harness::LabFunction*> chosen;
    for (const Run& run : runs) {
        const harness::LabFunction* fn = nullptr;
        for (const auto& f : functions)
            if (f.name == run.function) fn = &f;
        if (!fn) return usage("no function " + run.function + " in lab " + harness::kLab.id);
        chosen.push_back(fn);
    }

    const device::Availability dev = device::probe();
    if (!dev.usable) {
        std::printf("SKIP: %s\n", dev.description.c_str());
        return 77;
    }
    harness::configure_device();
    if (divergence && !device::trace_divergence(true)) return usage("--divergence needs the emulator backend");
    if (!block_order.empty() && !device::set_block_order(block_order))
        return usage("--block-order needs the emulator backend and a seed (digits), reverse or launch");
    if (reversed_too && device::block_order().empty()) return usage("--reversed-too needs the emulator backend");
    // Written whole, then renamed: a file the grader finds is complete.
    const auto write = [](const std::string& path, const harness::Observation& seen) {
        const std::string partial = path + ".partial";
        harness::write_observation(partial, seen);
        if (std::rename(partial.c_str(), path.c_str()) != 0) throw std::runtime_error("cannot rename " + partial);
    };
    for (std::size_t k = 0; k < runs.size(); ++k) {
        std::vector<float> values;
        try {
            values = read_input(runs[k].input);
        } catch (const std::exception& e) {
            return usage(e.what());
        }
        const harness::Observation seen = harness::observe(*chosen[k], values);
        try {
            // The reversed run first: the main file's presence tells the grader both are there.
            if (reversed_too && !seen.sticky && seen.blocks > seen.launches) {
                device::set_block_order("reverse");
                write(runs[k].output + ".reversed", harness::observe(*chosen[k], values));
                device::set_block_order(block_order.empty() ? "default" : block_order);
            }
            write(runs[k].output, seen);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "%s\n", e.what());
            return 1;
        }
        if (seen.sticky) return k + 1 < runs.size() ? 3 : 0;
    }
    return 0;
}
