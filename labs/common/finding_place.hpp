// Where in the student's lab folder a finding points, and how badly: for the
// tools that take a person to a line (an editor's FILE:LINE: error: lines,
// GitHub's annotations and SARIF, the HTML report's links). From a finding's
// fields, never its words.
#pragma once

#include <string>
#include <vector>

#include "finding.hpp"

namespace finding {

struct Place {
    std::string file;   // as the lab folder names it: "scan.cu", or a header the student put beside it
    unsigned line = 0;  // 1-based
    unsigned column = 0;  // 1-based; 0 where not known
    bool launch = false;  // the kernel's launch, not a line of the finding itself
};

// The finding's source lines in the order it names them, then its launch,
// each once; names that are not FILE:LINE ("?", a bare kernel name) are left out.
std::vector<Place> places(const Finding& f);

enum class Severity { error, warning };
// A leak costs points but leaves the results right: a warning. Every other
// check (races, barriers, memory errors, a sanitizer's reports) is an error.
Severity severity(const Finding& f);
const char* name(Severity s);  // "error", "warning"

// The finding as a compiler's diagnostic, the form editors' problem matchers
// read: "FOLDER/scan.cu:25:13: error: SENTENCE" (the column where the
// emulator read one), then a "note:" line for each other place it names
// ("FOLDER/scan.cu:80: note: the kernel was launched here"). `folder` is the lab folder as the reader's tools see it
// ("labs/02-brent-kung"). A finding that names no line points at the file:
// "FOLDER/scan.cu: warning: SENTENCE".
std::vector<std::string> diagnostic(const Finding& f, const std::string& folder);

}  // namespace finding
