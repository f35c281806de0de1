#include "grader/grading/process_executor.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "counters.hpp"
#include "gpu_lock.hpp"
#include "grader/core/files.hpp"
#include "grader/core/sanitizer.hpp"
#include "grader/outputs/outputs.hpp"
#include "result_channel.hpp"

namespace fs = std::filesystem;

namespace grader {

namespace {

// The reference's build targets: its emulator runner (divergence), its
// module and scan-bench (timing), as prepare_reference makes them ahead.
const char* const kBench = "bench/scan-bench";
std::string reference_target(const catalog::Lab& lab, const std::string& backend) {
    return "labs/" + lab.suite + (backend == "cuda" ? "-scan.so" : "-run");
}

void write_input(const std::string& path, const std::vector<float>& values) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(values.data()), static_cast<std::streamsize>(values.size() * sizeof(float)));
    if (!out.flush()) throw std::runtime_error("cannot write " + path);
}

// Why a runner's process left no observation, for the feedback.
std::string run_problem(const Outcome& o) {
    if (o.exit_code == 77) return "no usable GPU: " + o.output;
    return "the test program " + o.describe() +
           (o.timed_out ? " (a kernel that never finishes: is a __syncthreads() or a loop bound wrong?)" : "") +
           (o.output.empty() ? "" : "; its output:\n" + first_lines(o.output, 20));
}

using harness::channel::Kind;
using Step = std::pair<Kind, std::uint64_t>;  // a frame of the result channel: its kind and index

// The observation of `input` that a frame holds.
Run decode_run(std::string_view payload, std::size_t n) {
    Run r;
    try {
        r.seen = harness::decode_observation(payload);
        if (r.seen.n != n) throw std::runtime_error("the result is for another input");
        r.ok = true;
    } catch (const std::exception& e) {
        r.problem = std::string("the test program exited without a valid result (") + e.what() + ")";
    }
    return r;
}

// What a process sent through its result channel, checked against the steps
// it was asked for (each at most once): where code of the submission wrote
// there, `forged` says so and no frame counts.
struct Received {
    std::map<Step, std::string_view> frames;
    std::string forged;
    Received(const std::string& bytes, const std::vector<Step>& asked) {
        const harness::channel::Parsed got = harness::channel::parse(bytes);
        forged = harness::channel::check_frames(got, asked);
        if (forged.empty())
            for (const auto& f : got.frames) frames[{f.kind, f.index}] = f.payload;
    }
    const std::string_view* find(Step step) const {
        const auto it = frames.find(step);
        return it == frames.end() ? nullptr : &it->second;
    }
};

// How far a plan's process got: step k has ended once its frame came.
struct PlanProgress {
    std::vector<Step> steps;
    std::string results;  // the result channel's bytes so far (run_contained appends)
    std::size_t done = 0;
    double last = 0;  // seconds from the start to the end of the last step ended
    Clock::time_point start = Clock::now();
};

// Limits for a process running a plan: step k may take allowance(k) from the
// end of the step before (the first from the start), the whole their sum.
Limits plan_limits(const std::shared_ptr<PlanProgress>& progress, const std::function<double(std::size_t)>& allowance) {
    double total = 0;
    for (std::size_t k = 0; k < progress->steps.size(); ++k) total += allowance(k);
    Limits limits{total};
    limits.step_deadline = [progress, allowance, total] {
        PlanProgress& p = *progress;
        if (p.done < p.steps.size()) {
            std::set<Step> came;
            for (const auto& f : harness::channel::parse(p.results).frames) came.insert({f.kind, f.index});
            while (p.done < p.steps.size() && came.count(p.steps[p.done])) {
                ++p.done;
                p.last = since(p.start);
            }
        }
        return p.done < p.steps.size() ? p.last + allowance(p.done) : total;
    };
    return limits;
}

// A run's folder, new, and removed with everything in it: `dir` holds what
// the grader gives the run (its input, its plan), read only in the sandbox;
// `scratch`, inside it, is the run's working folder, a tmpfs of its own in
// the sandbox (Limits::only_given). Nothing one run leaves reaches another.
struct RunFolder {
    std::string dir, scratch;
    explicit RunFolder(std::string path) : dir(std::move(path)), scratch(dir + "/scratch") {
        fs::remove_all(dir);
        fs::create_directories(scratch);
    }
    ~RunFolder() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    RunFolder(const RunFolder&) = delete;
    RunFolder& operator=(const RunFolder&) = delete;
};

// Every plan's steps: an observation per call, in order.
std::vector<Step> observations(std::size_t calls) {
    std::vector<Step> steps;
    for (std::size_t k = 0; k < calls; ++k) steps.push_back({Kind::observation, k});
    return steps;
}

}  // namespace

ProcessExecutor::ProcessExecutor(const Context& ctx, unsigned index, std::string gpu_id)
    : ctx_(ctx), gpu_id_(std::move(gpu_id)) {
    for (const auto& backend : ctx.backends)
        workspaces_.push_back(std::make_unique<Workspace>(ctx.work + "/slot" + std::to_string(index) + "-" + backend,
                                                          ctx.kit, backend, ctx.rubric.build_timeout_s));
    // Named by dataset, so a stale one from another grader run must go.
    inputs_ = ctx.work + "/slot" + std::to_string(index) + "-inputs";
    fs::remove_all(inputs_);
}

Workspace* ProcessExecutor::workspace(const std::string& backend) const {
    const int b = backend_index(ctx_, backend);
    if (b < 0) throw std::logic_error("no " + backend + " workspace in this slot");
    return workspaces_[static_cast<std::size_t>(b)].get();
}

std::vector<std::string> ProcessExecutor::env() const {
    if (gpu_id_.empty()) return {};
    return {"CUDA_VISIBLE_DEVICES=" + gpu_id_};
}

std::string ProcessExecutor::name(const char* prefix) { return prefix + std::to_string(runs_++); }

// The file holding `call`'s input, written by the first plan that needs it:
// a submission's plans, the processes that follow a broken device and the
// slot's later submissions all read the same files (lab 04's and lab 05's
// largest inputs are 24 and 12 MB). Named by a counter, never by the
// dataset's seed: a hidden dataset's seed is the dataset. The
// compute-sanitizer tools' plans run at once, hence the lock; a file appears
// whole, by rename.
std::string ProcessExecutor::input_file(const LabCall& call) const {
    const std::string key = std::string(datasets::distribution_name(call.spec.dist)) + "-" + std::to_string(call.spec.n) + "-" +
                            std::to_string(call.spec.seed);
    std::string path;
    {  // the name only: the files are written under their own locks, several at once
        std::lock_guard<std::mutex> lock(inputs_mutex_);
        auto [it, added] = input_names_.insert({key, ""});
        if (added) it->second = inputs_ + "/input-" + std::to_string(input_names_.size()) + ".in";
        path = it->second;
    }
    std::lock_guard<std::mutex> lock(mutex_for(path));
    if (!fs::exists(path)) {
        fs::create_directories(inputs_);
        write_input(path + ".part", *call.input);
        fs::rename(path + ".part", path);
    }
    return path;
}

// scan-run's plan of `calls` in `dir`.
void ProcessExecutor::write_plan(const Workspace& ws, const std::string& dir, const std::vector<LabCall>& calls) const {
    std::string plan;
    for (const LabCall& call : calls) plan += ws.observer(*call.lab) + "\t" + call.function + "\t" + input_file(call) + "\n";
    std::ofstream(dir + "/plan.txt") << plan;
}

std::vector<BuildResult> ProcessExecutor::build(std::size_t backend,
                                                const std::vector<std::pair<const catalog::Lab*, LabFile>>& labs) {
    return workspaces_[backend]->build(labs, ctx_.sandbox);
}

std::optional<BuildResult> ProcessExecutor::nvcc_check(const catalog::Lab& lab, const LabFile& file) {
    return grader::nvcc_check(ctx_.kit, lab, file, workspace("emu")->scratch() + "/nvcc-check",
                              ctx_.rubric.build_timeout_s, ctx_.sandbox);
}

// Runs the emulator's `runner` on `input` in a folder of its own under
// `scratch`, named after `name` (RunFolder): nothing one run leaves reaches
// another (a later dataset, the reversed run).
Run ProcessExecutor::run_runner(const std::string& scratch, const std::string& name, const std::string& runner,
                                const std::string& function, const std::vector<float>& input, double timeout_s,
                                bool contained, std::vector<std::string> extra) {
    // The emulator's runs keep only a core busy: where a GPU is graded too they
    // yield the CPU to the processes that feed it (compute-sanitizer, timing).
    Limits limits{timeout_s};
    limits.only_given = true;
    if (!gpu_id_.empty()) limits.nice = 10;
    const std::string build = fs::path(runner).parent_path().parent_path().string();
    const RunFolder folder(scratch + "/" + name);
    const std::string in = folder.dir + "/input";
    write_input(in, input);
    std::vector<std::string> program = {runner, "--function", function, "--input", in, "--result-fd", std::to_string(kResultFd)};
    program.insert(program.end(), extra.begin(), extra.end());
    // The runner's build folder (build/labs/labNN-run) stays readable under the hidden work folder.
    std::string results;
    const Outcome o = run_contained(program, folder.scratch, {folder.scratch}, limits, contained ? ctx_.sandbox : Sandbox{},
                                    {build, folder.dir}, env(), &results);
    const Received got(results, {{Kind::observation, 0}});
    Run r;
    if (!got.forged.empty()) {
        r.problem = got.forged;
    } else if (!o.ok()) {
        r.timed_out = o.timed_out;
        r.problem = run_problem(o);
    } else if (const std::string_view* frame = got.find({Kind::observation, 0})) {
        r = decode_run(*frame, input.size());
    } else {
        r.problem = "the test program exited without a valid result (it sent none)";
    }
    r.output = o.output;
    return r;
}

// The reversed run is a process of its own: a submission that remembers its
// first answer (in memory, a file, the environment) has nothing of it there.
Run ProcessExecutor::emulate(const catalog::Lab& lab, const std::string& function, const std::vector<float>& input,
                             double timeout_s, Trace trace) {
    const Workspace& emu = *workspace("emu");
    const std::string scratch = emu.scratch() + "/" + (trace == Trace::divergence ? "divergence" : lab.suite);
    fs::create_directories(scratch);
    if (trace == Trace::divergence)
        return run_runner(scratch, name("d"), emu.runner(lab), function, input, timeout_s, true, {"--divergence"});
    const double each = trace == Trace::reversed_too ? timeout_s / 2 : timeout_s;
    Run r = run_runner(scratch, name("u"), emu.runner(lab), function, input, each, true);
    if (trace == Trace::reversed_too && r.ok && !r.seen.sticky && r.seen.blocks > r.seen.launches) {
        Run second = run_runner(scratch, name("u"), emu.runner(lab), function, input, each, true, {"--block-order", "reverse"});
        if (!second.ok) r = std::move(second);
        else r.reversed = std::make_shared<harness::Observation>(std::move(second.seen));
    }
    return r;
}

// Kept in the work folder: the reference does not change between
// submissions; a rebuilt reference runner makes it stale.
Run ProcessExecutor::reference_divergence(const catalog::Lab& lab, const catalog::Function& fn,
                                          const datasets::Spec& spec, const std::vector<float>& input) {
    const std::string runner =
        reference_build(ctx_.work, ctx_.kit, "emu", reference_target(lab, "emu"), ctx_.rubric.build_timeout_s);
    const std::string dir = ctx_.work + "/reference-divergence";
    const std::string stem = lab.suite + "-" + fn.name + "-" + std::to_string(spec.n) + "-" + std::to_string(spec.seed);
    const std::string cached = dir + "/" + stem + ".obs";
    // Batch workers share the cache: one run per entry, the entries at once.
    std::lock_guard<std::mutex> lock(mutex_for(cached));
    std::error_code ec;
    if (fs::exists(cached) && fs::last_write_time(cached, ec) >= fs::last_write_time(runner, ec)) {
        try {
            Run r;
            r.seen = harness::read_observation(cached);
            r.ok = r.seen.n == input.size();
            if (r.ok) return r;
        } catch (const std::exception&) {  // run again below
        }
    }
    fs::create_directories(dir);
    Run r = run_runner(dir, "run-" + stem, runner, fn.name, input, run_timeout(ctx_, "emu", spec.n), false, {"--divergence"});
    if (r.ok) harness::write_observation(cached, r.seen);
    return r;
}

// Every lab's datasets in one scan-run process: the CUDA context is made
// once a submission, not once a lab or a dataset.
PlanRun ProcessExecutor::gpu_plan(const std::vector<LabCall>& calls) {
    const Workspace& ws = *workspace("cuda");
    const RunFolder folder(ws.scratch() + "/" + name("datasets-"));
    const Rubric& rubric = ctx_.rubric;
    auto progress = std::make_shared<PlanProgress>();
    write_plan(ws, folder.dir, calls);
    progress->steps = observations(calls.size());
    Limits limits = plan_limits(progress, [&](std::size_t k) {
        const double per_million = rubric.gpu_per_million_s * static_cast<double>(calls[k].input->size()) / 1e6;
        return (k == 0 ? rubric.run_base_s : rubric.gpu_step_s) + per_million;
    });
    limits.only_given = true;
    const Outcome o =
        run_contained({ws.scan_run(), "--plan", folder.dir + "/plan.txt", "--result-fd", std::to_string(kResultFd)}, folder.scratch,
                      {folder.scratch}, limits, ctx_.sandbox, {ws.build_dir(), inputs_, folder.dir}, env(), &progress->results);
    const Received got(progress->results, progress->steps);
    PlanRun out;
    for (std::size_t k = 0; k < calls.size(); ++k) {
        const std::string_view* frame = got.find({Kind::observation, k});
        if (!frame) break;
        out.done.push_back(decode_run(*frame, calls[k].input->size()));
    }
    if (out.done.size() < calls.size()) {
        out.restart = o.exit_code == 3 && !out.done.empty();
        out.cannot_run = o.exit_code == 77 || !o.started;
        out.failed.timed_out = o.timed_out;
        out.failed.problem = got.forged.empty() ? run_problem(o) : got.forged;
    }
    return out;
}

// A tool's reports shown of each run, as `--print-limit 8` showed them when
// each function ran in a process of its own.
constexpr std::size_t kReportsShown = 8;
constexpr int kToolFound = 99;  // --error-exitcode: the tool reported something

// Every call in one scan-run process under the tool, so the tool and the CUDA
// context start once, not once per function (a process each took about 0.2 s
// of the driver's serialised start, and the tool's own, per function): each
// call's reports are the lines between its marks; each call starts with
// nothing allocated, as in a process of its own (--reset-after-leak), and its
// leaks are reported there; it is allowed the tool's whole timeout from the
// end of the one before.
PlanRun ProcessExecutor::sanitize(const std::string& tool, const std::vector<LabCall>& calls) {
    const Workspace& cuda = *workspace("cuda");
    const RunFolder folder(cuda.scratch() + "/" + name(("sanitizer-" + tool + "-").c_str()));
    auto progress = std::make_shared<PlanProgress>();
    write_plan(cuda, folder.dir, calls);
    progress->steps = observations(calls.size());
    const std::size_t limit = kReportsShown * calls.size();
    std::vector<std::string> program = {"compute-sanitizer", "--tool", tool, "--error-exitcode", std::to_string(kToolFound),
                                        "--print-limit", std::to_string(limit)};
    if (tool == "memcheck") program.insert(program.end(), {"--leak-check", "full"});
    program.insert(program.end(), {cuda.scan_run(), "--plan", folder.dir + "/plan.txt", "--result-fd", std::to_string(kResultFd),
                                   "--marks", "--reset-after-leak"});
    Limits limits = plan_limits(progress, [&](std::size_t) { return ctx_.rubric.sanitizer_timeout_s; });
    limits.output_bytes *= calls.size();
    limits.only_given = true;
    const Outcome o = run_contained(program, folder.scratch, {folder.scratch}, limits, ctx_.sandbox,
                                    {cuda.build_dir(), inputs_, folder.dir}, env(), &progress->results);
    const Received got(progress->results, progress->steps);
    const SanitizerRuns split = split_sanitizer_runs(o.output, limit, kReportsShown);
    // What a process of its own ending as this one did would have said.
    const auto alone = [&](std::size_t k, Outcome ending) {
        if (k < split.outputs.size()) ending.output = split.outputs[k];
        return ending;
    };
    PlanRun out;
    bool sticky = false;
    for (std::size_t k = 0; k < calls.size() && k < split.complete && !sticky && got.find({Kind::observation, k}); ++k) {
        Run seen = decode_run(*got.find({Kind::observation, k}), calls[k].input->size());
        sticky = seen.ok && seen.seen.sticky;
        Run r;
        if (split.reports[k] > 0) {
            Outcome found = alone(k, o);
            found.timed_out = false;
            found.signal = 0;
            found.exit_code = kToolFound;
            r.problem = run_problem(found);
        } else {
            r = std::move(seen);
        }
        r.output = split.outputs[k];
        out.done.push_back(std::move(r));
    }
    const std::size_t k = out.done.size();
    if (k < calls.size()) {
        // A new process for the rest only past a run that ended: one that
        // did not start, or stopped before its first run, fails that run.
        if (k > 0 && (sticky || k >= split.complete)) {
            out.restart = true;
        } else {
            const Outcome ending = alone(k, o);
            out.cannot_run = o.exit_code == 77 || !o.started;
            out.failed.timed_out = o.timed_out;
            out.failed.problem = got.forged.empty() ? run_problem(ending) : got.forged;
            out.failed.output = ending.output;
        }
    }
    return out;
}

// Nsight Compute over scan-bench --once, for each build in turn: one call of
// the function on the input, its kernels' instruction counters read. The
// GPU is held alone, so no other process's kernels reach the counters.
GpuDivergence ProcessExecutor::gpu_divergence(const catalog::Lab& lab, const catalog::Function& fn,
                                              const datasets::Spec& spec, const std::string& gpu_lock) {
    const Workspace& cuda = *workspace("cuda");
    const Rubric& rubric = ctx_.rubric;
    GpuDivergence out;
    try {
        const std::string bench = reference_build(ctx_.work, ctx_.kit, "cuda", kBench, rubric.build_timeout_s);
        const std::string reference =
            reference_build(ctx_.work, ctx_.kit, "cuda", reference_target(lab, "cuda"), rubric.build_timeout_s);
        gpu_lock::Hold alone;
        if (!gpu_lock.empty()) alone = gpu_lock::Hold(gpu_lock, gpu_lock::Mode::exclusive);
        const auto measure = [&](const std::string& module, const char* whose) {
            const RunFolder folder(cuda.scratch() + "/" + name("counters-"));
            Limits limits;
            limits.timeout_s = run_timeout(ctx_, "cuda", spec.n) + 120;  // ncu's start and replays
            limits.output_bytes = 1 << 20;
            limits.only_given = true;
            // Instruction counts need neither a flushed cache nor locked clocks,
            // which cost ncu time a kernel while the GPU is held alone.
            const Outcome o = run_contained(
                {"ncu", "--csv", "--cache-control", "none", "--clock-control", "none", "--metrics", bench::kLaneMetrics,
                 bench, "--lab", lab.id, "--function", fn.name, "--module", module, "--once", std::to_string(spec.n),
                 "--seed", std::to_string(spec.seed)},
                folder.scratch, {folder.scratch},
                limits, ctx_.sandbox, {cuda.build_dir(), fs::path(bench).parent_path().parent_path().string()}, env());
            const bench::Profile p = bench::parse_ncu(o.output);
            if (!p.problem.empty() || bench::lane_share(p) < 0)
                throw std::runtime_error(std::string("Nsight Compute measured no kernel of ") + whose + " build (" +
                                         (p.problem.empty() ? run_problem(o) : p.problem) + ")");
            return bench::lanes_of(p);
        };
        const bench::Lanes mine = measure(cuda.module(lab), "the submission's");
        // The reference's counters on this input are the same for every
        // submission: measured once a grading process and GPU, as Nsight
        // Compute holds the GPU alone for seconds a run.
        static std::mutex known_mutex;
        static std::map<std::string, bench::Lanes> known;
        const std::string key = reference + "\n" + fn.name + "\n" + datasets::describe(spec) + "\n" + gpu_lock;
        std::optional<bench::Lanes> cached;
        {
            std::lock_guard<std::mutex> lock(known_mutex);
            if (const auto it = known.find(key); it != known.end()) cached = it->second;
        }
        const bench::Lanes theirs = cached ? *cached : measure(reference, "the reference's");
        if (!cached) {
            std::lock_guard<std::mutex> lock(known_mutex);
            known.emplace(key, theirs);
        }
        out.mine = bench::share_at_work(mine, theirs);
        out.reference = theirs.thread / (32 * theirs.warp);
        out.idle_mine = mine.idle();
        out.idle_reference = theirs.idle();
    } catch (const std::exception& e) {
        out.problem = e.what();
    }
    return out;
}

namespace {

// scan-bench holding the GPU through `gpu_lock`'s files (none where it is
// empty), which its sandbox must then let it read.
void hold_gpu_through(const std::string& gpu_lock, std::vector<std::string>& command, std::vector<std::string>& readable) {
    if (gpu_lock.empty()) return;
    command.insert(command.end(), {"--gpu-lock", gpu_lock});
    readable.push_back(fs::path(gpu_lock).parent_path().string());
}

}  // namespace

constexpr double kGpuWaitS = 3600;  // the wait for the GPU alone: bounded by the other holders' own limits

// scan-bench --device-only in the sandbox: its frames are `held` once it has
// the GPU alone (the wait is bounded by the other holders' own limits), then
// the check's JSON.
DeviceOnlyCheck ProcessExecutor::device_only(const catalog::Lab& lab, const catalog::Function& fn,
                                             const datasets::Spec& spec, const std::string& gpu_lock) {
    const Workspace& cuda = *workspace("cuda");
    DeviceOnlyCheck out;
    try {
        const std::string bench = reference_build(ctx_.work, ctx_.kit, "cuda", kBench, ctx_.rubric.build_timeout_s);
        auto progress = std::make_shared<PlanProgress>();
        progress->steps = {{Kind::held, 0}, {Kind::device_only, 0}};
        const double running = run_timeout(ctx_, "cuda", spec.n) + 60;  // two contexts, 2 x 4n bytes made and freed
        const RunFolder folder(cuda.scratch() + "/" + name("device-only-"));
        Limits limits = plan_limits(progress, [&](std::size_t k) { return k == 0 ? kGpuWaitS : running; });
        limits.only_given = true;
        std::vector<std::string> command = {bench, "--device-only", std::to_string(spec.n), "--lab", lab.id, "--function",
                                            fn.name, "--module", cuda.module(lab), "--seed", std::to_string(spec.seed),
                                            "--result-fd", std::to_string(kResultFd)};
        std::vector<std::string> readable = {cuda.build_dir(), fs::path(bench).parent_path().parent_path().string()};
        hold_gpu_through(gpu_lock, command, readable);
        const Outcome o =
            run_contained(command, folder.scratch, {folder.scratch}, limits, ctx_.sandbox, readable, env(), &progress->results);
        const Received got(progress->results, progress->steps);
        const std::string_view* frame = got.find({Kind::device_only, 0});
        if (!got.forged.empty()) throw std::runtime_error(got.forged);
        if (!frame) {
            out.timed_out = o.timed_out;
            throw std::runtime_error("the device-only run " + (o.ok() ? std::string("sent no result") : o.describe()) +
                                     (o.output.empty() ? "" : "; its output:\n" + first_lines(o.output, 12)));
        }
        const nlohmann::json j = nlohmann::json::parse(*frame);
        if (j.contains("skipped")) out.skipped = j.at("skipped").get<std::string>();
        else if (j.contains("problem")) out.problem = j.at("problem").get<std::string>();
        else {
            out.wrong = j.at("wrong").get<std::uint64_t>();
            out.first = j.at("first").get<std::uint64_t>();
            out.input_changed = j.at("input_changed").get<std::uint64_t>();
        }
    } catch (const std::exception& e) {
        out.problem = e.what();
    }
    return out;
}

// Each backend's targets in one Ninja call (its labs build in parallel), the
// backends at once: a first grading's divergence and timing wait for them.
void ProcessExecutor::prepare_reference(const std::vector<const catalog::Lab*>& labs) {
    std::vector<std::thread> backends;
    for (const auto& backend : ctx_.backends)
        backends.emplace_back([this, &labs, backend] {
            std::vector<std::string> targets;
            for (const catalog::Lab* lab : labs) targets.push_back(reference_target(*lab, backend));
            if (backend == "cuda") targets.push_back(kBench);
            if (stopping()) return;
            try {
                reference_build(ctx_.work, ctx_.kit, backend, targets, ctx_.rubric.build_timeout_s);
            } catch (const std::exception&) {  // the phase that needs the build reports it
            }
        });
    for (auto& t : backends) t.join();
}

// scan-bench from the reference's build loads both builds' modules and
// alternates them (bench/README.md), with CUB's scan and a copy in the same
// rounds for the HTML report's chart: every function in one process (--plan;
// a process each took 0.4 s more a function). It holds the GPU shared while
// it starts and writes the outputs, alone only while it times. A function
// whose run fails or hangs gets that failure, and the functions it left
// untimed a new process.
std::vector<TimingRun> ProcessExecutor::time(const std::vector<std::pair<const catalog::Lab*, const catalog::Function*>>& fns,
                                             const datasets::Spec& spec, const std::string& gpu_lock) {
    const Rubric& rubric = ctx_.rubric;
    const Workspace& cuda = *workspace("cuda");
    const std::string bench = reference_build(ctx_.work, ctx_.kit, "cuda", kBench, rubric.build_timeout_s);
    // Each step gets its own allowance, counted from the end of the one
    // before: a function's outputs, the wait for the GPU alone (other slots'
    // runs and timings end first, each within its own limits), its timing.
    const double observing = run_timeout(ctx_, "cuda", spec.n) + 30;
    const double timing = 2 * rubric.timing_max_seconds + run_timeout(ctx_, "cuda", spec.n) + 30;
    std::vector<TimingRun> out(fns.size());
    std::vector<std::size_t> pending(fns.size());
    for (std::size_t k = 0; k < fns.size(); ++k) pending[k] = k;
    while (!pending.empty() && !stopping()) {
        std::string plan;
        auto progress = std::make_shared<PlanProgress>();
        for (std::size_t k : pending) {
            const catalog::Lab& lab = *fns[k].first;
            const std::string reference =
                reference_build(ctx_.work, ctx_.kit, "cuda", reference_target(lab, "cuda"), rubric.build_timeout_s);
            plan += lab.id + "\t" + fns[k].second->name + "\t" + cuda.module(lab) + "\t" + reference + "\n";
        }
        // Plan line `line`'s frames: its outputs, then (after `held`) its timing.
        const std::size_t m = pending.size();
        progress->steps = observations(m);
        progress->steps.push_back({Kind::held, 0});
        for (std::size_t line = 0; line < m; ++line) progress->steps.push_back({Kind::timing, line});
        const RunFolder folder(cuda.scratch() + "/" + name("timing-"));
        std::ofstream(folder.dir + "/plan.txt") << plan;
        Limits limits = plan_limits(progress, [&, m](std::size_t i) { return i < m ? observing : i == m ? kGpuWaitS : timing; });
        limits.only_given = true;
        std::vector<std::string> command = {
            bench, "--plan", folder.dir + "/plan.txt", "--sizes", std::to_string(spec.n), "--seed", std::to_string(spec.seed),
            "--min-rounds", std::to_string(rubric.timing_min_rounds), "--max-rounds", std::to_string(rubric.timing_max_rounds),
            "--rel-ci", fixed(rubric.timing_rel_ci, 6), "--max-seconds", fixed(rubric.timing_max_seconds, 3),
            "--decide", fixed(rubric.timing_full_within, 6) + ":" + fixed(rubric.timing_zero_at, 6) + ":" + fixed(rubric.timing_ratio_step, 6),
            "--grading", "--result-fd", std::to_string(kResultFd)};
        std::vector<std::string> readable = {cuda.build_dir(), fs::path(bench).parent_path().parent_path().string(), folder.dir};
        hold_gpu_through(gpu_lock, command, readable);
        Outcome o = run_contained(command, folder.scratch, {folder.scratch}, limits, ctx_.sandbox, readable, env(), &progress->results);
        const Received got(progress->results, progress->steps);
        const auto frame = [&](std::size_t line, Kind kind) { return got.find({kind, line}); };
        const std::optional<std::size_t> stopped =
            plan_stopped_at(m, [&](std::size_t line, bool json) { return frame(line, json ? Kind::timing : Kind::observation); });
        std::vector<std::size_t> again;  // the functions the failure left untimed: a new process
        for (std::size_t line = 0; line < m; ++line) {
            const std::size_t k = pending[line];
            TimingRun& run = out[k];
            if (!got.forged.empty()) {
                run.problem = got.forged;
            } else if (stopped == line) {
                const char* missing = frame(line, Kind::observation) ? "its timing" : "its outputs";
                if (o.ok()) run.problem = std::string("the timing program left no valid result (it sent none of ") + missing + ")";
                else {
                    o.seconds -= progress->last;  // this step's time, as its own process had it
                    run.problem = "the timing program " + o.describe() +
                                  (o.output.empty() ? "" : "; its output:\n" + first_lines(o.output, 12));
                }
            } else if (!frame(line, Kind::timing)) {
                again.push_back(k);
            } else {
                try {
                    run.timed = parse_timing(*frame(line, Kind::timing));
                    if (run.timed.problem.empty()) {  // scan-bench's own verdict (a wrong call, the copy floor) needs no outputs
                        run.seen = harness::decode_observation(*frame(line, Kind::observation));
                        if (run.seen.n != spec.n) throw std::runtime_error("the outputs are for another input");
                    }
                } catch (const std::exception& e) {
                    run.problem = std::string("the timing program left no valid result (") + e.what() + ")";
                }
            }
        }
        pending = std::move(again);
    }
    return out;
}

}  // namespace grader
