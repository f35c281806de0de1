// The per-lab pipeline: the units planned, then on the CPU the emulator's
// datasets and divergence runs, on the GPU each lab's datasets, then
// compute-sanitizer, then timing; every run asked of the slot's executor,
// under the context's cores and the slot's GPU lock (schedule.hpp).
#pragma once

#include <future>
#include <vector>

#include "grader/grading/context.hpp"
#include "grader/grading/executor.hpp"
#include "grader/grading/lab_state.hpp"

namespace grader {

// The units of one lab: the public manifest's datasets and the rubric's
// hidden ones, each for every function, their inputs generated here.
void plan_units(Context& ctx, LabState& state);

// The emulator's runs: one process per dataset, as many at once as there are cores.
// `gpu_judged`, where a GPU grades too, is ready once run_gpu_datasets has
// judged these labs' datasets there: a large dataset the GPU failed is not
// run again on the emulator (run_emulator_datasets says why).
void run_emulator_datasets(Context& ctx, Slot& slot, std::vector<LabState*>& labs,
                           const std::shared_future<void>& gpu_judged = {});
// The emulator's divergence runs of the student's functions and the
// reference's, for the labs with some dataset right.
void run_divergence(Context& ctx, Slot& slot, std::vector<LabState*>& labs);
// Control divergence measured on the GPU (Nsight Compute), for the labs with
// some dataset right there that the emulator cannot run (emu_off set).
void run_gpu_divergence(Context& ctx, Slot& slot, std::vector<LabState*>& labs);
// The GPU's runs of the labs' datasets.
void run_gpu_datasets(Context& ctx, Slot& slot, std::vector<LabState*>& labs);
// The GPU's runs of the datasets only it can hold (rubric gpu_only), after run_gpu_datasets.
void run_device_only(Context& ctx, Slot& slot, std::vector<LabState*>& labs);
// compute-sanitizer's tools on each function, into state.sanitizer_findings.
void sanitize(Context& ctx, Slot& slot, std::vector<LabState*>& labs);
// The GPU timing of the labs' functions against the reference's, the GPU
// held alone by the caller; judge_timing judges a lab's timed calls' outputs
// after it is released.
void run_timing(Context& ctx, Slot& slot, std::vector<LabState*>& labs);
void judge_timing(Context& ctx, LabState& state);

}  // namespace grader
