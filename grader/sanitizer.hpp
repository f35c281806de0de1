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

// A run of `tool` on `function` that did not finish in `seconds`: threads
// waiting at a barrier for ever, as a barrier finding.
Finding sanitizer_hung(const std::string& tool, const std::string& function, const std::string& seconds);
// A run the tool failed in words parse_sanitizer does not know (`problem`),
// counted against the tool's own check.
Finding sanitizer_failed(const std::string& tool, const std::string& function, const std::string& problem);

}  // namespace grader
