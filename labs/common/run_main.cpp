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
#include <exception>
#include <string>
#include <vector>

#include "device.hpp"
#include "plan_file.hpp"
#include "run_entry.hpp"

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
            for (auto& f : harness::read_plan(plan, 3, "FUNCTION<tab>INPUT<tab>OUTPUT")) runs.push_back({f[0], f[1], f[2]});
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
    for (std::size_t k = 0; k < runs.size(); ++k) {
        std::string why;
        switch (harness::run_entry(*chosen[k], runs[k].input, runs[k].output, reversed_too, block_order, why)) {
            case harness::EntryEnd::written: break;
            case harness::EntryEnd::device_unusable: return k + 1 < runs.size() ? 3 : 0;
            case harness::EntryEnd::bad_input: return usage(why);
            case harness::EntryEnd::cannot_write: std::fprintf(stderr, "%s\n", why.c_str()); return 1;
        }
    }
    return 0;
}
