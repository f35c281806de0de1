// A submission as the grader takes it: a folder, an archive (any format
// libarchive reads) or a single .cu file, holding a full copy of the student
// tree or only the lab files (lab_files.hpp finds them). Everything else
// that differs from the kit is listed as ignored, so the report can say so.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "grader/core/rubric.hpp"
#include "grader/intake/lab_files.hpp"
#include "grader/intake/unpack.hpp"

namespace grader {

struct Submission {
    std::string name;                     // the student's name: OUT/<name>/, the gradebook's row
    std::map<std::string, LabFile> files;  // lab id -> its file, under the grader's work
    std::map<std::string, std::string> missing;  // lab id -> why no file was taken, where one looked like it
    std::vector<std::string> ignored;     // files that differ from the kit, relative paths
    std::vector<std::string> left_out;    // what unpacking left out unread (unpack.hpp)
};

// Unpacks (archives) or copies (folders, a .cu file) into `unpack_dir` and
// finds the labs' files. Throws SubmissionError where it cannot.
Submission open_submission(const std::string& path, const std::string& unpack_dir, const std::string& kit,
                           const IntakeRules& rules);

// The student's name for a submission's file or folder name: without an
// archive's extension or .cu, in any case. Results go to OUT/<name>/.
std::string submission_name(const std::string& file_name);

// Names the layouts open_submission accepts, for messages.
extern const char* const kLayouts;

}  // namespace grader
