// What grading one submission produced: the data every output file is
// written from (outputs.hpp). Scores are in points; a component that cannot
// be measured here (timing without a GPU) is not gradable: it is reported as
// such and left out of the total's denominator, never counted as zero.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "grader/core/sanitizer.hpp"
#include "grader/core/timing.hpp"
#include "limits.hpp"
#include "observation.hpp"
#include "triage.hpp"

namespace grader {

enum class Status { Passed, Failed, NotGradable };

// One line of feedback a student sees: one dataset class, one check.
struct TestResult {
    std::string name;       // "lab02 correctness: section"
    std::string lab;        // "02-brent-kung"
    std::string component;  // "build", "correctness", "safety", "divergence" or "timing"
    double score = 0, max_score = 0;
    Status status = Status::Failed;
    bool hidden = false;  // hidden datasets: shown only after grades are published
    std::string output;   // the feedback text: first wrong element, findings, reports
    // Wall-clock time of the test's runs, as measured; 0 where not measured.
    // grade() measures a correctness test's emulator runs alone (the sum of
    // its datasets' runs, Verdict::seconds): the GPU runs a plan's datasets in
    // one process, and the other components' runs serve every lab at once.
    double seconds = 0;
};

struct Component {
    std::string name;  // as in TestResult::component
    double score = 0, max_score = 0;
    bool gradable = true;
    std::string note;  // one line: why it scored what it did
};

// The emulator's divergence of one lab function on the divergence dataset:
// each launch's warp-by-interval map, the student's and the reference's.
struct DivergenceMaps {
    std::string function, dataset;
    std::vector<harness::KernelDivergence> mine, reference;  // mine empty when the run failed
    // Why mine was not scored ("no kernel ran", "wrong outputs ..."), empty
    // when it was: the pictures then say n/a, not the efficiency of a kernel
    // that computed nothing.
    std::string not_scored;
};

// One function timed on the GPU against the reference (and CUB).
struct FunctionTiming {
    std::string function, dataset;
    Timed timed;
};

struct LabResult {
    std::string lab;  // "02-brent-kung"
    bool submitted = false, built = false;
    std::string note;                   // one line when the lab was not graded normally
    std::vector<Component> components;  // correctness, safety, divergence, timing
    std::vector<TestResult> tests;
    // What the HTML report draws (report_html.hpp): the submitted scan.cu, the
    // safety findings (which name its lines), the divergence maps and the timing.
    std::string source;
    std::vector<Finding> findings;
    std::vector<DivergenceMaps> divergence;
    std::vector<FunctionTiming> timing;
    // What to fix first, as the lab suites print it (labs/common/triage.hpp):
    // each distinct problem of the datasets once, undefined behaviour first;
    // a hidden dataset's, until grades are published, by its number alone.
    std::vector<harness::FixFirstItem> fix_first;
    // What of scan.cu the emulator cannot run (simt/limits.hpp, or the line
    // g++ rejected where nvcc compiled the file): the emulator's checks did
    // not run, and the lab was graded on the GPU alone or, without one, not
    // at all. The gradebook flags such a lab for the instructor.
    std::vector<simt::Limit> emulator_limits;
    bool gradable() const;  // some component was graded here (not: a lab that needs a GPU, without one)
    double score() const;      // over gradable components
    double max_score() const;  // over gradable components
};

// Wall-clock time of one phase of a grading (phases overlap: each runs from
// its first process's start to its last one's end).
struct Phase {
    std::string name;  // "build emu", "build cuda", "datasets emu", "datasets gpu", "sanitizer", "divergence", "timing"
    double seconds = 0;
};

// How Report::hidden ends where the hidden datasets are named by number once
// grades are published (not --show-hidden), for a format without that step to replace.
inline constexpr std::string_view kHiddenNamedLater = ", named by number until grades are published";

struct Report {
    std::string submission;  // the student's name: the submission's file or folder name
    // The submission's instant, UTC YYYY-MM-DDTHH:MM:SSZ: --submitted-at, or
    // the committer date of its git checkout's HEAD; "" unknown (classroom50.hpp).
    std::string submitted_at;
    std::string backend;     // "emu" or "cuda"
    std::string device;      // the emulator, or the GPU's name
    bool sandboxed = false;
    // What holds for every submission the run grades (the sandbox), a line
    // each: a batch's summary says it once where every student shares it (gradebook.hpp).
    std::vector<std::string> run_notes;
    std::vector<std::string> notes;  // ignored files, policies: one line each
    // For the instructor, in the gradebook's flags column: how lab files were
    // taken (a misnamed one, one passed over); a line each.
    std::vector<std::string> flags;
    // Why the submission was not graded at all, by kind ("not a submission",
    // "duplicate upload", "unreadable", "too large", "empty"); "" when it was.
    std::string refused;
    std::vector<LabResult> labs;
    std::vector<Phase> phases;  // in the order above, those that ran
    std::vector<std::string> cached;  // the labs taken from the result cache (result_cache.hpp)
    double seconds = 0;         // the whole grading, end to end
    // How many hidden datasets each lab ran, and how they are named: "3
    // hidden datasets a lab" and kHiddenNamedLater.
    std::string hidden;
    double score() const;
    double max_score() const;
};

}  // namespace grader
