// A batch's grades in the layouts Canvas's and Moodle's gradebooks import,
// one row per student of the roster (roster.hpp), in its order. A student
// with no submission gets 0 and the note "no submission"; a submission that
// is not in the roster is left out (gradebook.csv keeps its row) and listed.
//
// One grade column: the LMS assignment this batch grades (grade a lab per
// assignment with --lab), named by --lms-assignment (lms_assignment() by
// default). Its value is the total in percent of the points graded here
// (gradebook.csv's percent): the same scale with and without a GPU, where
// timing's points are out of the total, so the LMS assignment is worth 100.
#pragma once

#include <string>
#include <vector>

#include "grader/core/report.hpp"
#include "grader/outputs/roster.hpp"

namespace grader {

struct LmsRow {
    RosterStudent student;
    bool submitted = false;
    std::string grade;     // percent, "0" with no submission
    std::string feedback;  // the student's notes (batch_notes.hpp's student_notes), or "no submission"
};

struct ClassList {
    std::vector<LmsRow> rows;                // one per student of the roster, in its order
    std::vector<std::string> not_in_roster;  // the submissions no roster line names, in the batch's order
};

// The roster's students with their submissions' grades, matched by name in any case.
ClassList class_list(const std::vector<RosterStudent>& roster, const std::vector<Report>& reports);

// The grade column's default name: the lab's id where the batch graded one
// ("02-brent-kung"), "scan-labs" where it graded all, else the ids joined by " + ".
std::string lms_assignment(const std::vector<Report>& reports);

// Canvas's gradebook import: Student, ID, SIS User ID, SIS Login ID,
// Section, then the assignment. A student is named (Student) and found by
// the login (SIS Login ID); ID, SIS User ID and Section are left empty.
// UTF-8 with a byte-order mark; the row after the header is "Points
// Possible", 100 in the grade column (a new assignment's points).
std::string canvas_csv(const ClassList& list, const std::string& assignment);

// Moodle's CSV grade import: Username, Full name, the grade item and its
// feedback ("ASSIGNMENT (feedback)"), which the import maps by hand. A
// backslash before a quote or at a field's end gets a space after it, since
// PHP's CSV reader would take it as an escape.
std::string moodle_csv(const ClassList& list, const std::string& assignment);

}  // namespace grader
