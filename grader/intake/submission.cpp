#include "grader/intake/submission.hpp"

#include <algorithm>

#include "catalog.hpp"
#include "grader/core/files.hpp"
#include "grader/intake/export.hpp"

namespace fs = std::filesystem;

namespace grader {

const char* const kLayouts =
    "labs/NN-name/scan.cu (a copy of the student tree), NN-name/scan.cu, or NN-name.cu / labNN.cu at the top";

Submission open_submission(const std::string& path, const std::string& unpack_dir, const std::string& kit,
                           const IntakeRules& rules) {
    const fs::path source(path);
    Submission s;
    s.name = submission_name(source.filename().string());
    s.left_out = unpack_into(source, unpack_dir).left_out;
    // A single top folder (an archive of "scan-labs-main/...") is the root.
    fs::path root = unpack_dir;
    for (;;) {
        std::vector<fs::path> children;
        for (const auto& e : fs::directory_iterator(root)) children.push_back(e.path());
        if (children.size() != 1 || !fs::is_directory(children[0]) || catalog::find(children[0].filename().string()))
            break;
        root = children[0];
    }
    LabFiles labs = find_lab_files(root, unpack_dir, rules, kit);
    s.files = std::move(labs.found);
    s.missing = std::move(labs.missing);
    for (const auto& e : fs::recursive_directory_iterator(root)) {
        if (!e.is_regular_file()) continue;
        const fs::path rel = fs::relative(e.path(), root);
        if (std::binary_search(labs.taken.begin(), labs.taken.end(), rel.generic_string())) continue;
        // Classroom 50's marker, which `gh student accept` commits: no file of the student's.
        if (rel == ".classroom50.yaml") continue;
        const fs::path in_kit = fs::path(kit) / kit_path_of(rel.generic_string());  // README.md: the student one
        if (!fs::is_regular_file(in_kit) || read_file(in_kit) != read_file(e.path()))
            s.ignored.push_back(fs::relative(e.path(), unpack_dir).generic_string());  // as the student named it
    }
    std::sort(s.ignored.begin(), s.ignored.end());
    return s;
}

std::string submission_name(const std::string& file_name) {
    const std::size_t cut = archive_extension(file_name);
    return file_name.substr(0, file_name.size() - (cut ? cut : cu_file_name(file_name) ? 3 : 0));
}

}  // namespace grader
