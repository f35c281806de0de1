// doctest main of every lab suite. Our own options pick the datasets; the rest
// go to doctest. Without a usable device the suite exits 77, which meson
// reports as SKIP, never as a pass.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "device.hpp"
#include "harness.hpp"

namespace {

constexpr int kSkip = 77;
constexpr int kUsage = 2;

constexpr const char* kHelp = R"(lab suite options (the others are doctest's, see --help):
  --class NAME     run only the datasets of this class (see --list)
  --manifest FILE  read the datasets from FILE instead of the lab's public manifest
  --list           list the datasets and exit
  --divergence     print each kernel's SIMT divergence (emulator backend only)
)";

}  // namespace

int main(int argc, char** argv) {
    std::string manifest = harness::kDefaultManifest, cls;
    bool list = false, divergence = false;
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if ((arg == "--class" || arg == "--manifest") && i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n%s", arg.c_str(), kHelp);
            return kUsage;
        }
        if (arg == "--class") cls = argv[++i];
        else if (arg == "--manifest") manifest = argv[++i];
        else if (arg == "--list") list = true;
        else if (arg == "--divergence") divergence = true;
        else {
            if (arg == "--help" || arg == "-h" || arg == "-?") std::fputs(kHelp, stdout);
            rest.push_back(argv[i]);
        }
    }

    std::vector<datasets::Entry> entries;
    try {
        entries = datasets::read_manifest(manifest);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cannot read the dataset manifest: %s\n", e.what());
        return kUsage;
    }
    if (!cls.empty()) {
        std::vector<datasets::Entry> chosen;
        for (const auto& e : entries)
            if (e.cls == cls) chosen.push_back(e);
        if (chosen.empty()) {
            std::string known;
            for (const auto& c : datasets::classes(entries)) known += " " + c;
            std::fprintf(stderr, "no dataset class '%s' in %s; classes:%s\n", cls.c_str(), manifest.c_str(),
                         known.c_str());
            return kUsage;
        }
        entries = std::move(chosen);
    }
    if (list) {
        for (const auto& e : entries) std::printf("%-12s %s\n", e.cls.c_str(), datasets::describe(e.spec).c_str());
        return 0;
    }

    const device::Availability dev = device::probe();
    if (!dev.usable) {
        std::printf("SKIP: %s; the cuda backend needs an NVIDIA GPU (-Dscan_backend=emu runs the suites on the CPU "
                    "emulator)\n",
                    dev.description.c_str());
        return kSkip;
    }
    if (divergence && !device::trace_divergence(true)) {
        std::fprintf(stderr, "--divergence needs the emulator: configure with -Dscan_backend=emu\n");
        return kUsage;
    }
    std::printf("%zu dataset(s)%s%s from %s on %s\n", entries.size(), cls.empty() ? "" : " of class ",
                cls.c_str(), manifest.c_str(), dev.description.c_str());
    harness::select(std::move(entries));

    doctest::Context context(static_cast<int>(rest.size()), rest.data());
    return context.run();
}
