// A batch's end (--batch, scan-grade merge): the class's gradebooks.
// OUT/gradebook.csv always (outputs.hpp's gradebook_csv); with a roster
// (roster.hpp), OUT/canvas.csv and OUT/moodle.csv (lms.hpp) and
// OUT/not-in-roster.txt. The notes are batch_notes.hpp's.
#pragma once

#include <string>
#include <vector>

#include "grader/core/report.hpp"
#include "grader/outputs/roster.hpp"

namespace grader {

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
