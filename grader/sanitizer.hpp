// compute-sanitizer's reports (racecheck, memcheck, initcheck, synccheck) read
// into the grader's findings: the emulator's categories and wording, with
// kernel, block, thread and source line where the tool gives them.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct Finding {
    std::string category;  // "race", "barrier", "memory" or "leak"
    std::string text;      // one line, as the emulator writes its findings
};

// Everything one `compute-sanitizer --tool TOOL` run printed. Lines that are
// not error reports (summaries, host frames, the program's output) are skipped.
std::vector<Finding> parse_sanitizer(const std::string& tool, const std::string& output);

}  // namespace grader
