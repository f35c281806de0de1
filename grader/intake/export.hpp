// The student repository: which parts of the kit a student gets, and
// `scan-grade export DIR`, which writes them. The list is explicit (what goes
// out is named here, never "everything but"), so a new hidden file stays home
// by default; the grader's workspaces copy the parts a student build needs
// from the same list.
#pragma once

#include <string>
#include <vector>

namespace grader {

struct KitPart {
    std::string from;         // in the kit: a file or a folder (its regular files)
    std::string to;           // in the student repository
    bool folder = false;
    bool build = false;       // a student build needs it: the grader's workspaces copy it too
    bool subfolders = true;   // a folder: with its subfolders (false: the files at its top only)
};

// A folder part's files, as paths relative to the folder, sorted.
std::vector<std::string> part_files(const std::string& kit, const KitPart& part);

// Every part of the student repository, in order.
std::vector<KitPart> handout_parts();

// Where a file of the student repository comes from in the kit: "README.md"
// -> "course/student/README.md"; a path no part holds is returned as it is.
std::string kit_path_of(const std::string& repository_path);

// `scan-grade export [--kit DIR] [--force] DIR`: args are the words after
// "export"; kit is the default kit. Returns the exit status: 0 written, 1 it
// could not write (or a file to export is a copy of a reference/ or grader/
// file), 2 bad usage.
int export_main(const std::vector<std::string>& args, const std::string& kit);

}  // namespace grader
