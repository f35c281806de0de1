// An executor of canned runs (executor.hpp): every build succeeds (unless
// told otherwise) and every run comes out as its backend's Kind says, made here without a process, so
// test_grade.cpp checks grade()'s scores and messages in milliseconds.
#pragma once

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <string>

#include "compare.hpp"
#include "grader/grading/executor.hpp"
#include "scan_spec.hpp"
#include "score.hpp"

namespace grader::canned {

// undefined: right values, but a barrier divergence in every run, reported
// at another block as the dataset's length changes (as the emulator does).
// uninitialised: right values, and the emulator's read of global memory
// nothing wrote (an atomic's old value at scan.cu:39), as initcheck reads it.
enum class Kind { right, wrong, racy, undefined, uninitialised, hung, crashed, leaking };

// A right observation of `input`: the serial scan, the input untouched, one launch.
inline harness::Observation right(const std::vector<float>& input, const datasets::ScanSpec& spec) {
    harness::Observation o;
    o.n = input.size();
    o.in_after = harness::guarded(input);
    o.out = datasets::serial_scan(input, spec);
    o.out.resize(o.n + harness::kGuard, compare::poison());
    o.launches = 1;
    o.blocks = 1;
    o.output_from_kernel = 1;
    return o;
}

// One warp, every lane busy: a SIMT efficiency of 1.
inline std::vector<harness::KernelDivergence> full_warps() {
    harness::KernelDivergence k;
    k.kernel = "scan_kernel";
    k.blocks = 1;
    k.warps_per_block = 1;
    harness::DivergenceCell cell;
    cell.warp_visits = 10;
    cell.lane_visits = 320;
    k.cells = {{cell}};
    return {k};
}

class Executor : public grader::Executor {
public:
    Kind emu = Kind::right, gpu = Kind::right;
    std::string hangs_on_gpu;      // a function whose GPU runs hang, whatever `gpu` says
    std::string timing_problem;    // scan-bench's own verdict on every timing run ("" for none)
    double timing_ratio = 1.0;     // the student's time over the reference's
    bool sanitizer_gets_nowhere = false;  // each tool's process asks for a restart before its first run
    // A tool's canned report (compute-sanitizer's own words), by tool: each run under it fails with that output.
    std::map<std::string, std::string> sanitizer_logs;
    std::atomic<unsigned> emulated{0}, planned{0}, sanitized{0}, timed{0};
    // The emulator's runs above this many elements come out racy (0: none):
    // a bug written to show on large datasets alone.
    std::size_t emu_racy_above = 0;
    std::mutex mutex;
    std::multiset<std::pair<std::size_t, float>> emulated_inputs;  // each run's (n, first value)
    std::uint64_t timing_seed = 0;  // the last timing's dataset seed
    // Nsight Compute's measure of every function's divergence on the GPU, and the functions it was asked for.
    GpuDivergence gpu_lanes{"", 0.95, 0.95};
    DeviceOnlyCheck device_only_check;             // what every device-only run gives
    std::vector<std::string> device_only_asked;    // "FUNCTION N" of each
    std::vector<std::string> gpu_divergence_asked;

    std::size_t failing_build = ~std::size_t{0};  // the backend (its index) whose builds fail, if any
    bool nvcc_rejects = false;                    // nvcc_check fails
    // The library scans each backend's build of every lab holds (by backend
    // name), and nvcc's check; the labs nvcc checked, by id.
    std::map<std::string, std::vector<LibraryScan>> built_scans;
    std::vector<LibraryScan> nvcc_scans;
    std::vector<std::string> nvcc_checked;
    std::vector<std::string> backends;  // ctx.backends, for built_scans

    std::vector<BuildResult> build(std::size_t backend, const std::vector<std::pair<const catalog::Lab*, LabFile>>& labs) override {
        const bool ok = backend != failing_build;
        const auto scans = backend < backends.size() ? built_scans.find(backends[backend]) : built_scans.end();
        return std::vector<BuildResult>(labs.size(), BuildResult{ok, ok ? "" : "scan.cu:3:5: error: canned\n", 0,
                                                                 ok && scans != built_scans.end() ? scans->second : std::vector<LibraryScan>{}});
    }
    std::optional<BuildResult> nvcc_check(const catalog::Lab& lab, const LabFile&) override {
        {
            std::lock_guard<std::mutex> lock(mutex);
            nvcc_checked.push_back(lab.id);
        }
        return BuildResult{!nvcc_rejects, nvcc_rejects ? "scan.cu:3:5: error: canned (nvcc)\n" : "", 0,
                           nvcc_rejects ? std::vector<LibraryScan>{} : nvcc_scans};
    }
    Run emulate(const catalog::Lab& lab, const std::string& function, const std::vector<float>& input, double,
                Trace trace) override {
        ++emulated;
        {
            std::lock_guard<std::mutex> lock(mutex);
            emulated_inputs.insert({input.size(), input.empty() ? 0.0f : input[0]});
        }
        Run r = run(emu_racy_above && input.size() > emu_racy_above ? Kind::racy : emu, lab, function, input);
        if (r.ok && trace == Trace::divergence) r.seen.divergence = full_warps();
        return r;
    }
    Run reference_divergence(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec&,
                             const std::vector<float>& input) override {
        Run r = run(Kind::right, lab, fn.name, input);
        r.seen.divergence = full_warps();
        return r;
    }
    PlanRun gpu_plan(const std::vector<LabCall>& calls) override {
        ++planned;
        PlanRun plan;
        for (const LabCall& call : calls) {
            // The hardware reports no races (compute-sanitizer does).
            const Kind kind = call.function == hangs_on_gpu ? Kind::hung : gpu == Kind::racy ? Kind::right : gpu;
            Run r = run(kind, *call.lab, call.function, *call.input);
            if (kind == Kind::hung || kind == Kind::crashed) {  // the process ends here
                plan.failed = r;
                return plan;
            }
            plan.done.push_back(r);
        }
        return plan;
    }
    PlanRun sanitize(const std::string& tool, const std::vector<LabCall>& calls) override {
        ++sanitized;
        PlanRun plan;
        if (sanitizer_gets_nowhere) {
            plan.restart = true;
            plan.failed.problem = "canned: the tool stopped before its first run";
            return plan;
        }
        for (const LabCall& call : calls) {
            Run r = run(gpu == Kind::racy && tool == "racecheck" ? Kind::crashed : Kind::right, *call.lab, call.function,
                        *call.input);
            if (const auto log = sanitizer_logs.find(tool); log != sanitizer_logs.end()) {
                r.ok = false;
                r.problem = "canned: " + tool + " reported errors";
                r.output = log->second;
            }
            if (!r.ok) {  // the process ends here
                plan.failed = r;
                return plan;
            }
            plan.done.push_back(r);
        }
        return plan;
    }
    std::vector<TimingRun> time(const std::vector<std::pair<const catalog::Lab*, const catalog::Function*>>& fns,
                                const datasets::Spec& spec, const std::string& gpu_lock) override {
        (void)gpu_lock;
        timing_seed = spec.seed;
        std::vector<TimingRun> out;
        for (const auto& [lab, fn] : fns) {
            ++timed;
            TimingRun t;
            t.timed.median = t.timed.p10 = t.timed.p90 = t.timed.ci_low = t.timed.ci_high = timing_ratio;
            t.timed.mine_ms = timing_ratio;
            t.timed.ref_ms = 1;
            t.timed.rounds = t.timed.checked_calls = 10;
            t.timed.problem = timing_problem;
            t.seen = run(gpu == Kind::wrong ? Kind::wrong : Kind::right, *lab, fn->name, datasets::generate(spec)).seen;
            out.push_back(std::move(t));
        }
        return out;
    }

    GpuDivergence gpu_divergence(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                                 const std::string& gpu_lock) override {
        (void)lab, (void)spec, (void)gpu_lock;
        std::lock_guard<std::mutex> hold(mutex);
        gpu_divergence_asked.push_back(fn.name);
        return gpu_lanes;
    }

    DeviceOnlyCheck device_only(const catalog::Lab& lab, const catalog::Function& fn, const datasets::Spec& spec,
                                const std::string& gpu_lock) override {
        (void)lab, (void)gpu_lock;
        std::lock_guard<std::mutex> hold(mutex);
        device_only_asked.push_back(fn.name + " " + std::to_string(spec.n));
        return device_only_check;
    }

    // One run of `kind`: the messages are the canned runs' own.
    static Run run(Kind kind, const catalog::Lab& lab, const std::string& function, const std::vector<float>& input) {
        const auto fn = std::find_if(lab.functions.begin(), lab.functions.end(),
                                     [&](const catalog::Function& f) { return f.name == function; });
        Run r;
        if (kind == Kind::hung) {
            r.timed_out = true;
            r.problem = "canned: timed out";
            return r;
        }
        if (kind == Kind::crashed) {
            r.problem = "canned: killed by signal 11";
            return r;
        }
        r.ok = true;
        r.seen = right(input, fn->spec);
        if (kind == Kind::wrong && !input.empty()) r.seen.out[input.size() - 1] += 1000;
        if (kind == Kind::racy) {
            finding::Finding race;
            race.kind = "race";
            race.check = "data race on shared memory";
            race.kernel = "scan_kernel";
            race.lines = {"scan.cu:24"};
            race.launch = "scan.cu:40";
            race.block = "(0,0,0)";
            race.blocks = 4;
            race.message = "canned";
            r.seen.findings = {race};
        }
        if (kind == Kind::undefined && !input.empty()) {
            finding::Finding barrier;
            barrier.kind = "barrier";
            barrier.undefined = true;
            barrier.check = "barrier divergence";
            barrier.kernel = "scan_kernel";
            barrier.lines = {"scan.cu:23"};
            barrier.launch = "scan.cu:40";
            barrier.block = "(" + std::to_string(input.size() % 7) + ",0,0)";
            barrier.message = "block " + barrier.block + ": canned";
            r.seen.findings = {barrier};
        }
        if (kind == Kind::uninitialised) {
            finding::Finding read;
            read.kind = score::emulator_category("uninitialised");
            read.undefined = score::emulator_undefined("uninitialised");
            read.check = "uninitialized global memory read";
            read.kernel = "add_block_sums_kernel";
            read.lines = {"scan.cu:39"};
            read.launch = "scan.cu:57";
            read.block = "(0,0,0)";
            read.message = "canned";
            r.seen.findings = {read};
        }
        if (kind == Kind::leaking) {
            r.seen.leaked_bytes = 4096;
            r.seen.leaked_allocations = 1;
        }
        return r;
    }
};

}  // namespace grader::canned
