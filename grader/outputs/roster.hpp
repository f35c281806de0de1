// The class's roster (--roster roster.csv): who should have submitted and who
// each student is in the LMS, for the Canvas and Moodle gradebooks (lms.hpp).
//
// A CSV file (csv.hpp: a spreadsheet's UTF-8 byte-order mark and CRLF line
// ends are fine) whose header names three columns, in any order and any
// case; other columns are ignored:
//   submission  the student's name as the batch names it: the gradebook's
//               `student` column, the submission's file or folder name
//               without an archive's extension or .cu (alice.zip: alice);
//               matched in any case
//   lms_id      the student's login in the LMS: canvas.csv's SIS Login ID,
//               moodle.csv's Username
//   name        the name the LMS shows ("Doe, Jane"): canvas.csv's Student,
//               moodle.csv's Full name
// Every field is required; a submission or an lms_id may not appear twice.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace grader {

struct RosterStudent {
    std::string submission, lms_id, name;
    std::size_t line = 0;  // in the roster file, for messages
};

// A roster that cannot be read; what() names the file and the line.
struct RosterError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The students of `text`, in its order (fields trimmed of spaces and tabs);
// `path` names it in errors ("roster.csv line 4: ...").
std::vector<RosterStudent> parse_roster(std::string_view text, const std::string& path);
// The file's students; throws RosterError where it cannot be read.
std::vector<RosterStudent> read_roster(const std::string& path);

}  // namespace grader
