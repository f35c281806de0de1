// Grading one submission: every lab built, run on the public and hidden
// datasets in contained processes, judged by the grader against answers it
// computed itself, and scored by the rubric.
#pragma once

#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "report.hpp"
#include "result_cache.hpp"
#include "rubric.hpp"
#include "sandbox.hpp"
#include "submission.hpp"
#include "workspace.hpp"

namespace grader {

// Processes that each keep a core busy (emulator runs, compute-sanitizer),
// counted across every slot of a batch so the machine is never oversubscribed.
class Tokens {
public:
    explicit Tokens(unsigned count) : free_(count ? count : 1) {}
    void acquire();
    void release();
    unsigned count() const { return count_; }
    void reset(unsigned count) { free_ = count_ = count ? count : 1; }

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    unsigned free_, count_ = free_;
};

// One GPU: correctness and compute-sanitizer runs share it (shared), timing
// has it alone (exclusive); a waiting exclusive holder goes before new shared
// ones, so timing is never starved.
class GpuLock {
public:
    void lock_shared();
    void unlock_shared();
    void lock();
    void unlock();

private:
    std::mutex mutex_;
    std::condition_variable cv_;
    unsigned readers_ = 0, writers_waiting_ = 0;
    bool writer_ = false;
};

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
    std::vector<std::unique_ptr<GpuLock>> gpu_locks;
    Tokens cpu{1};
    ResultCache cache;  // on where the emulator alone grades (result_cache.hpp)
    std::function<void(const std::string&)> progress;  // one line per step, may be empty
};

// The per-backend workspaces of one grading slot (a batch worker owns one),
// and the GPU it runs on (-1 without the cuda backend).
struct Slot {
    std::vector<std::unique_ptr<Workspace>> workspaces;
    int gpu = -1;        // index into Context::gpus and gpu_locks
    std::string gpu_id;  // nvidia-smi's index of that GPU
    std::vector<std::string> env() const;  // CUDA_VISIBLE_DEVICES for its programs
};

// Thrown by grade() when the grader is stopping (stop_children()): what it
// had graded of the submission is not a result.
struct Stopped : std::runtime_error {
    Stopped() : std::runtime_error("stopped before the grading finished") {}
};
Slot make_slot(Context& ctx, unsigned index);

Report grade(Context& ctx, Slot& slot, const Submission& submission);

// "emu", "cuda" or "emu+cuda": the backends a report names.
std::string backend_names(const Context& ctx);

// A lab that scores nothing (not submitted, rejected, not compiling, or the
// whole submission unreadable): every component zero, gradable as the
// context's backends make it, and one test named `test` carrying `output`.
LabResult zero_lab(const Context& ctx, const catalog::Lab& lab, const std::string& test, const std::string& note,
                   const std::string& output);

// A lab the emulator cannot run (its limits), graded where no GPU is: no
// component gradable here, "needs a GPU to grade", never zero.
LabResult needs_gpu_lab(const Context& ctx, const catalog::Lab& lab, const std::vector<simt::Limit>& limits);

}  // namespace grader
