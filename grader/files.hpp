// Reading a whole file, for the grader's comparisons and source checks.
#pragma once

#include <string>

namespace grader {

// The file's bytes; "" when it cannot be read (callers compare or scan it).
std::string read_file(const std::string& path);

}  // namespace grader
