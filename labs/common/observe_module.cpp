// What a lab's labNN-observe.so exports for scan-run (scan_run.cpp): one run
// of the grader's runner (run_entry.hpp), so one process can run the
// datasets of every lab of a submission, each lab's build loaded apart
// (RTLD_LOCAL; equal kernel names never meet), its allocations counted by
// its own copy of the harness.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "device.hpp"
#include "lab.hpp"
#include "run_entry.hpp"

namespace {

void say(char* why, std::size_t size, const std::string& text) { std::snprintf(why, size, "%s", text.c_str()); }

int run(const char* function, const char* input, int result_fd, std::uint64_t index, int reset_after_leak, char* why,
        std::size_t why_size) {
    static const std::vector<harness::LabFunction> functions = harness::lab_functions();
    static const device::Availability dev = [] {
        const device::Availability a = device::probe();
        if (a.usable) harness::configure_device();
        return a;
    }();
    if (!dev.usable) {
        say(why, why_size, dev.description);
        return 77;
    }
    const harness::LabFunction* fn = nullptr;
    for (const auto& f : functions)
        if (f.name == function) fn = &f;
    if (!fn) {
        say(why, why_size, std::string("no function ") + function + " in lab " + harness::kLab.id);
        return 2;
    }
    const device::Usage before = device::in_use();
    std::string problem;
    switch (harness::run_entry(*fn, input, result_fd, index, problem)) {
        case harness::EntryEnd::sent: break;
        case harness::EntryEnd::device_unusable: return 3;
        case harness::EntryEnd::bad_input: say(why, why_size, problem); return 2;
        case harness::EntryEnd::cannot_send: say(why, why_size, problem); return 1;
    }
    if (reset_after_leak && device::in_use().bytes > before.bytes) device::reset();
    return 0;
}

}  // namespace

// Returns 0 once the observation is sent (frame `index` on `result_fd`), 3
// when it is sent and the device is unusable now, 2 for an unknown function
// or an unreadable input, 1 when the observation cannot be sent, 77 without a usable device; `why`
// says why for 1, 2 and 77. reset_after_leak: after a run that left device
// memory allocated, the context is reset (device::reset), so the next run
// starts with nothing allocated, as a process of its own would, and
// memcheck's leak reports fall before the next run's.
// A thrown error (a module that does not match the catalog: a build's
// defect) comes back as 2 with its message, never across into scan-run.
extern "C" __attribute__((visibility("default"))) int scan_labs_run_entry(const char* function, const char* input,
                                                                          int result_fd, std::uint64_t index,
                                                                          int reset_after_leak, char* why,
                                                                          std::size_t why_size) {
    try {
        return run(function, input, result_fd, index, reset_after_leak, why, why_size);
    } catch (const std::exception& e) {
        say(why, why_size, e.what());
        return 2;
    }
}
