// What every grading of a run shares: the rubric, the kit, the backends and
// GPUs, the cores, the sandbox, the datasets and the result cache.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "grader/core/result_cache.hpp"
#include "grader/core/rubric.hpp"
#include "grader/grading/dataset_cache.hpp"
#include "grader/grading/sandbox.hpp"
#include "grader/grading/schedule.hpp"

namespace grader {

struct Context {
    Rubric rubric;
    std::string kit;    // the kit's source tree (with reference/)
    std::string work;   // the grader's work folder: builds, scratch
    std::string backend_asked = "auto";  // --backend
    // --show-hidden: the instructor's copy names the hidden datasets (kind,
    // size, seed) and shows their failures; otherwise every output names one
    // only "hidden dataset k of lab NN", with pass or fail (a seed is the
    // dataset: students have the generator).
    bool show_hidden = false;
    std::vector<std::string> backends;   // "emu" always; "cuda" too with a usable GPU
    std::string device;                 // what runs the cuda backend, or why there is none
    Sandbox sandbox;
    std::vector<std::string> labs;  // lab ids to grade
    // The GPUs graded on (nvidia-smi's indices); a slot uses one of them,
    // through CUDA_VISIBLE_DEVICES, and its lock.
    std::vector<std::string> gpus;
    std::vector<std::string> gpu_locks;  // each GPU's lock files (gpu_lock.hpp): WORK/gpu-locks/gpuK
    Tokens cpu{1};
    // Cores for the processes that feed a GPU (compute-sanitizer), apart from
    // the emulator's: behind its runs of seconds each they would keep the GPU
    // side (the grade's longer one) waiting, while the emulator, niced where a
    // GPU is graded, gives them the CPU anyway.
    Tokens gpu_feeders{1};
    DatasetCache datasets;  // the inputs, generated once a run
    ResultCache cache;  // on where the emulator alone grades (result_cache.hpp)
    std::function<void(const std::string&)> progress;  // one line per step, may be empty
};

// The index of `backend` in ctx.backends (a slot's and a unit's verdicts are
// kept in that order); -1 where it is not graded on.
int backend_index(const Context& ctx, const std::string& backend);

// How long one run of n elements may take on `backend` ("emu", "cuda"), by the rubric.
double run_timeout(const Context& ctx, const std::string& backend, std::size_t n);

}  // namespace grader
