// Where a submission is built: a pristine copy of the kit (no reference/, no
// grader/) with the student's scan.cu files put in, configured once with
// Meson and rebuilt per lab with Ninja, so a batch recompiles only the lab
// files. The reference is built from the kit itself, once per work folder.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "catalog.hpp"
#include "grader/grading/library_symbols.hpp"
#include "grader/grading/sandbox.hpp"
#include "grader/intake/export.hpp"
#include "grader/intake/lab_files.hpp"

namespace grader {

struct BuildResult {
    bool ok = false;
    std::string errors;  // the compiler's first errors, paths relative to the kit
    double seconds = 0;
    // CUB's and Thrust's scans in the lab's compiled object, best first
    // (library_symbols.hpp): what the rubric's forbid list refuses.
    std::vector<LibraryScan> library_scans;
};

class Workspace {
public:
    // dir: this workspace's folder under the grader's work folder.
    Workspace(std::string dir, std::string kit, std::string backend, double timeout_s);
    const std::string& backend() const { return backend_; }
    std::string scratch() const { return dir_ + "/scratch"; }
    const std::string& dir() const { return dir_; }

    // Copies the kit (first use) and configures the build; puts each file in as
    // its lab's scan.cu, with the headers it includes beside it (the last
    // submission's taken away), and builds the labs' runners (on cuda, their
    // modules for scan-bench and scan-run, and scan-run) in one Ninja run, so they compile in
    // parallel. One result per lab, in the order given; a lab that fails gets
    // its own errors.
    std::vector<BuildResult> build(const std::vector<std::pair<const catalog::Lab*, LabFile>>& labs,
                                   const Sandbox& sandbox);
    std::string runner(const catalog::Lab& lab) const;
    // The objects compiled from the lab's scan.cu (its headers with it).
    std::vector<std::string> objects(const catalog::Lab& lab) const;
    std::string module(const catalog::Lab& lab) const;
    // On cuda: the runner as a module (labNN-observe.so), and scan-run, which
    // loads the modules of several labs into one process.
    std::string observer(const catalog::Lab& lab) const;
    std::string scan_run() const { return build_dir() + "/labs/common/scan-run"; }
    // Inside the kit's copy, as the kit's own build/ is: the compile commands
    // then name the same relative paths, and a shared compiler cache filled
    // by the kit's build serves a fresh workspace.
    std::string build_dir() const { return dir_ + "/kit/build"; }

private:
    std::vector<std::string> targets(const catalog::Lab& lab) const;
    void configure(const Sandbox& sandbox);  // throws std::runtime_error: the kit's trouble, not the student's
    std::string dir_, kit_, backend_;
    double timeout_s_;
    bool configured_ = false;
};

// The parts of the kit the reference's build copies (export.hpp): the
// student repository's build parts, reference/ and the emulator's tests.
std::vector<KitPart> reference_kit_parts();
// The files of the build parts among `parts`, as paths relative to the kit:
// what a build copies (and the result cache hashes).
std::vector<std::string> build_files(const std::string& kit, const std::vector<KitPart>& parts);

// Builds `target` (a path in the build folder: labs/lab02-run,
// labs/lab02-scan.so, bench/scan-bench) of the reference's build for `backend`
// in work/reference-kit/build-<backend>, reused when present, and returns its path;
// throws std::runtime_error with the build's errors.
std::string reference_build(const std::string& work, const std::string& kit, const std::string& backend,
                            const std::string& target, double timeout_s);
// The same for several targets of one backend, in one Ninja call: their paths.
std::vector<std::string> reference_build(const std::string& work, const std::string& kit, const std::string& backend,
                                         const std::vector<std::string>& targets, double timeout_s);

// Whether nvcc compiles `file` as lab `lab`'s scan.cu, where no GPU build
// does (a machine with nvcc and no GPU): the judge of a file the emulator's
// g++ rejects, and of the library scans nvcc's build holds (a file may give
// the emulator other code than nvcc: __has_include). Nothing where no nvcc
// is found; else the outcome, with its first errors and library scans.
std::optional<BuildResult> nvcc_check(const std::string& kit, const catalog::Lab& lab, const LabFile& file,
                                      const std::string& scratch, double timeout_s, const Sandbox& sandbox);

// The first compiler and linker errors of a build log (at most 12 lines), the
// paths under `prefix` cut: each message that names a cause (file:line:
// error, undefined reference to, multiple definition of) with the lines
// that continue it; the log's end when none does.
std::string first_errors(const std::string& log, const std::string& prefix);

}  // namespace grader
