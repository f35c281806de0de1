#include "grader/grading/workspace.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "grader/core/files.hpp"
#include "grader/grading/schedule.hpp"
#include "grader/intake/export.hpp"

namespace fs = std::filesystem;

namespace grader {
namespace {

// An unchanged file keeps its time stamp, so ninja rebuilds nothing for it.
// Returns whether it copied.
bool copy_if_changed(const fs::path& from, const fs::path& to) {
    if (fs::exists(to) && read_file(from) == read_file(to)) return false;
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
    return true;
}

// The build parts of `parts` (export.hpp), each to its place in the kit.
void copy_parts(const fs::path& kit, const fs::path& to, const std::vector<KitPart>& parts) {
    for (const std::string& file : build_files(kit.string(), parts)) copy_if_changed(kit / file, to / file);
}

// What a student build needs of the kit: the student repository's build
// parts (export.hpp, the one list), so never reference/ or grader/, nor build
// or work folders that may sit inside it. A lab's scan.cu already there is
// the last submission's, which Workspace::build replaces where it differs:
// the stub put back over it made every first grading of a run rebuild.
void copy_kit(const fs::path& kit, const fs::path& to) {
    for (const std::string& file : build_files(kit.string(), handout_parts()))
        if (!(fs::path(file).filename() == "scan.cu" && fs::path(file).parent_path().parent_path() == "labs" &&
              fs::exists(to / file)))
            copy_if_changed(kit / file, to / file);
}

// Whether a build log's line starts or continues a message that names a
// cause: a compiler's error (ptxas says "fatal"), or the linker's (GNU ld and nvlink name the
// missing or doubled symbol on lines of their own, before the summary
// "collect2: error: ld returned 1 exit status" that alone says nothing).
bool names_a_cause(const std::string& line) {
    for (const char* mark : {"error", "fatal", "undefined reference", "multiple definition", "in function `", "in function '",
                             "/ld: ", "ld: cannot find", "relocation truncated", "Undefined reference"})
        if (line.find(mark) != std::string::npos) return true;
    return false;
}

// "W/kit/" -> "W/kit/build/../": how the debug information names a source.
std::string through_build(const std::string& prefix) { return prefix + "build/../"; }

}  // namespace

// The first compiler and linker errors of a build log, with the workspace's paths cut.
std::string first_errors(const std::string& log, const std::string& prefix) {
    std::istringstream in(log);
    std::string line, out;
    int kept = 0;
    for (bool in_error = false; std::getline(in, line) && kept < 12;) {
        // The linker names sources through the build folder (kit/build/../labs/...),
        // and an object from the shared compiler cache through the build folder
        // of the kit copy that compiled it first (build/ or build-<backend>/).
        static const std::regex cached_build(R"((/[^\s:'"`]+)?/build(-[a-z]+)?/\.\./)");
        for (const std::string& cut : {through_build(prefix), prefix})
            for (std::size_t at; (at = line.find(cut)) != std::string::npos;) line.erase(at, cut.size());
        line = std::regex_replace(line, cached_build, "");
        if (names_a_cause(line)) in_error = true;
        else if (line.rfind("[", 0) == 0 || line.rfind("ninja:", 0) == 0 || line.rfind("FAILED", 0) == 0) in_error = false;
        if (in_error) {
            out += line + "\n";
            ++kept;
        }
    }
    return out.empty() ? log.substr(log.size() > 3000 ? log.size() - 3000 : 0) : out;
}

namespace {

// Puts a lab file in as `folder`/scan.cu, its headers beside it: each one
// that differs from the file there is new to ninja (a file copied in keeps
// no stale time stamp); one the same is left as it is, so that grading the
// same file again rebuilds nothing. Returns whether any differed.
bool copy_lab_file(const LabFile& file, const fs::path& folder) {
    const fs::path from = fs::path(file.path).parent_path();
    std::vector<std::pair<fs::path, fs::path>> copies = {{file.path, folder / "scan.cu"}};
    for (const std::string& h : file.headers) copies.push_back({from / h, folder / h});
    bool changed = false;
    for (const auto& [source, target] : copies)
        if (copy_if_changed(source, target)) {
            changed = true;
            fs::last_write_time(target, fs::file_time_type::clock::now());
        }
    return changed;
}

// The compiler cache the builds share: CCACHE_DIR where the grader was given
// one (CI's, a Slurm batch's folder), else ccache's own default where ccache
// is installed. A work folder's build then takes the kit's unchanged files
// from what the kit's own build (or an earlier work folder) compiled, not
// once per folder. The builds' minimal environment gets the folder, with the
// build folder's path and the locale (the sandbox sets LC_ALL=C; the
// caller's build had its own) left out of the hash, as scan-labs leaves them
// out of the kit's build; the sandbox lets the build write there.
struct CompileCache {
    std::vector<std::string> env, writable;
};
std::string cache_folder() {
    const auto var = [](const char* name) { const char* v = std::getenv(name); return std::string(v ? v : ""); };
    if (!var("CCACHE_DIR").empty()) return var("CCACHE_DIR");
    if (find_in_path("ccache").empty()) return "";
    if (!var("XDG_CACHE_HOME").empty()) return var("XDG_CACHE_HOME") + "/ccache";
    if (var("HOME").empty()) return "";
    return fs::exists(var("HOME") + "/.ccache") ? var("HOME") + "/.ccache" : var("HOME") + "/.cache/ccache";
}
const CompileCache& compile_cache() {
    static const CompileCache cache = [] {
        CompileCache c;
        const std::string dir = cache_folder();
        if (dir.empty()) return c;
        std::error_code ec;
        fs::create_directories(dir, ec);
        const std::string absolute = fs::absolute(dir, ec).string();
        const char* sloppiness = std::getenv("CCACHE_SLOPPINESS");
        c.env = {"CCACHE_DIR=" + absolute, "CCACHE_NOHASHDIR=true",
                 "CCACHE_SLOPPINESS=" + (sloppiness && *sloppiness ? std::string(sloppiness) + "," : "") + "locale"};
        c.writable = {absolute};
        return c;
    }();
    return cache;
}

// A configure or build step: run_contained with the compiler cache added.
Outcome build_step(const std::vector<std::string>& argv, const std::string& cwd, std::vector<std::string> writable,
                   double timeout_s, const Sandbox& sandbox) {
    const CompileCache& cache = compile_cache();
    writable.insert(writable.end(), cache.writable.begin(), cache.writable.end());  // the sandbox lets it write there
    return run_contained(argv, cwd, writable, Limits{timeout_s}, sandbox, {}, cache.env);
}

// A kit build (ninja) of `backend`: with a compiler cache, the others of
// that backend wait for the first one to end (at most kFirstBuildWaitS, so
// a submission that keeps the compiler busy cannot hold them). It fills the
// cache, and they (every slot's, the reference's) then take the kit's files
// from it instead of all compiling them at once: a batch's cold start was
// ten builds at once, 863 CPU-s on one H100 host
// (bench/results/2026-11-28-grading-cpu.md). Without a cache, waiting would
// gain nothing.
constexpr auto kFirstBuildWaitS = std::chrono::seconds(90);
Outcome kit_build_step(const std::string& backend, const std::vector<std::string>& argv, const std::string& cwd,
                       std::vector<std::string> writable, double timeout_s, const Sandbox& sandbox) {
    if (compile_cache().env.empty()) return build_step(argv, cwd, std::move(writable), timeout_s, sandbox);
    static std::mutex mutex;
    static std::condition_variable ended;
    static std::map<std::string, bool> first_ended;  // per backend, once its first build has started
    bool first = false;
    {
        std::unique_lock<std::mutex> lock(mutex);
        first = first_ended.emplace(backend, false).second;
        if (!first) ended.wait_for(lock, kFirstBuildWaitS, [&] { return first_ended[backend]; });
    }
    // Ended however it ends (an exception too), or the others would each wait the whole time.
    struct End {
        const std::string& backend;
        bool first;
        ~End() {
            if (!first) return;
            {
                std::lock_guard<std::mutex> lock(mutex);
                first_ended[backend] = true;
            }
            ended.notify_all();
        }
    } end{backend, first};
    return build_step(argv, cwd, std::move(writable), timeout_s, sandbox);
}

std::vector<std::string> setup_args(const std::string& build, const std::string& source, const std::string& backend,
                                    const std::string& solution) {
    return {"meson", "setup", build, source, "-Dsolution=" + solution, "-Dscan_backend=" + backend,
            "-Dgpu_arch=" + std::string(backend == "cuda" ? "native" : "portable")};
}

}  // namespace

Workspace::Workspace(std::string dir, std::string kit, std::string backend, double timeout_s)
    : dir_(std::move(dir)), kit_(std::move(kit)), backend_(std::move(backend)), timeout_s_(timeout_s) {}

std::string Workspace::runner(const catalog::Lab& lab) const { return build_dir() + "/labs/" + lab.suite + "-run"; }
std::string Workspace::module(const catalog::Lab& lab) const { return build_dir() + "/labs/" + lab.suite + "-scan.so"; }
std::vector<std::string> Workspace::objects(const catalog::Lab& lab) const {
    // Meson's folder of the lab's library (labs/meson.build; this build is
    // configured with the stubs): its scan.cu's object, whatever Meson names it.
    const fs::path folder = build_dir() + "/labs/lib" + lab.suite + "-stub-" + backend_ + ".a.p";
    std::vector<std::string> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.path().extension() == ".o") out.push_back(entry.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string Workspace::observer(const catalog::Lab& lab) const {
    return build_dir() + "/labs/" + lab.suite + "-observe.so";
}

void Workspace::configure(const Sandbox& sandbox) {
    // A workspace left by an earlier run is brought up to date, not rebuilt.
    fs::create_directories(scratch());
    copy_kit(kit_, dir_ + "/kit");
    if (fs::exists(build_dir() + "/build.ninja")) {
        configured_ = true;
        return;
    }
    fs::remove_all(build_dir());
    fs::remove_all(dir_ + "/build");  // where an older grader built
    // Nothing of the student's is in the build yet: a failure here is the kit's or the machine's.
    const Outcome o = build_step(setup_args(build_dir(), dir_ + "/kit", backend_, "stub"), dir_, {dir_}, timeout_s_, sandbox);
    if (!o.ok())
        throw std::runtime_error("the kit does not configure for " + backend_ + " (meson setup " + o.describe() + "):\n" +
                                 first_errors(o.output, dir_ + "/kit/"));
    configured_ = true;
}

std::vector<std::string> Workspace::targets(const catalog::Lab& lab) const {
    // The GPU runs every lab in scan-run; scan-bench loads the module.
    if (backend_ == "cuda") return {"labs/" + lab.suite + "-scan.so", "labs/" + lab.suite + "-observe.so", "labs/common/scan-run"};
    return {"labs/" + lab.suite + "-run"};
}

std::vector<BuildResult> Workspace::build(const std::vector<std::pair<const catalog::Lab*, LabFile>>& labs,
                                          const Sandbox& sandbox) {
    if (!configured_) configure(sandbox);
    std::vector<std::string> command = {"ninja", "-C", build_dir(), "-k", "0"};
    for (const auto& [lab, file] : labs) {
        const fs::path folder = dir_ + "/kit/labs/" + lab->id;
        // What an earlier submission put beside its scan.cu (its headers) goes, whichever run left it.
        std::vector<fs::path> left;
        for (const auto& entry : fs::directory_iterator(folder)) {
            const fs::path name = entry.path().filename();
            const bool theirs = std::any_of(file.headers.begin(), file.headers.end(),
                                            [&](const std::string& h) { return *fs::path(h).begin() == name; });
            if (name != "scan.cu" && !theirs && !fs::exists(fs::path(kit_) / "labs" / lab->id / name)) left.push_back(entry.path());
        }
        for (const fs::path& path : left) fs::remove_all(path);
        // A failed build must not leave the last submission's runner or module.
        if (copy_lab_file(file, folder)) {
            for (const std::string& built : {runner(*lab), module(*lab), observer(*lab)}) fs::remove(built);
        }
        for (const auto& t : targets(*lab)) command.push_back(t);
    }
    const Outcome o = kit_build_step(backend_, command, dir_, {dir_}, timeout_s_, sandbox);
    std::vector<BuildResult> results;
    for (const auto& [lab, file] : labs) {
        bool built = true;
        for (const auto& t : targets(*lab)) built = built && fs::exists(build_dir() + "/" + t);
        BuildResult r{built, "", o.seconds, {}};
        if (r.ok) r.library_scans = library_scans(objects(*lab));
        else if (o.timed_out) r.errors = "the build " + o.describe() + "\n";
        else {
            // The log mixes every lab's compiler output: this lab's own errors come from building it alone.
            std::vector<std::string> alone = {"ninja", "-C", build_dir()};
            for (const auto& t : targets(*lab)) alone.push_back(t);
            const Outcome mine = labs.size() > 1 ? build_step(alone, dir_, {dir_}, timeout_s_, sandbox) : o;
            r.errors = first_errors(mine.output, dir_ + "/kit/");
        }
        results.push_back(r);
    }
    return results;
}

std::optional<BuildResult> nvcc_check(const std::string& kit, const catalog::Lab& lab, const LabFile& file,
                                      const std::string& scratch, double timeout_s, const Sandbox& sandbox) {
    std::string nvcc = find_in_path("nvcc");
    if (nvcc.empty()) nvcc = "/usr/local/cuda/bin/nvcc";
    if (!fs::exists(nvcc)) return std::nullopt;
    // Emptied first: an earlier submission's header must not stand in for one this file lacks.
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    // The file as it would sit in the kit: its own folder first on the include path.
    const std::string copy = scratch + "/scan.cu";
    copy_lab_file(file, scratch);
    // -lineinfo: the device code keeps the names of the functions inlined
    // into its kernels (CUB's BlockScan inside the student's own kernel).
    std::vector<std::string> argv = {nvcc, "-std=c++17", "-arch=sm_90", "-lineinfo", "-Wno-deprecated-gpu-targets", "-I",
                                     kit + "/labs/" + lab.id, "-c", copy, "-o", scratch + "/scan.o"};
    // Through the builds' compiler cache where there is one: a file graded
    // again (a batch resumed, CI's corpus) costs no second compile.
    const CompileCache& cache = compile_cache();
    std::vector<std::string> writable = {scratch};
    if (const std::string ccache = find_in_path("ccache"); !ccache.empty() && !cache.env.empty()) {
        argv.insert(argv.begin(), ccache);
        writable.insert(writable.end(), cache.writable.begin(), cache.writable.end());
    }
    const Outcome o = run_contained(argv, scratch, writable, Limits{timeout_s}, sandbox, {kit + "/labs/" + lab.id}, cache.env);
    BuildResult r{o.ok(), "", o.seconds, {}};
    if (r.ok) r.library_scans = library_scans({scratch + "/scan.o"});
    else r.errors = o.timed_out ? "nvcc " + o.describe() + "\n" : first_errors(o.output, scratch + "/");
    fs::remove(scratch + "/scan.o");
    return r;
}

std::vector<std::string> build_files(const std::string& kit, const std::vector<KitPart>& parts) {
    std::vector<std::string> files;
    for (const KitPart& part : parts) {
        if (!part.build) continue;
        if (!part.folder) files.push_back(part.from);
        else
            for (const std::string& rel : part_files(kit, part)) files.push_back(part.from + "/" + rel);
    }
    return files;
}

std::vector<KitPart> reference_kit_parts() {
    std::vector<KitPart> parts = handout_parts();
    for (const char* folder : {"reference", "simt/tests"}) parts.push_back({folder, folder, true, true});
    return parts;
}

std::vector<std::string> reference_build(const std::string& work, const std::string& kit, const std::string& backend,
                                         const std::vector<std::string>& targets, double timeout_s) {
    // The reference builds from a copy of the kit's build parts, reference/
    // and the emulator's tests (the reference's suites use them) in the work
    // folder, brought up to date once per run, as a workspace does: built in
    // a folder inside that copy, its compile commands name the same relative
    // paths as the kit's own build, so a shared compiler cache serves it.
    const fs::path source = fs::path(work) / "reference-kit";
    {
        static std::mutex mutex;
        static std::set<std::string> copied;
        std::lock_guard<std::mutex> lock(mutex);
        if (copied.insert(work).second) copy_parts(kit, source, reference_kit_parts());
    }
    const std::string build = (source / ("build-" + backend)).string();
    // Batch workers share one build folder per backend; the two backends build at once.
    std::lock_guard<std::mutex> lock(mutex_for(build));
    const Sandbox none;
    if (!fs::exists(build + "/build.ninja")) {
        const Outcome o = build_step(setup_args(build, source.string(), backend, "reference"), work, {}, timeout_s, none);
        if (!o.ok()) throw std::runtime_error("the reference does not configure: " + o.output.substr(0, 3000));
    }
    // Once up to date, a target stays so for the run (its sources were copied
    // once): a second Ninja call would only stat the tree, and timing makes
    // these calls with the GPU held alone. The targets left build in one call.
    // (The set is shared by both backends' folders, each under its own lock: it has one of its own.)
    static std::mutex built_mutex;
    static std::set<std::string> built;
    std::vector<std::string> paths, command = {"ninja", "-C", build};
    {
        std::lock_guard<std::mutex> guard(built_mutex);
        for (const std::string& target : targets) {
            paths.push_back(build + "/" + target);
            if (!built.count(paths.back())) command.push_back(target);
        }
    }
    if (command.size() > 3) {
        const Outcome o = kit_build_step(backend, command, work, {}, timeout_s, none);
        if (!o.ok()) throw std::runtime_error("the reference's build does not succeed: " + first_errors(o.output, source.string() + "/"));
        std::lock_guard<std::mutex> guard(built_mutex);
        built.insert(paths.begin(), paths.end());
    }
    return paths;
}

std::string reference_build(const std::string& work, const std::string& kit, const std::string& backend,
                            const std::string& target, double timeout_s) {
    return reference_build(work, kit, backend, std::vector<std::string>{target}, timeout_s).front();
}

}  // namespace grader
