#include "grader/intake/batch.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "grader/core/files.hpp"
#include "grader/intake/submission.hpp"
#include "grader/intake/unpack.hpp"

namespace fs = std::filesystem;

namespace grader {
namespace {

// Why an entry is no submission; "" when it is one.
std::string not_a_submission(const fs::directory_entry& e) {
    const std::string name = e.path().filename().string();
    const fs::file_status st = e.symlink_status();
    if (fs::is_symlink(st)) return name + " is a link: the grader takes folders and files, never links";
    if (fs::is_directory(st)) return "";
    if (!fs::is_regular_file(st)) return name + " is not a regular file";
    if (archive_extension(name) || submission_name(name) != name || readable_archive(e.path())) return "";
    return name + " is not a folder, an archive (zip, tar, tar.gz, 7z, rar, ...) or a .cu file";
}

}  // namespace

Batch read_batch(const fs::path& folder, bool refuse_duplicates) {
    Batch b;
    for (const auto& e : fs::directory_iterator(folder)) {
        const std::string file = e.path().filename().string();
        if (file[0] == '.') {
            b.hidden.push_back(file);
            continue;
        }
        BatchEntry entry{e.path(), submission_name(file), not_a_submission(e), ""};
        if (!entry.refused.empty()) {
            entry.kind = "not a submission";
            entry.name = file;
        }
        b.entries.push_back(entry);
    }
    std::sort(b.entries.begin(), b.entries.end(), [](const auto& x, const auto& y) { return x.path < y.path; });
    std::sort(b.hidden.begin(), b.hidden.end());
    // One student name, several uploads: by name, in any case (one folder on
    // a file system that ignores case).
    std::map<std::string, std::vector<BatchEntry*>> by_name;
    for (BatchEntry& entry : b.entries) by_name[lower_case(entry.name)].push_back(&entry);
    for (auto& [name, group] : by_name) {
        if (group.size() < 2) continue;
        std::string files;
        for (const BatchEntry* entry : group) files += (files.empty() ? "" : ", ") + entry->path.filename().string();
        const std::string student = group.front()->name;
        // Each under its whole file name (a folder keeps its own), numbered
        // where even those meet: a row and a folder each, graded or refused.
        std::map<std::string, int> used;
        std::string as;
        for (BatchEntry* entry : group) {
            entry->name = entry->path.filename().string();
            if (const int n = ++used[lower_case(entry->name)]; n > 1) entry->name += "-" + std::to_string(n);
            as += (as.empty() ? "" : ", ") + entry->name;
            if (refuse_duplicates && entry->refused.empty()) {
                entry->refused = std::to_string(group.size()) + " uploads for " + student + " (" + files +
                                 "): the rubric's intake.duplicates is \"refuse\", so none is graded; keep one";
                entry->kind = "duplicate upload";
            }
        }
        b.warnings.push_back(std::to_string(group.size()) + " uploads for " + student + ": " + files +
                             (refuse_duplicates ? "; none graded (the rubric's intake.duplicates is \"refuse\")"
                                                : "; each graded, as " + as));
    }
    return b;
}

std::string batch_summary(std::size_t entries, std::size_t graded, std::size_t resumed,
                          const std::vector<std::string>& refused_kinds) {
    std::map<std::string, std::size_t> kinds;
    for (const auto& k : refused_kinds) ++kinds[k];
    std::string why;
    for (const auto& [kind, n] : kinds) why += (why.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
    return std::to_string(entries) + (entries == 1 ? " entry: " : " entries: ") + std::to_string(graded) + " graded (" +
           std::to_string(resumed) + " taken from an earlier run), " +
           std::to_string(refused_kinds.size()) + " refused" + (why.empty() ? "" : " (" + why + ")");
}

}  // namespace grader
