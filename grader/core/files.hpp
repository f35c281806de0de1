// Reading and writing whole files: the grader's comparisons and source
// checks, its results files.
#pragma once

#include <string>

namespace grader {

// The file's bytes; "" when it cannot be read (callers compare or scan it).
std::string read_file(const std::string& path);
// Writes (replaces) the file; throws std::runtime_error naming it on failure.
void write_file(const std::string& path, const std::string& text);
// ASCII lower case: file names and extensions compared in any case.
std::string lower_case(std::string s);
// The text's first `lines` lines, "[...]" after them where it goes on: a
// process's output cut for the feedback.
std::string first_lines(const std::string& text, int lines);

}  // namespace grader
