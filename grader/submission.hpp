// A submission as the grader takes it: a folder, a .zip or a .tar.gz holding
// a full copy of the student tree or only the lab files. Only each lab's
// scan.cu is taken; everything else that differs from the kit is listed as
// ignored, so the report can say so.
#pragma once

#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace grader {

struct SubmissionError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Submission {
    std::string name;                          // the file or folder name, without extension
    std::map<std::string, std::string> files;  // lab id -> its scan.cu, unpacked under the grader's work
    std::vector<std::string> ignored;          // files that differ from the kit, relative paths
};

// Unpacks (archives) or copies (folders) into `unpack_dir`, regular files
// only: no links, nothing outside it, at most 64 MiB and 20000 entries.
Submission open_submission(const std::string& path, const std::string& unpack_dir, const std::string& kit);

// The student's name for a submission's file or folder name: without .zip,
// .tar.gz or .tgz. Results go to OUT/<name>/.
std::string submission_name(const std::string& file_name);

// The submissions in a --batch folder, sorted: its folders, .zip, .tar.gz and
// .tgz files, leaving out hidden ones.
std::vector<std::filesystem::path> batch_entries(const std::filesystem::path& folder);

// Names the layouts open_submission accepts, for messages.
extern const char* const kLayouts;

}  // namespace grader
