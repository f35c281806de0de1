// labNN-run: the grader's emulator runner. Runs one function of the lab on
// the input the grader wrote and sends what the device left (observation.hpp)
// to the grader through the result channel (result_channel.hpp), then ends at
// once. It judges nothing and prints nothing the grader trusts: the grader
// compares the outputs with answers it computed itself.
//
//   labNN-run --function NAME --input FILE --result-fd N [--divergence] [--block-order O]
//
// --input: n float32 values, little-endian, nothing else. --result-fd: the
// write end of the grader's pipe. --block-order: the emulator's order of
// blocks (a seed, reverse, launch; default: the seed 1); the grader runs a
// dataset again with the blocks reversed in a process of its own, so nothing
// of the first run (memory, files) reaches the second. The emulator's settings
// come from this command line alone: whatever the submission's static
// initialisers did to the environment (SIMT_BLOCK_ORDER, SIMT_SPIN_BUDGET),
// they are set again here, after them. Exit 0 once the observation is sent
// (whatever it holds), 2 on bad usage or input, 1 when it cannot be sent, 77
// without a usable device.
#include <cstdio>
#include <exception>
#include <string>

#include "device.hpp"
#include "result_channel.hpp"
#include "run_entry.hpp"

namespace {

int usage(const std::string& why) {
    std::fprintf(stderr, "%s\nusage: labNN-run --function NAME --input FILE --result-fd N [--divergence] [--block-order O]\n",
                 why.c_str());
    return 2;
}

int run(int argc, char** argv) {
    std::string function, input, fd_text, block_order = "default";
    bool divergence = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--divergence") divergence = true;
        else if (arg == "--function" && has_value) function = argv[++i];
        else if (arg == "--input" && has_value) input = argv[++i];
        else if (arg == "--result-fd" && has_value) fd_text = argv[++i];
        else if (arg == "--block-order" && has_value) block_order = argv[++i];
        else return usage("unknown or incomplete option " + arg);
    }
    if (function.empty() || input.empty() || fd_text.empty()) return usage("--function, --input and --result-fd are needed");
    int fd = -1;
    try {
        fd = harness::channel::parse_fd(fd_text);
    } catch (const std::exception& e) {
        return usage(e.what());
    }
    const harness::LabFunction* fn = nullptr;
    const auto functions = harness::lab_functions();
    for (const auto& f : functions)
        if (f.name == function) fn = &f;
    if (!fn) return usage("no function " + function + " in lab " + harness::kLab.id);

    const device::Availability dev = device::probe();
    if (!dev.usable) {
        std::printf("SKIP: %s\n", dev.description.c_str());
        return 77;
    }
    harness::configure_device(true);
    if (divergence && !device::trace_divergence(true)) return usage("--divergence needs the emulator backend");
    if (!device::set_block_order(block_order) && block_order != "default")
        return usage("--block-order needs the emulator backend and a seed (digits), reverse or launch");
    std::string why;
    switch (harness::run_entry(*fn, input, fd, 0, why)) {
        case harness::EntryEnd::sent:
        case harness::EntryEnd::device_unusable: return 0;
        case harness::EntryEnd::bad_input: return usage(why);
        case harness::EntryEnd::cannot_send: std::fprintf(stderr, "%s\n", why.c_str()); return 1;
    }
    return 1;
}

}  // namespace

// No return from main: exit handlers and static destructors (the submission's
// among them) never run after the observation is sent.
int main(int argc, char** argv) { harness::channel::finish(run(argc, argv)); }
