// A --batch folder's entries, every one accounted for: each folder, archive
// (any format libarchive reads, any case of extension) and .cu file is a
// submission; anything else is refused with the reason; hidden entries
// (".DS_Store") are named and left out. Two entries with one student name
// are both graded under their full file names, or both refused (the
// rubric's intake.duplicates).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace grader {

struct BatchEntry {
    std::filesystem::path path;
    std::string name;     // the student's name: OUT/<name>/ and the gradebook's row
    std::string refused;  // why it is not graded, "" when it is
    std::string kind;     // the refusal's kind, for the summary ("not a submission", "duplicate upload")
};

struct Batch {
    std::vector<BatchEntry> entries;    // sorted by file name
    std::vector<std::string> hidden;    // hidden entries, left out
    std::vector<std::string> warnings;  // a line each: two uploads with one name
};

Batch read_batch(const std::filesystem::path& folder, bool refuse_duplicates);

// "12 entries: 9 graded (2 taken from an earlier run), 3 refused (2 not a
// submission, 1 duplicate upload)".
std::string batch_summary(std::size_t entries, std::size_t graded, std::size_t resumed,
                          const std::vector<std::string>& refused_kinds);

}  // namespace grader
