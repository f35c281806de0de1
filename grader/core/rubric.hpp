// The rubric the instructor edits (grader/rubric.json): points per component,
// hidden datasets, timeouts and targets. Every field has a default (README).
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "generator.hpp"

namespace grader {

struct RubricError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Weights {
    double correctness = 60, safety = 20, divergence = 10, timing = 10;
};

// Where `scan-grade --batch ... --slurm` asks Slurm to grade (slurm.hpp); its
// options override each field. Not part of what a grade depends on.
struct SlurmSettings {
    std::string partition, account;  // empty: the cluster's default
    std::string time = "01:00:00";   // each array task's limit
    unsigned chunk = 1;              // submissions per array task
    unsigned cpus_per_task = 8;
};

// How submissions are taken in ("intake" in the rubric; grader/README.md).
struct IntakeRules {
    // A lab file under another name (Scan.cu, "scan (1).cu", lab02/scan.cu)
    // is found by the lab function it defines and graded, with a note
    // ("misnamed": "grade"); "refuse" grades only the accepted layouts and
    // names the file it would have taken.
    bool misnamed = true;
    // The headers of the student's own that a lab's scan.cu may include from
    // its folder, taken with it: file name patterns ("*" matches any run of
    // characters) and a size limit each. An empty list takes none.
    std::vector<std::string> headers = {"*.h", "*.hpp", "*.cuh", "*.inl"};
    std::size_t header_max_bytes = 256 * 1024;
    // Two uploads with one student name (alice.zip, alice.tar.gz): "grade"
    // both, as alice.zip and alice.tar.gz, or "refuse" both.
    bool refuse_duplicates = false;
};

// The class report's check of code alike ("similarity" in the rubric; not
// part of what a grade depends on). A pair of students' lab files is flagged
// where the larger of its two shares (the part of one's own code, beyond the
// stub and the reference, found in the other) reaches `threshold` and they
// share at least `min_tokens` tokens; `pairs` most alike are listed a lab.
struct SimilaritySettings {
    bool on = true;  // "check": "copydetect" (default, where it is installed) or "off"
    double threshold = 0.6;
    unsigned min_tokens = 60, pairs = 10;
};

struct Rubric {
    std::uint64_t hidden_seed = 0;  // SCAN_GRADE_SECRET overrides it
    bool hidden_seed_from_secret = false;  // it did
    std::map<std::string, Weights> weights;                                   // per lab id
    std::map<std::string, std::vector<datasets::Spec>> hidden;                // per lab id, seeds drawn here
    // Per lab id: the libraries whose scans its scan.cu may not call
    // ("CUB", "Thrust"; simt::find_library_scans): "forbid" for every lab,
    // labs.<id>.forbid for one. A lab that calls one is not built.
    std::map<std::string, std::vector<std::string>> forbid;
    double build_timeout_s = 600, run_base_s = 10, run_per_million_s = 15, gpu_per_million_s = 2;
    // On a GPU a lab's datasets run in one process: the first gets run_base_s
    // (starting the process and the CUDA context), each later one gpu_step_s,
    // both plus gpu_per_million_s per million elements.
    double gpu_step_s = 2;
    unsigned give_up_after = 2;  // timeouts in one lab before its other datasets are not run
    // Per lab id (labs.<id>.emulator_with_gpu_max_n): where a GPU is graded
    // too, the emulator runs the datasets of more elements only where one of
    // at most this many found something (pipeline.cpp). Absent or 0: all.
    std::map<std::string, std::size_t> emulator_with_gpu_max_n;
    // Per lab id (labs.<id>.gpu_only_n): a hidden walk4 dataset of this many
    // elements (above 2^31: an index in 32 bits wraps) that only a GPU runs,
    // made and checked on the device (bench/README.md, --device-only); its
    // seed drawn from hidden_seed. Absent or 0: none.
    std::map<std::string, datasets::Spec> gpu_only;
    std::size_t divergence_n = 8192;
    double divergence_full_within = 0.02, divergence_zero_below = 0.25;
    // Timing: scan-bench alternates the student's and the reference's builds
    // in one process until the median ratio is known within timing_rel_ci
    // (bench/README.md); the ratio is rounded to timing_ratio_step before scoring.
    std::size_t timing_n = 1 << 24;
    unsigned timing_min_rounds = 30, timing_max_rounds = 400;
    double timing_rel_ci = 0.005, timing_max_seconds = 20, timing_ratio_step = 0.05;
    double timing_full_within = 1.2, timing_zero_at = 3.0;
    std::size_t sanitizer_n = 4096;
    double sanitizer_timeout_s = 60;  // a kernel that never finishes under a tool: a deadlock
    std::vector<std::string> sanitizer_tools = {"racecheck", "memcheck", "initcheck", "synccheck"};
    bool no_gpu_full_timing = false;  // "no_gpu": "exclude" (default) or "full"
    SlurmSettings slurm;
    IntakeRules intake;
    SimilaritySettings similarity;

    const Weights& weights_of(const std::string& lab) const;
    std::size_t emulator_max_n(const std::string& lab) const;  // emulator_with_gpu_max_n's, 0 where absent
    // The timing dataset: walk4 of timing_n elements, its seed drawn from
    // hidden_seed as the hidden datasets' are, so the inputs scan-bench makes
    // from it for every timed call cannot be known ahead; timing_text() names
    // it for a person without the seed.
    datasets::Spec timing_spec() const;
    std::string timing_text() const;
};

// Reads the rubric; throws RubricError naming the file and the field.
Rubric load_rubric(const std::string& path);

// The rubric file's text as grading reads it: without "slurm" and
// "similarity", which say where to grade and what the class report compares,
// so a result stays valid when those sections change.
std::string grading_text(const std::string& rubric_text);

}  // namespace grader
