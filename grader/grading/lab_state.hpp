// What grading one lab gathers before it is scored: its units (a function on
// a dataset) with a verdict per backend, its findings, its divergence and
// timing runs; and the judging of one run into a verdict.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "generator.hpp"
#include "grader/core/report.hpp"
#include "grader/grading/context.hpp"
#include "grader/grading/executor.hpp"
#include "grader/intake/lab_files.hpp"
#include "limits.hpp"
#include "triage.hpp"

namespace grader {

// One function on one dataset on one backend, judged.
struct Verdict {
    bool passed = false, timed_out = false;
    bool skipped = false;  // not run on this backend by the rubric (emulator.with_gpu_max_n): no verdict
    std::string feedback;                                      // FAIL lines; empty when passed
    // The findings that left the failed run's values proving nothing: the
    // correctness test shows them (scorer_correctness.cpp), each problem in
    // full once; none where the unit is withheld.
    std::vector<Finding> undefined;
    std::vector<Finding> findings;
    // Its problems for what to fix first (triage.hpp), both block orders';
    // a withheld unit's, one naming the dataset alone.
    std::vector<harness::Problem> problems;
    // Wall-clock time of the emulator's run of it (both runs where it ran the
    // blocks in reverse order too), as measured; 0 where none was measured:
    // the GPU runs a plan's datasets in one process, which times no single run.
    double seconds = 0;
};

// One function on one dataset, on every backend.
struct Unit {
    std::string cls, function;
    datasets::Spec spec;
    bool hidden = false, scored = true, passed = false;
    bool withheld = false;  // hidden, and not --show-hidden: named by number, no details
    // Made, run and checked on the GPU alone (rubric gpu_only): no input on
    // the host, no emulator run (its verdict there is `skipped`).
    bool device_only = false;
    const catalog::Function* fn = nullptr;
    DatasetCache::Data input;  // shared with every grading of the run (context.hpp); none where device_only
    std::string what, feedback;
    std::vector<Verdict> on;  // per backend, in ctx.backends' order
};

struct LabState {
    const catalog::Lab* lab;
    LabFile file;
    std::vector<simt::Limit> limits;  // what of its scan.cu the emulator cannot run (simt/limits.hpp)
    // The #includes of headers the emulator lacks that scan.cu does not use:
    // its emulator build leaves them out (simt::unused_includes).
    std::vector<simt::Limit> left_out;
    // Where the emulator cannot run it and a GPU grades it alone: the index
    // of the emulator's backend, whose verdicts then do not count; else -1.
    int emu_off = -1;
    std::string cache_key;  // where its result goes in the result cache; empty: it is not kept
    LabResult out;
    std::vector<Unit> units;
    std::map<std::string, std::vector<Finding>> findings;  // category -> findings, first few
    std::atomic<unsigned> emu_timeouts{0};
    std::mutex mutex;         // guards block_order, set by the emulator's runs
    std::string block_order;  // the emulator's default block order, for the feedback
    bool emu_skipped = false;  // some datasets were left to the GPU alone (Verdict::skipped)
    bool emu_spared = false;   // some large datasets the GPU failed were not run on the emulator (Verdict::skipped)
    bool gpu_judged = false;   // run_gpu_datasets judged every dataset (set before its future is ready)
    // function -> its GPU run that timed out, where one did: that function's
    // later GPU work (datasets, compute-sanitizer, timing) is skipped
    std::map<std::string, std::string> gpu_hung;
    double gate = 0;       // correctness fraction
    std::vector<Finding> sanitizer_findings;
    bool divergence_ran = false, timing_ran = false;
    std::vector<std::pair<Run, Run>> divergence;  // per function: the student's run and the reference's
    // Where the emulator cannot run the lab: per function, its divergence on the GPU (run_gpu_divergence).
    std::vector<GpuDivergence> gpu_divergence;
    std::vector<TimingRun> timings;               // per function; problem: why it is not scored
};

// The first few findings of a category, each once (see lab_state.cpp).
void note_finding(LabState& state, const Finding& finding);
// A run judged against the unit's input; `on` names the backend where several are graded.
Verdict judge_run(const Unit& unit, const std::string& on, const Run& r);
Verdict not_run(const Unit& unit, const std::string& on, const std::string& why);
// " [emu]" where several backends are graded, else "".
std::string on_label(const Context& ctx, const std::string& backend);
// "hierarchical_scan's hidden dataset 2 of lab 04": each function whose GPU run timed out, and the run.
std::string hung_runs(const LabState& state);
TestResult make_test(const std::string& lab, const catalog::Lab& info, const std::string& component,
                     const std::string& name, double score, double max, const std::string& output);
// Whether a lab's later work on a backend is worth running: some dataset
// came out right there (its correctness is not 0) and none hung there. It is
// decided per backend, so the GPU's work goes on while the emulator's
// datasets still run; what the final correctness rules out is not scored.
bool worth_running(const LabState& state, std::size_t backend, bool gpu);
// Why a lab's later component is not scored, or "" when it is.
std::string skip_reason(const LabState& state, bool gpu_work);

}  // namespace grader
