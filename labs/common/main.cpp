// doctest main of every lab suite. Our own options pick the datasets; the rest
// go to doctest. Without a usable device the suite exits 77, which meson
// reports as SKIP, never as a pass.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "check.hpp"
#include "device.hpp"
#include "harness.hpp"
#include "lab.hpp"
#include "lab_reporter.hpp"

namespace doctest {
namespace {  // beside doctest's own ConsoleReporter, which lives in this file's anonymous namespace

struct LabReporter : ConsoleReporter {
    using ConsoleReporter::ConsoleReporter;
    void file_line_to_stream(const char* file, int line, const char* tail) override {
        if (line != harness::kNoLine) return ConsoleReporter::file_line_to_stream(file, line, tail);
        s << Color::LightGrey << file << ":" << tail;
    }
};

REGISTER_REPORTER("lab", 0, LabReporter);

}  // namespace
}  // namespace doctest

namespace {

constexpr int kSkip = 77;
constexpr int kUsage = 2;

constexpr const char* kHelp = R"(lab suite options (the others are doctest's, see --help):
  --class NAME     run only the datasets of this class (see --list)
  --manifest FILE  read the datasets from FILE instead of the lab's public manifest
  --list           list the datasets and exit
  --details        print every failed check of every dataset in full (by
                   default a problem is printed in full once, at the first
                   dataset that shows it; each failing dataset gets one line
                   and the run ends with a summary of what to fix first)
  --details-file F also write every check of every dataset, each failed one
                   in full, to the file F (meson test writes
                   meson-logs/labNN-CLASS.details.txt)
  --results-file F also write the run's verdicts, as data, to the file F
                   (JSON, labs/common/results.hpp; meson test writes
                   meson-logs/labNN-CLASS.results.json, which ./scan-labs
                   test reads)
  --divergence     print each kernel's SIMT divergence per dataset (a barrier
                   interval's line once, at the first dataset that shows it),
                   then the lab's divergence target, even where datasets
                   failed (emulator backend only)
  --input "V V .." run the lab's functions on these values instead (spaces or
                   commas between them), checked by the same rules
  --trace NAME[@B] print the __shared__ array NAME of block B (default 0) at
                   every barrier: its first elements, as many as --input has
                   values, else 16 (emulator backend only); exit 2 with
                   what there is where no kernel has NAME or block B
  --block-order O  the order blocks start in on the emulator: a seed (a
                   permutation per launch drawn from it; default 1), reverse
                   or launch; a GPU promises no order, so a right scan is
                   right in every one
  --check          instead of the tests: the table the grader would give on
                   the public datasets and this machine (./scan-labs check);
                   exit 1 when it falls short of full points, as a failing
                   test does, 2 on an error
  --timing FILE    with --check: scan-bench's --json of this lab at the
                   rubric's timing size, for the timing row (GPU only)
  --verify-targets with --check: only the divergence run; exit 1 unless this
                   build's (the reference's) figures are labs/targets.json's
  --timing-preview FILE  instead of the tests: the timing row alone from
                   scan-bench's --json (./scan-labs test on a GPU)
)";

// "4 6 7,1" -> {4, 6, 7, 1}; false on anything that is not a number.
bool parse_values(const std::string& text, std::vector<float>& out) {
    std::string spaced = text;
    for (char& c : spaced)
        if (c == ',') c = ' ';
    std::istringstream in(spaced);
    std::string word;
    while (in >> word) {
        char* end = nullptr;
        const float v = std::strtof(word.c_str(), &end);
        if (*end != '\0' || !std::isfinite(v)) return false;
        out.push_back(v);
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    std::string manifest = harness::kLab.manifest, cls, input, trace, block_order, details_file, results_file;
    bool have_input = false;
    bool list = false, divergence = false, check = false, details = false;
    std::string timing_preview;  // scan-bench's JSON
    harness::CheckOptions check_options{LAB_TARGETS, "", false};
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if ((arg == "--class" || arg == "--manifest" || arg == "--input" || arg == "--trace" || arg == "--block-order" ||
             arg == "--timing" || arg == "--details-file" || arg == "--results-file" || arg == "--timing-preview") &&
            i + 1 >= argc) {
            std::fprintf(stderr, "%s needs a value\n%s", arg.c_str(), kHelp);
            return kUsage;
        }
        if (arg == "--class") cls = argv[++i];
        else if (arg == "--manifest") manifest = argv[++i];
        else if (arg == "--list") list = true;
        else if (arg == "--divergence") divergence = true;
        else if (arg == "--details") details = true;
        else if (arg == "--details-file") details_file = argv[++i];
        else if (arg == "--results-file") results_file = argv[++i];
        else if (arg == "--input") {
            input = argv[++i];
            have_input = true;
        } else if (arg == "--trace") trace = argv[++i];
        else if (arg == "--block-order") block_order = argv[++i];
        else if (arg == "--check") check = true;
        else if (arg == "--timing") check_options.timing_json = argv[++i];
        else if (arg == "--verify-targets") check_options.verify = true;
        else if (arg == "--timing-preview") timing_preview = argv[++i];
        else {
            if (arg == "--help" || arg == "-h" || arg == "-?") std::fputs(kHelp, stdout);
            rest.push_back(argv[i]);
        }
    }
    harness::results_file(results_file, cls);  // (an earlier run's removed: an error below leaves none)

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
        std::printf("SKIP: %s\n", dev.description.c_str());
        harness::write_results(kSkip, "", dev.description);
        return kSkip;
    }
    harness::configure_device();
    if ((!check_options.timing_json.empty() || check_options.verify) && !check) {
        std::fprintf(stderr, "--timing and --verify-targets go with --check\n%s", kHelp);
        return kUsage;
    }
    if (check) return harness::run_check(entries, check_options);
    if (!timing_preview.empty()) {
        std::printf("%s", harness::timing_preview(check_options.targets, timing_preview).c_str());
        return 0;
    }
    if (divergence && !device::trace_divergence(true)) {
        std::fprintf(stderr, "--divergence needs the emulator: configure with -Dscan_backend=emu\n");
        return kUsage;
    }
    if (divergence) harness::show_divergence_target_always();
    if (!block_order.empty() && !device::set_block_order(block_order)) {
        std::fprintf(stderr, "--block-order: expected a seed (digits), reverse or launch, on the emulator; got '%s'\n",
                     block_order.c_str());
        return kUsage;
    }
    std::vector<float> values;
    if (have_input && !parse_values(input, values)) {
        std::fprintf(stderr, "--input: not a list of numbers: '%s'\n", input.c_str());
        return kUsage;
    }
    if (!trace.empty()) {
        const auto at = trace.find('@');
        char* end = nullptr;
        const unsigned long block = at == std::string::npos ? 0 : std::strtoul(trace.c_str() + at + 1, &end, 10);
        if (at != std::string::npos && (end == trace.c_str() + at + 1 || *end != '\0')) {
            std::fprintf(stderr, "--trace: expected NAME or NAME@BLOCK, got '%s'\n", trace.c_str());
            return kUsage;
        }
        if (!device::trace_shared(trace.substr(0, at), static_cast<unsigned>(block), have_input ? values.size() : 16)) {
            std::fprintf(stderr, "--trace needs the emulator: configure with -Dscan_backend=emu\n");
            return kUsage;
        }
    }
    if (have_input) harness::use_values(values);
    std::string header;
    if (have_input)
        header = std::to_string(values.size()) + " --input value(s) on " + dev.description + "\n";
    else
        header = std::to_string(entries.size()) + " dataset(s)" + (cls.empty() ? "" : " of class " + cls) + " from " +
                 manifest + " on " + dev.description + "\n";
    harness::select(std::move(entries));
    if (const std::string order = device::block_order(); !order.empty())
        header += order + " (--block-order changes it)\n";
    std::fputs(header.c_str(), stdout);
    std::fflush(stdout);  // as each dataset's lines are (harness.cpp)
    harness::show_details(details, details_file, header);

    doctest::Context context(static_cast<int>(rest.size()), rest.data());
    // Ours unless the command line picks one (-r=xml, --reporters=junit, ...).
    const auto picks_reporter = [](const char* a) {
        for (const char* p : {"-r=", "--r=", "-reporters=", "--reporters=", "-dt-r=", "--dt-r=", "-dt-reporters=", "--dt-reporters="})
            if (std::strncmp(a, p, std::strlen(p)) == 0) return true;
        return false;
    };
    if (std::none_of(rest.begin(), rest.end(), picks_reporter)) context.setOption("reporters", "lab");
    int status = context.run();
    // A misspelt array or a block the grid lacks printed nothing: an error
    // listing what there is, not a silent pass.
    if (const std::string unmatched = device::shared_trace_unmatched(); !trace.empty() && !unmatched.empty()) {
        std::fprintf(stderr, "--trace %s: %s\n", trace.c_str(), unmatched.c_str());
        status = kUsage;
    }
    if (!context.shouldExit()) harness::write_results(status, dev.description);  // (not after --help and the like)
    return status;
}
