// A batch's notes, for gradebook.csv's notes column (gradebook.hpp) and
// moodle.csv's feedback (lms.hpp): what every graded submission shares,
// said once, and each student's own. Their own file, below both, so that
// neither of them includes the other.
#pragma once

#include <string>
#include <vector>

#include "grader/core/report.hpp"

namespace grader {

// A submission that ran: refused ones ran nothing.
bool graded_here(const Report& report);

// The items with `between` between them.
std::string joined(const std::vector<std::string>& items, const char* between);

// The run notes (Report::run_notes: the sandbox) that every graded
// submission of the batch carries: said once in the batch's summary, not on
// each row. Refused submissions, which ran nothing, are not counted. A run
// note that only some carry (a Slurm node unlike the others) stays on their rows.
std::vector<std::string> run_wide_notes(const std::vector<Report>& reports);

// A student's notes, "; " between them, less the batch's run-wide ones:
// gradebook.csv's notes column, moodle.csv's feedback.
std::string student_notes(const Report& report, const std::vector<std::string>& run_wide);

}  // namespace grader
