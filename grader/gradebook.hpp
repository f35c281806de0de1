// A batch's end (--batch, scan-grade merge): the class's gradebooks.
// OUT/gradebook.csv always (outputs.hpp's gradebook_csv); with a roster
// (roster.hpp), OUT/canvas.csv and OUT/moodle.csv (lms.hpp) and
// OUT/not-in-roster.txt.
#pragma once

#include <string>
#include <vector>

#include "report.hpp"
#include "roster.hpp"

namespace grader {

// The run notes (Report::run_notes: the sandbox) that every graded
// submission of the batch carries: said once in the batch's summary, not on
// each row. Refused submissions, which ran nothing, are not counted. A run
// note that only some carry (a Slurm node unlike the others) stays on their rows.
std::vector<std::string> run_wide_notes(const std::vector<Report>& reports);

// A student's notes, "; " between them, less the batch's run-wide ones:
// gradebook.csv's notes column, moodle.csv's feedback.
std::string student_notes(const Report& report, const std::vector<std::string>& run_wide);

struct BatchBook {
    // For standard output: what held for every student, once; a score line
    // per student; with a roster, what the LMS files hold.
    std::string summary;
    std::vector<std::string> warnings;  // for standard error: submissions not in the roster
    std::string files;                  // the files written: "OUT/gradebook.csv, OUT/canvas.csv, ..."
};

// Writes the gradebooks into `out`. `roster`: nullptr for none; `assignment`:
// the LMS files' grade column, "" for lms_assignment(reports).
BatchBook write_gradebook(const std::vector<Report>& reports, const std::string& out,
                          const std::vector<RosterStudent>* roster, const std::string& assignment);

}  // namespace grader
