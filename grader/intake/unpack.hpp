// Bringing a submission into the grader's work folder: a folder copied, an
// archive unpacked (every format libarchive reads), a single .cu file
// copied. Only regular files, nothing outside the target; what the grader
// never reads (build folders, .git, object files and binaries) is left out
// before the size limits apply, and named.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace grader {

// Why a submission cannot be taken in at all. `kind` sorts it in the batch's
// summary ("unreadable", "too large", "empty", "not a submission",
// "duplicate upload"); what() is the whole reason, for the student.
struct SubmissionError : std::runtime_error {
    SubmissionError(std::string kind, const std::string& why) : std::runtime_error(why), kind(std::move(kind)) {}
    std::string kind;
};

// What unpacking left out unread, a line each: "build/ (a build folder)",
// "3 object files and binaries (a.out, scan.o, ...)".
struct Unpacked {
    std::vector<std::string> left_out;
};

// Copies or unpacks `source` into `to` (emptied first). Throws
// SubmissionError where it cannot: corrupt or unreadable, more than
// kMaxBytes or kMaxEntries of files it would read (the message names the
// largest folders), or nothing in it.
Unpacked unpack_into(const std::filesystem::path& source, const std::filesystem::path& to);

constexpr std::uintmax_t kMaxBytes = 64ull << 20;
constexpr std::size_t kMaxEntries = 20000;

// The length of `file_name`'s archive extension, in any case (".zip" 4,
// ".tar.gz" 7; .tar and its compressed forms, .tgz, .7z, .rar, .cpio, ...);
// 0 where it has none.
std::size_t archive_extension(const std::string& file_name);

// Whether `file_name` names a .cu file, in any case of extension.
bool cu_file_name(const std::string& file_name);

// Whether libarchive reads `file` as an archive (any name).
bool readable_archive(const std::filesystem::path& file);

}  // namespace grader
