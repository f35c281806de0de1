// scan-grade's options, declared once: the table below parses argv, makes
// `--help`, and tests/test_options.cpp holds grader/README.md's option table
// to it. The subcommands (export, merge, report) parse their own.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace grader::cli {

// What the options set; the caller fills the defaults that are not constant
// (kit, colour) before parse().
struct Settings {
    bool help = false;
    std::string submission, batch, out = "scan-grade-results", work = "scan-grade-work", rubric, kit, backend = "auto";
    std::vector<std::string> labs, lab_args;  // the catalog's ids; --lab as given (for the Slurm tasks)
    unsigned jobs = 0;       // 0: the default, from the GPUs
    double fail_under = -1;  // percent; < 0: none
    bool sandbox = true, show_hidden = false, cache = true, colour = false;
    std::string part, roster, lms_assignment, submitted_at;
    bool slurm = false, submit = true;
    std::optional<std::string> partition, account, time_limit;
    unsigned chunk = 0, cpus_per_task = 0;  // 0: the rubric's
    std::vector<std::string> sbatch_args;
    std::vector<std::string> given;  // the options on the command line, by their first name
};

// Where an option has effect, for --help; of the combinations parse()
// refuses, only the Slurm request's options (kSlurm alone) are found from it.
enum Mode : unsigned { kOne = 1, kBatch = 2, kSlurm = 4, kMerge = 8 };
constexpr unsigned kGrading = kOne | kBatch | kSlurm;

struct Option {
    std::vector<std::string> names;  // the first is the one --help and the README give
    const char* value;               // its value's name; nullptr: a switch
    unsigned modes;
    const char* help;
    // Stores the value (empty for a switch); returns why it is refused, or "".
    std::string (*set)(Settings&, const std::string& value);
};

const std::vector<Option>& options();

// The whole of `scan-grade --help`.
std::string help_text();

// Reads argv[1..] into `settings`, stopping at --help; returns why the command
// line is refused: an unknown option, a value missing or refused, options that
// do not go together ("" when none). Files named are main()'s to check.
std::string parse(int argc, const char* const* argv, Settings& settings);

}  // namespace grader::cli
