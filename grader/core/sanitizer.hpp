// compute-sanitizer's reports (racecheck, memcheck, initcheck, synccheck) read
// into the kit's findings (finding.hpp): the emulator's categories and
// wording, with kernel, block, thread and source lines where the tool gives them.
#pragma once

#include <string>
#include <vector>

#include "finding.hpp"

namespace grader {

using finding::Finding;

// Everything one `compute-sanitizer --tool TOOL` run printed. Lines that are
// not error reports (summaries, host frames, the program's output) are skipped.
std::vector<Finding> parse_sanitizer(const std::string& tool, const std::string& output);

// What compute-sanitizer printed over a scan-run --plan process (scan-run
// marks each run's start and end), told apart by run, each as a process of
// its own running that run alone would have printed it.
struct SanitizerRuns {
    // For each run that began: the tool's banner, then the lines from its
    // start mark to the next run's (its reports; leaks reported at a reset
    // after it or at exit), with only its first `per_run` reports, as
    // --print-limit per_run would have printed.
    std::vector<std::string> outputs;
    std::vector<std::size_t> reports;  // the reports each printed, before that cut
    // The runs whose reports are all there: every run that began, unless the
    // tool printed `limit` reports in all and then stopped printing; then the
    // runs before the one that printed the last, and that one too if it
    // printed per_run or more.
    std::size_t complete = 0;
};
SanitizerRuns split_sanitizer_runs(const std::string& output, std::size_t limit, std::size_t per_run);

// A run of `tool` on `function` that did not finish in `seconds`: threads
// waiting at a barrier for ever, as a barrier finding.
Finding sanitizer_hung(const std::string& tool, const std::string& function, const std::string& seconds);
// A run the tool failed in words parse_sanitizer does not know (`problem`),
// counted against the tool's own check.
Finding sanitizer_failed(const std::string& tool, const std::string& function, const std::string& problem);

}  // namespace grader
