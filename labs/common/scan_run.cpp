// scan-run: the grader's runner for the GPU across labs. Each line of the
// plan runs one function of a lab's build (its labNN-observe.so, loaded once)
// on one input, in this one process: the CUDA context is made once for a
// whole submission, not once per lab, and, under compute-sanitizer, the tool
// starts once per submission, not once per function.
//
//   scan-run --plan FILE --result-fd N [--marks] [--reset-after-leak]
//
// FILE: one run per line, MODULE<tab>FUNCTION<tab>INPUT (INPUT as
// labNN-run's); run K's observation goes to the result channel N as frame K
// (result_channel.hpp), and the process ends at once after the last
// (no exit handler or destructor of a loaded module runs after it). --marks: around run K (from 0) it prints
// "scan-run: run K begins" and "scan-run: run K ended" on lines of their own,
// flushed: compute-sanitizer prints a run's reports before the run returns,
// so what it printed between two marks is that run's. --reset-after-leak:
// after a run that left device memory allocated, the context is reset, so
// each run starts with nothing allocated, as in a process of its own, and
// memcheck reports the leak before the run's end mark. Exit 0 once every
// observation is sent, 3 after a run that left the device unusable with
// runs left (the grader runs the rest in a new process), 2 on bad usage,
// input or module, 1 when an observation cannot be sent, 77 without a
// usable device.
#include <dlfcn.h>

#include <cstdint>

#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "plan_file.hpp"
#include "result_channel.hpp"

namespace {

using Entry = int (*)(const char*, const char*, int, std::uint64_t, int, char*, std::size_t);

int usage(const std::string& why) {
    std::fprintf(stderr, "%s\nusage: scan-run --plan FILE --result-fd N [--marks] [--reset-after-leak]\n", why.c_str());
    return 2;
}

struct Run {
    std::string module, function, input;
};

// Never closed: the CUDA runtime keeps a module's kernels registered until exit.
Entry load(const std::string& path) {
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw std::runtime_error("cannot load " + path + ": " + dlerror());
    const auto entry = reinterpret_cast<Entry>(dlsym(handle, "scan_labs_run_entry"));
    if (!entry) throw std::runtime_error(path + " is not a lab's runner module (no scan_labs_run_entry)");
    return entry;
}

void mark(std::size_t k, const char* what) {
    std::printf("scan-run: run %zu %s\n", k, what);
    std::fflush(stdout);
}

int run(int argc, char** argv) {
    std::string plan, fd_text;
    bool marks = false, reset_after_leak = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--plan" && i + 1 < argc) plan = argv[++i];
        else if (arg == "--result-fd" && i + 1 < argc) fd_text = argv[++i];
        else if (arg == "--marks") marks = true;
        else if (arg == "--reset-after-leak") reset_after_leak = true;
        else return usage("unknown or incomplete option " + arg);
    }
    if (plan.empty() || fd_text.empty()) return usage("--plan and --result-fd are needed");
    std::vector<Run> runs;
    std::map<std::string, Entry> modules;
    int fd = -1;
    try {
        fd = harness::channel::parse_fd(fd_text);
        for (auto& f : harness::read_plan(plan, 3, "MODULE<tab>FUNCTION<tab>INPUT")) runs.push_back({f[0], f[1], f[2]});
        for (const Run& run : runs)
            if (!modules.count(run.module)) modules[run.module] = load(run.module);
    } catch (const std::exception& e) {
        return usage(e.what());
    }
    for (std::size_t k = 0; k < runs.size(); ++k) {
        const Run& run = runs[k];
        char why[1024] = "";
        if (marks) mark(k, "begins");
        const int end = modules[run.module](run.function.c_str(), run.input.c_str(), fd, k, reset_after_leak ? 1 : 0, why,
                                            sizeof why);
        if (marks) mark(k, "ended");
        switch (end) {
            case 0: break;
            case 3: return k + 1 < runs.size() ? 3 : 0;
            case 77: std::printf("SKIP: %s\n", why); return 77;
            case 2: return usage(why);
            default: std::fprintf(stderr, "%s\n", why); return 1;
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) { harness::channel::finish(run(argc, argv)); }
