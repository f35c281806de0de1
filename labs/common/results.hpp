// A lab suite's results file (--results-file; each `meson test` of a lab
// writes meson-logs/labNN-CLASS.results.json beside its details file): the
// run's verdicts as data, for the programs that show them (digest.py:
// ./scan-labs test's digest of the failed tests, the labs that passed, why
// a lab was skipped, each lab's divergence target). They read its fields and
// never the printed text. The schema, format 1 (labs/README.md has it too):
//
//   format            1; a reader refuses another number
//   lab, class        "01-kogge-stone", "tiny" ("" for every class, or --input)
//   backend, device   "emu" or "cuda"; the device as the header names it ("" when skipped)
//   block_order       the emulator's, for a person; "" elsewhere
//   result, why       "pass", "fail" or "skip" (the exit status: 0, 77, any other), and
//                     why it was skipped ("" otherwise)
//   details_file      the details file's path ("" without one); details_printed: --details
//   datasets          per function and dataset, in the order they ran:
//     function, dataset    "kogge_stone_scan", "tiny dataset walk4 n=31 seed=104" (as printed)
//     class, distribution, n, seed    the manifest's (--input: "", "", its count, null)
//     verdict, why         "pass", "fail" or "skip" (not run: why)
//     failed               the rules it broke: rule, message (for a person) and, for
//                          outputs_match, wrong and first_wrong
//     findings             the findings as records (finding_json.hpp): the emulator's and a leak's
//     problems             as triage.hpp makes them: key, severity, rule, brief
//   fix_first         what to fix first: runs (function, datasets, failed) and items in
//                     their order (kind "problem" or "divergence", severity, key, title, first,
//                     datasets; a divergence item's kernel and lowest efficiency); null
//                     where no dataset ran (a skip)
//   divergence_target the row the suite printed (on the emulator, where every dataset
//                     passed or with --divergence): its text and fields (check.hpp); else null
// The file is written whole or not at all, and an earlier run's is removed
// at the start: a test that ended early (a crash, a timeout) leaves none.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "check.hpp"
#include "manifest.hpp"
#include "triage.hpp"

namespace harness::results {

constexpr int kFormat = 1;

// A run's results, gathered as it goes and written at its end.
class Recorder {
public:
    // The results go to `path` ("": nowhere, and every call below does
    // nothing); an earlier file there is removed now, so that it cannot pass
    // for this run's. `cls`: the class chosen, "" for every class.
    void open(const std::string& path, const std::string& cls);

    // One dataset's record; `entry` null for --input (`n` values).
    void dataset(const std::string& function, const std::string& name, const datasets::Entry* entry, std::size_t n,
                 const std::vector<Check>& checks, const Observation& seen, const std::vector<Problem>& problems);
    // A dataset the run did not test, and why.
    void not_tested(const std::string& function, const std::string& name, const datasets::Entry& entry,
                    const std::string& why);
    std::size_t datasets() const { return datasets_.size(); }
    void fix_first(const Triage& triage);
    void divergence_target(const Preview& target);

    // Writes the file whole beside its path, then renames it into place (a
    // reader finds the whole file or none); says so on stderr where it cannot.
    // `status`: the exit status; `device` and `why` (a skip's reason) as the
    // run printed them; `details_file` ("" none) and whether --details
    // printed every finding.
    void write(int status, const std::string& device, const std::string& why, const std::string& details_file,
               bool details_printed) const;

private:
    std::string path_, cls_;
    nlohmann::json datasets_ = nlohmann::json::array(), fix_first_, target_;
};

}  // namespace harness::results
