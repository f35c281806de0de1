// What builds a submission's labs and runs them: the grader's one door to
// compilers, processes and the GPU. grade() asks it for builds and runs and
// decides everything else itself, so a test can hand it canned runs (right,
// wrong, racy, hung, crashed) and check the scores without building anything,
// as CUB's dispatch takes its kernels and launcher. process_executor.hpp is
// the one that runs real processes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog.hpp"
#include "generator.hpp"
#include "grader/core/timing.hpp"
#include "grader/grading/workspace.hpp"
#include "grader/intake/lab_files.hpp"
#include "observation.hpp"

namespace grader {

// A runner's run: the observation it wrote, or why there is none.
struct Run {
    bool ok = false;
    bool timed_out = false;
    std::string problem;
    std::string output;  // what the process printed (kept to the limit), for tools whose reports are read
    harness::Observation seen;
    // The emulator's second run with the blocks in reverse order (a process of its own), when it made one.
    std::shared_ptr<harness::Observation> reversed;
};

// What the emulator's run records besides the outputs.
enum class Trace {
    none,
    reversed_too,  // a second run with the blocks in reverse order
    divergence,    // the warps' divergence, for the divergence component
};

// One GPU process running datasets in order (a runner's --plan).
struct PlanRun {
    std::vector<Run> done;  // the first datasets' runs, as far as the process got
    Run failed;             // where it stopped short: the next dataset's failure (timed_out, problem)
    // The rest need a new process: a run left the device unusable, or
    // compute-sanitizer stopped printing reports before the next run's.
    // Only with `done` not empty: a process must get somewhere.
    bool restart = false;
    bool cannot_run = false;  // the runner cannot run at all (no usable GPU, not started)
};

// One run of a GPU plan: a lab's function on the input of `spec`.
struct LabCall {
    const catalog::Lab* lab;
    std::string function;
    datasets::Spec spec;
    const std::vector<float>* input;  // spec's dataset
};

// One function timed against the reference (scan-bench --against --grading).
struct TimingRun {
    std::string problem;  // why it left no valid result; empty when it did
    Timed timed;          // scan-bench's summary (with its own verdict in timed.problem)
    harness::Observation seen;  // the outputs of the timed calls, to be judged
};

// Control divergence of one function measured on the GPU by Nsight Compute,
// where the emulator cannot run its lab, on the same input for both builds:
// the reference's share of lanes active per warp instruction, and the
// submission's set at the reference's work (bench/counters.hpp,
// share_at_work), with the lane slots each left idle.
struct GpuDivergence {
    std::string problem;  // why there is no measure; empty when there is
    double mine = 0, reference = 0;
    double idle_mine = 0, idle_reference = 0;
};

// A dataset above what the host holds (2^31 elements and more), made, run
// and checked on the device alone (scan-bench --device-only). `skipped`: why
// it did not run where that is no fault of the code (too little device
// memory); `problem`: why the run failed (a CUDA error, a crash, a timeout).
struct DeviceOnlyCheck {
    std::string skipped, problem;
    bool timed_out = false;
    std::uint64_t wrong = 0, first = 0, input_changed = 0;
};

class Executor {
public:
    virtual ~Executor() = default;
    // Builds the labs on ctx.backends[backend]: one result per lab, in order.
    virtual std::vector<BuildResult> build(std::size_t backend,
                                           const std::vector<std::pair<const catalog::Lab*, LabFile>>& labs) = 0;
    // Whether nvcc compiles the file, on a machine without the GPU's build,
    // and the library scans its object holds; nothing where no nvcc is.
    virtual std::optional<BuildResult> nvcc_check(const catalog::Lab& lab, const LabFile& file) = 0;
    // The emulator's runner on one dataset.
    virtual Run emulate(const catalog::Lab& lab, const std::string& function, const std::vector<float>& input,
                        double timeout_s, Trace trace) = 0;
    // The reference's divergence run of one function on the divergence dataset.
    virtual Run reference_divergence(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                                     const std::vector<float>& input) = 0;
    // The GPU running `calls` in order, in one process, whatever their labs.
    virtual PlanRun gpu_plan(const std::vector<LabCall>& calls) = 0;
    // compute-sanitizer's `tool` on the GPU running `calls` in order, in one
    // process: each run's `output` holds the tool's reports of that run
    // alone, and its `ok` says the tool reported nothing.
    virtual PlanRun sanitize(const std::string& tool, const std::vector<LabCall>& calls) = 0;
    // Functions' timings on the GPU: one result per function, in order. The
    // timing program holds the GPU through `gpu_lock`'s files (gpu_lock.hpp),
    // shared while it starts and alone while it times.
    virtual std::vector<TimingRun> time(const std::vector<std::pair<const catalog::Lab*, const catalog::Function*>>& fns,
                                        const datasets::Spec& spec, const std::string& gpu_lock) = 0;
    // ncu's counters of `fn` in the submission's GPU build and in the
    // reference's, each run once on `spec`'s input, the GPU held alone
    // through `gpu_lock`'s files (other work would count in the counters).
    virtual GpuDivergence gpu_divergence(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                                         const std::string& gpu_lock) = 0;
    // `fn` of the submission's GPU build on `spec`'s dataset made on the
    // device and checked there by a process that runs none of its code, the
    // GPU held alone through `gpu_lock`'s files (it needs 8 bytes an element).
    virtual DeviceOnlyCheck device_only(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                                        const std::string& gpu_lock) = 0;
    // Brings the reference's builds that the labs' divergence and timing use
    // up to date ahead of them, alongside the submission's builds and runs (a
    // first grading in a work folder builds them); errors are left for those
    // phases to meet and report.
    virtual void prepare_reference(const std::vector<const catalog::Lab*>& labs) { (void)labs; }
};

// One grading slot (a batch worker owns one): its executor, and the GPU it
// runs on (-1 without the cuda backend).
struct Slot {
    std::unique_ptr<Executor> exec;
    int gpu = -1;        // index into Context::gpus and gpu_locks
    std::string gpu_id;  // nvidia-smi's index of that GPU
};

}  // namespace grader
