// The batch's record of a graded student (OUT/<student>/grade.json), written
// after every other results file: a rerun of --batch into the same --out
// grades only the students without a record that matches what it would grade
// now (the same submission files, rubric, hidden datasets, backends, device
// and labs), and takes their scores for the gradebook from the record.
#pragma once

#include <optional>
#include <string>

#include "grader/grading/grade.hpp"

namespace grader {

// What a grading depends on, as hashes. `inputs`: the rubric file's text
// (less its "slurm" section, which says where to grade, not how), the backend
// asked for, the hidden datasets, the labs and the submission's files.
// `full`: those and where it ran (the backends found, the device).
struct Fingerprint {
    std::string inputs, full;
};
Fingerprint fingerprint(const Context& ctx, const Submission& submission, const std::string& rubric_text);

// What every key of the result cache (result_cache.hpp) shares: this
// grader's executable, the kit's files the builds use (reference/ included),
// the rubric as grading reads it, the hidden datasets, the backend asked for
// and those found, and the device.
std::string cache_salt(const Context& ctx, const std::string& rubric_text);

void write_record(const Report& report, const Fingerprint& fingerprint, const std::string& directory);

// The report a record holds (scores, notes and times; no test output), or
// nothing where the record is missing, unreadable or for another full
// fingerprint (any, where `full` is empty).
std::optional<Report> read_record(const std::string& directory, const std::string& full = "");

// Whether a record for these inputs exists, wherever it was graded: a Slurm
// submission (slurm.hpp) leaves such students out, whichever node graded them.
bool has_record_for(const std::string& directory, const std::string& inputs);

}  // namespace grader
