// A failing lab suite's report, kept short: the problems each dataset's
// checks show, grouped so that a problem the suite has already shown in full
// is not shown again, and a summary of what to fix first. The suite
// (harness.cpp) prints each distinct problem in full at its first dataset,
// one line per failing dataset, and this summary at the end; --details
// prints every check of every dataset in full instead.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "observation.hpp"

namespace harness {

// What to fix first, in this order: undefined behaviour (the emulator's
// findings: races, barrier divergence, out-of-bounds and uninitialized
// accesses, possible deadlocks; device errors; writes past n), since while it
// is there the values are a matter of chance; then wrong results (the values,
// a modified input, a leak, a scan not on the GPU); then notes (SIMT
// divergence, which costs points, not correctness).
enum class Severity { UndefinedBehaviour, WrongResult, Note };
const char* label(Severity severity);

// One problem of one dataset.
struct Problem {
    std::string key;  // equal for the same problem on another dataset (problem keys, triage.cpp)
    Severity severity = Severity::WrongResult;
    std::string rule;   // the rule of judge() that it broke
    std::string title;  // one line naming it, for the summary
    std::string brief;  // a few words, for its dataset's line
    // In full: the rule's message, except that a finding (the emulator's, or
    // the harness's leak) is its diagnostic lines (finding_place.hpp), for
    // an editor to take the student to the line; later lines indented by 2.
    std::string full;
};

// The problems of one run of `function`: one per finding of the emulator
// (rule backend_checks_clean), one per other failed rule; none when it
// passed. `folder`: the lab folder as the student's repository names it
// ("labs/02-brent-kung"), which the diagnostic lines start with.
std::vector<Problem> problems_of(const std::vector<Check>& checks, const Observation& seen,
                                 const std::string& function, const std::string& folder);

// A run of `function` that gave no result to judge (it crashed, timed out
// or was not run), `why` saying so: one problem, a wrong result, the same on
// every dataset where `why` differs only in its numbers.
Problem failed_run(const std::string& function, const std::string& why);

// A failing dataset's line, without the leading "  FAIL  ".
std::string fail_line(const std::string& dataset, const std::vector<Problem>& problems);

// One item of what to fix first: a distinct problem, or a kernel's SIMT
// divergence (a note; --divergence).
struct FixFirstItem {
    Severity severity = Severity::WrongResult;
    std::string key;    // the problem's key; "" for a divergence note
    std::string title;  // one line naming it
    std::string first;  // the first run that showed it, "FUNCTION on DATASET" (a note: its run of the lowest efficiency)
    std::size_t datasets = 0;  // on how many datasets it showed (a note: 0)
    std::string kernel;        // a note's kernel and its lowest SIMT efficiency
    double lowest = 1;
};

// How many datasets a function ran on and failed.
struct FunctionRuns {
    std::string function;
    std::size_t datasets = 0, failed = 0;
};

// The problems of a run's datasets, in the order they were added.
class Triage {
public:
    // Records one run of `function` on `dataset` (passed when `problems` is
    // empty); returns its problems that no earlier run showed, each once:
    // those to print in full.
    std::vector<Problem> add(const std::string& function, const std::string& dataset,
                             const std::vector<Problem>& problems);
    // Records the SIMT divergence of one run's launches (--divergence).
    void add_divergence(const std::string& function, const std::string& dataset,
                        const std::vector<KernelDivergence>& launches);

    bool failed() const;
    std::size_t distinct() const { return problems_.size(); }

    // What to fix first, as data: each distinct problem once, undefined
    // behaviour first, then wrong results, then the divergence notes.
    std::vector<FixFirstItem> fix_first() const;
    const std::vector<FunctionRuns>& runs() const { return runs_; }

    // What to fix first, for a person: fix_first()'s items, each problem with
    // its first dataset and on how many more it showed; `details` (a line)
    // says where every finding of every dataset is. Empty when every dataset
    // passed.
    std::string summary(const std::string& details) const;

private:
    struct Seen {
        Problem problem;
        std::string first;  // the first run that showed it: "FUNCTION on DATASET"
        std::size_t datasets = 0;
    };
    struct Divergence {
        std::string kernel, run;  // the run of the lowest efficiency
        double lowest = 1;
    };
    std::vector<Seen> problems_;
    std::vector<Divergence> divergence_;
    std::vector<FunctionRuns> runs_;  // per function
};

}  // namespace harness
