// What the sources of the results formats (outputs.cpp, feedback_text.cpp,
// gradescope.cpp, prairielearn.cpp, junit.cpp, markdown_summary.cpp,
// gradebook.cpp, lms.cpp) share and no other caller needs.
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "grader/core/report.hpp"

namespace grader {

inline double percent(double score, double max) { return max > 0 ? 100 * score / max : 0; }

inline bool graded(const TestResult& t) { return t.status != Status::NotGradable; }

// The first `max_lines` lines, and how many more there were.
std::string truncate_lines(const std::string& text, std::size_t max_lines);

// A results file's JSON: indented by 2, a line break at the end.
std::string dump(const nlohmann::json& j);

}  // namespace grader
