// The batch's record of a graded student (OUT/<student>/grade.json), written
// after every other results file: a rerun of --batch into the same --out
// grades only the students without a record that matches what it would grade
// now (the same submission files, rubric, hidden datasets, backends, device
// and labs), and takes their scores for the gradebook from the record.
#pragma once

#include <optional>
#include <string>

#include "grade.hpp"

namespace grader {

// What a grading depends on, as a hash; rubric_text is the rubric file's text.
std::string fingerprint(const Context& ctx, const Submission& submission, const std::string& rubric_text);

void write_record(const Report& report, const std::string& fingerprint, const std::string& directory);

// The report a record holds (scores, notes and times; no test output), or
// nothing where the record is missing, unreadable or for another fingerprint.
std::optional<Report> read_record(const std::string& directory, const std::string& fingerprint);

}  // namespace grader
