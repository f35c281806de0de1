// A class graded on a Slurm cluster (course/slurm/README.md).
// `scan-grade --batch FOLDER --slurm` writes OUT/slurm/: todo.txt (one line
// per array task, its submissions separated by tabs), grade-array.sh (each
// task grades its line with `--batch FOLDER --part FILE` into OUT/<student>/,
// building in a work folder of its own on the node's local scratch) and
// submits it, then `scan-grade merge OUT` as a job that starts after every
// task has ended. Students whose record (resume.hpp) matches are left out,
// so a rerun submits only what is missing or failed.
#pragma once

#include <string>
#include <vector>

#include "grader/core/rubric.hpp"

namespace grader {

struct SlurmRequest {
    std::string scan_grade;          // this program, absolute
    std::string batch, out, kit, rubric;  // absolute paths
    std::string backend;             // as asked: auto, emu or cuda; emu asks for no GPU
    std::vector<std::string> labs;   // --lab as given; empty: every lab
    bool sandbox = true;
    bool show_hidden = false;  // --show-hidden
    bool submit = true;              // false (--no-submit): write the scripts, print the commands
    SlurmSettings settings;          // the rubric's, overridden by the options
    std::vector<std::string> sbatch_args;  // --sbatch-arg, passed to both sbatch calls as given
    std::string roster, lms_assignment;    // --roster (absolute; "" for none) and --lms-assignment, for the merge
};

// `todo`: the batch entries (file names in FOLDER) to grade. Returns the exit status.
int submit_to_slurm(const SlurmRequest& request, const std::vector<std::string>& todo);

// `scan-grade merge OUT [--batch FOLDER] [--roster FILE [--lms-assignment NAME]] [--kit DIR] [--rubric FILE]`:
// the gradebooks (gradebook.hpp) from every record in OUT, the class report
// (class_report.hpp) and the submissions without a record (OUT/slurm/todo.txt's,
// FOLDER's), each with its task's log. Exit 0 when none is missing, 1
// otherwise, 2 bad usage, roster or rubric.
int merge_main(const std::vector<std::string>& args, const std::string& default_kit);

}  // namespace grader
