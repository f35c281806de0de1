#include "process_executor.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "files.hpp"
#include "outputs.hpp"

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

// Reads a runner's observation of `input` from `path`.
Run read_run(const std::string& path, std::size_t n) {
    Run r;
    try {
        r.seen = harness::read_observation(path);
        if (r.seen.n != n) throw std::runtime_error("the result file is for another input");
        r.ok = true;
    } catch (const std::exception& e) {
        r.problem = std::string("the test program exited without a valid result (") + e.what() + ")";
    }
    return r;
}

}  // namespace

ProcessExecutor::ProcessExecutor(const Context& ctx, unsigned index, std::string gpu_id)
    : ctx_(ctx), gpu_id_(std::move(gpu_id)) {
    for (const auto& backend : ctx.backends)
        workspaces_.push_back(std::make_unique<Workspace>(ctx.work + "/slot" + std::to_string(index) + "-" + backend,
                                                          ctx.kit, backend, ctx.rubric.build_timeout_s));
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

std::vector<BuildResult> ProcessExecutor::build(std::size_t backend,
                                                const std::vector<std::pair<const catalog::Lab*, LabFile>>& labs) {
    return workspaces_[backend]->build(labs, ctx_.sandbox);
}

std::optional<BuildResult> ProcessExecutor::nvcc_check(const catalog::Lab& lab, const LabFile& file) {
    return grader::nvcc_check(ctx_.kit, lab, file, workspace("emu")->scratch() + "/nvcc-check",
                              ctx_.rubric.build_timeout_s, ctx_.sandbox);
}

// Runs `program` (a runner, maybe under compute-sanitizer) on `input` in
// `scratch`, its files named after `name` (runs in one scratch folder at once
// need names of their own).
Run ProcessExecutor::run_runner(const std::string& scratch, const std::string& name, std::vector<std::string> program,
                                const std::string& function, const std::vector<float>& input, double timeout_s,
                                bool contained, std::vector<std::string> extra) {
    // The emulator's runs keep only a core busy: where a GPU is graded too they
    // yield the CPU to the processes that feed it (compute-sanitizer, timing).
    Limits limits{timeout_s};
    if (!gpu_id_.empty() && program.front() != "compute-sanitizer") limits.nice = 10;
    const std::string build = fs::path(program.back()).parent_path().parent_path().string();
    const std::string in = scratch + "/" + name + ".in", out = scratch + "/" + name + ".obs";
    fs::remove(out);
    write_input(in, input);
    program.insert(program.end(), {"--function", function, "--input", in, "--output", out});
    program.insert(program.end(), extra.begin(), extra.end());
    // The runner's build folder (build/labs/labNN-run) stays readable under the hidden work folder.
    const Outcome o = run_contained(program, scratch, {scratch}, limits, contained ? ctx_.sandbox : Sandbox{},
                                    {build}, env());
    Run r;
    if (!o.ok()) {
        r.timed_out = o.timed_out;
        r.problem = run_problem(o);
    } else {
        r = read_run(out, input.size());
        if (r.ok && fs::exists(out + ".reversed")) {
            Run second = read_run(out + ".reversed", input.size());
            if (!second.ok) r = second;
            else r.reversed = std::make_shared<harness::Observation>(std::move(second.seen));
        }
    }
    r.output = o.output;
    fs::remove(in);
    fs::remove(out);
    fs::remove(out + ".reversed");
    return r;
}

Run ProcessExecutor::emulate(const catalog::Lab& lab, const std::string& function, const std::vector<float>& input,
                             double timeout_s, Trace trace) {
    const Workspace& emu = *workspace("emu");
    const std::string scratch = emu.scratch() + "/" + (trace == Trace::divergence ? "divergence" : lab.suite);
    fs::create_directories(scratch);
    std::vector<std::string> extra;
    if (trace == Trace::reversed_too) extra = {"--reversed-too"};
    if (trace == Trace::divergence) extra = {"--divergence"};
    return run_runner(scratch, name(trace == Trace::divergence ? "d" : "u"), {emu.runner(lab)}, function, input,
                      timeout_s, true, extra);
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
        Run r = read_run(cached, input.size());
        if (r.ok) return r;
    }
    fs::create_directories(dir);
    Run r = run_runner(dir, "run-" + stem, {runner}, fn.name, input, run_timeout(ctx_, "emu", spec.n), false, {"--divergence"});
    if (r.ok) harness::write_observation(cached, r.seen);
    return r;
}

PlanRun ProcessExecutor::gpu_plan(const catalog::Lab& lab,
                                  const std::vector<std::pair<std::string, const std::vector<float>*>>& datasets) {
    const Workspace& ws = *workspace("cuda");
    const std::string dir = ws.scratch() + "/" + lab.suite;
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto input = [&](std::size_t i) { return dir + "/u" + std::to_string(i) + ".in"; };
    const auto output = [&](std::size_t i) { return dir + "/u" + std::to_string(i) + ".obs"; };
    std::string plan;
    for (std::size_t i = 0; i < datasets.size(); ++i) {
        write_input(input(i), *datasets[i].second);
        plan += datasets[i].first + "\t" + input(i) + "\t" + output(i) + "\n";
    }
    std::ofstream(dir + "/plan.txt") << plan;
    const Rubric& rubric = ctx_.rubric;
    const auto timeout = [&](std::size_t i) {
        const double per_million = rubric.gpu_per_million_s * static_cast<double>(datasets[i].second->size()) / 1e6;
        return (i == 0 ? rubric.run_base_s : rubric.gpu_step_s) + per_million;
    };
    double total = 0;
    for (std::size_t i = 0; i < datasets.size(); ++i) total += timeout(i);
    // Each run gets its own allowance, counted from the end of the one before.
    std::size_t done = 0;
    double last = 0;
    const Clock::time_point start = Clock::now();
    Limits limits{total};
    limits.step_deadline = [&] {
        while (done < datasets.size() && fs::exists(output(done))) {
            ++done;
            last = since(start);
        }
        return done < datasets.size() ? last + timeout(done) : total;
    };
    const Outcome o = run_contained({ws.runner(lab), "--plan", dir + "/plan.txt"}, dir, {dir}, limits, ctx_.sandbox,
                                    {ws.build_dir()}, env());
    PlanRun out;
    for (std::size_t i = 0; i < datasets.size() && fs::exists(output(i)); ++i)
        out.done.push_back(read_run(output(i), datasets[i].second->size()));
    if (out.done.size() < datasets.size()) {
        out.device_lost = o.exit_code == 3 && !out.done.empty();
        out.cannot_run = o.exit_code == 77 || !o.started;
        out.failed.timed_out = o.timed_out;
        out.failed.problem = run_problem(o);
    }
    fs::remove_all(dir);
    return out;
}

Run ProcessExecutor::sanitize(const std::string& tool, const catalog::Lab& lab, const std::string& function,
                              const std::vector<float>& input) {
    const Workspace& cuda = *workspace("cuda");
    const std::string scratch = cuda.scratch() + "/sanitizer";
    fs::create_directories(scratch);
    std::vector<std::string> program = {"compute-sanitizer", "--tool", tool, "--error-exitcode", "99",
                                        "--print-limit", "8"};
    if (tool == "memcheck") program.insert(program.end(), {"--leak-check", "full"});
    program.push_back(cuda.runner(lab));
    return run_runner(scratch, name("s"), program, function, input, ctx_.rubric.sanitizer_timeout_s, true);
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
// a process each took 0.4 s more a function, the GPU held alone). A function
// whose run fails or hangs gets that failure, and the functions after it a
// new process.
std::vector<TimingRun> ProcessExecutor::time(const std::vector<std::pair<const catalog::Lab*, const catalog::Function*>>& fns,
                                             const datasets::Spec& spec) {
    const Rubric& rubric = ctx_.rubric;
    const Workspace& cuda = *workspace("cuda");
    const std::string bench = reference_build(ctx_.work, ctx_.kit, "cuda", kBench, rubric.build_timeout_s);
    const std::string scratch = cuda.scratch();
    const auto file = [&](std::size_t k, const char* ext) {
        return scratch + "/timing-" + fns[k].first->suite + "-" + fns[k].second->name + ext;
    };
    const double allowance = 2 * rubric.timing_max_seconds + run_timeout(ctx_, "cuda", spec.n) + 30;
    std::vector<TimingRun> out(fns.size());
    for (std::size_t next = 0; next < fns.size() && !stopping();) {
        std::string plan;
        for (std::size_t k = next; k < fns.size(); ++k) {
            const catalog::Lab& lab = *fns[k].first;
            const std::string reference =
                reference_build(ctx_.work, ctx_.kit, "cuda", reference_target(lab, "cuda"), rubric.build_timeout_s);
            fs::remove(file(k, ".json"));
            fs::remove(file(k, ".bin"));
            plan += lab.id + "\t" + fns[k].second->name + "\t" + cuda.module(lab) + "\t" + reference + "\t" +
                    file(k, ".json") + "\t" + file(k, ".bin") + "\n";
        }
        std::ofstream(scratch + "/timing-plan.txt") << plan;
        // Each function gets its own allowance, counted from the end of the one before.
        std::size_t done = next;
        double last = 0;
        const Clock::time_point start = Clock::now();
        Limits limits{allowance * static_cast<double>(fns.size() - next)};
        limits.step_deadline = [&] {
            while (done < fns.size() && fs::exists(file(done, ".json"))) {
                ++done;
                last = since(start);
            }
            return last + allowance;
        };
        const std::vector<std::string> command = {
            bench, "--plan", scratch + "/timing-plan.txt", "--sizes", std::to_string(spec.n), "--seed", std::to_string(spec.seed),
            "--min-rounds", std::to_string(rubric.timing_min_rounds), "--max-rounds", std::to_string(rubric.timing_max_rounds),
            "--rel-ci", fixed(rubric.timing_rel_ci, 6), "--max-seconds", fixed(rubric.timing_max_seconds, 3),
            "--decide", fixed(rubric.timing_full_within, 6) + ":" + fixed(rubric.timing_zero_at, 6) + ":" + fixed(rubric.timing_ratio_step, 6),
            "--grading"};
        Outcome o = run_contained(command, scratch, {scratch}, limits, ctx_.sandbox,
                                  {cuda.build_dir(), fs::path(bench).parent_path().parent_path().string()}, env());
        for (; next < fns.size(); ++next) {
            TimingRun& run = out[next];
            if (!fs::exists(file(next, ".json"))) {
                if (o.ok()) run.problem = "the timing program left no valid result (no " + file(next, ".json") + ")";
                else {
                    o.seconds -= last;  // this function's time, as its own process had it
                    run.problem = "the timing program " + o.describe() +
                                  (o.output.empty() ? "" : "; its output:\n" + first_lines(o.output, 12));
                }
                ++next;
                break;
            }
            try {
                run.timed = read_timing(file(next, ".json"));
                if (run.timed.problem.empty()) {  // scan-bench's own verdict (a wrong call, the copy floor) needs no outputs
                    run.seen = harness::read_observation(file(next, ".bin"));
                    if (run.seen.n != spec.n) throw std::runtime_error("the outputs are for another input");
                }
            } catch (const std::exception& e) {
                run.problem = std::string("the timing program left no valid result (") + e.what() + ")";
            }
            fs::remove(file(next, ".json"));
            fs::remove(file(next, ".bin"));
        }
    }
    return out;
}

}  // namespace grader
