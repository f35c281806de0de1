#include "grade.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "catalog.hpp"
#include "files.hpp"
#include "generator.hpp"
#include "manifest.hpp"
#include "observation.hpp"
#include "outputs.hpp"
#include "sanitizer.hpp"
#include "score.hpp"
#include "timing.hpp"

namespace fs = std::filesystem;

namespace grader {

void Tokens::acquire() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return free_ > 0; });
    --free_;
}

void Tokens::release() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        ++free_;
    }
    cv_.notify_one();
}

void GpuLock::lock_shared() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return !writer_ && writers_waiting_ == 0; });
    ++readers_;
}

void GpuLock::unlock_shared() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        --readers_;
    }
    cv_.notify_all();
}

void GpuLock::lock() {
    std::unique_lock<std::mutex> lock(mutex_);
    ++writers_waiting_;
    cv_.wait(lock, [&] { return !writer_ && readers_ == 0; });
    --writers_waiting_;
    writer_ = true;
}

void GpuLock::unlock() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        writer_ = false;
    }
    cv_.notify_all();
}

std::vector<std::string> Slot::env() const {
    if (gpu < 0) return {};
    return {"CUDA_VISIBLE_DEVICES=" + gpu_id};
}

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string first_lines(const std::string& text, int lines) {
    std::size_t at = 0;
    for (int i = 0; i < lines && at != std::string::npos; ++i) at = text.find('\n', at + 1);
    return at == std::string::npos ? text : text.substr(0, at + 1) + "[...]\n";
}

// Phase times of one grading: each phase from its first start to its last end.
class PhaseClock {
public:
    void add(const std::string& name, Clock::time_point from, Clock::time_point to) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto [it, fresh] = spans_.insert({name, {from, to}});
        if (!fresh) it->second = {std::min(it->second.first, from), std::max(it->second.second, to)};
    }
    std::vector<Phase> phases() const {
        static const char* const order[] = {"build emu", "build cuda", "datasets emu", "datasets gpu",
                                            "sanitizer", "divergence", "timing"};
        std::vector<Phase> out;
        for (const char* name : order)
            if (const auto it = spans_.find(name); it != spans_.end())
                out.push_back({name, std::chrono::duration<double>(it->second.second - it->second.first).count()});
        return out;
    }

private:
    std::mutex mutex_;
    std::map<std::string, std::pair<Clock::time_point, Clock::time_point>> spans_;
};

// Times its scope as one span of a phase.
struct Span {
    PhaseClock& clock;
    std::string name;
    Clock::time_point from = Clock::now();
    ~Span() { clock.add(name, from, Clock::now()); }
};

// Runs task(0) ... task(count - 1) on up to `width` threads; the first
// exception a task throws is rethrown once all have ended.
void run_tasks(std::size_t count, unsigned width, const std::function<void(std::size_t)>& task) {
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::mutex failure_mutex;
    const auto worker = [&] {
        for (std::size_t k; (k = next++) < count;) {
            try {
                task(k);
            } catch (...) {
                std::lock_guard<std::mutex> lock(failure_mutex);
                if (!failure) failure = std::current_exception();
            }
        }
    };
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < std::min<std::size_t>(width, count); ++t) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
    if (failure) std::rethrow_exception(failure);
}

// A core for the scope of one process that keeps it busy.
struct Token {
    Tokens& tokens;
    explicit Token(Tokens& t) : tokens(t) { tokens.acquire(); }
    ~Token() { tokens.release(); }
};

// The slot's GPU, shared (correctness, compute-sanitizer) or alone (timing).
struct SharedGpu {
    GpuLock* lock;
    SharedGpu(Context& ctx, const Slot& slot) : lock(slot.gpu < 0 ? nullptr : ctx.gpu_locks[slot.gpu].get()) {
        if (lock) lock->lock_shared();
    }
    ~SharedGpu() {
        if (lock) lock->unlock_shared();
    }
};

// A runner's run: the observation it wrote, or why there is none.
struct Run {
    bool ok = false;
    bool timed_out = false;
    std::string problem;
    std::string output;  // what the process printed (kept to the limit), for tools whose reports are read
    harness::Observation seen;
    // The emulator's second run with the blocks in reverse order (--reversed-too), when it made one.
    std::shared_ptr<harness::Observation> reversed;
};

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

// Runs `program` (a runner, maybe under compute-sanitizer) on `input` in
// `scratch`, its files named after `name` (runs in one scratch folder at once
// need names of their own).
Run run_runner(const Context& ctx, const Slot& slot, const std::string& scratch, const std::string& name,
               std::vector<std::string> program, const std::string& function, const std::vector<float>& input,
               double timeout_s, bool contained, std::vector<std::string> extra = {}) {
    // The emulator's runs keep only a core busy: where a GPU is graded too they
    // yield the CPU to the processes that feed it (compute-sanitizer, timing).
    Limits limits{timeout_s};
    if (slot.gpu >= 0 && program.front() != "compute-sanitizer") limits.nice = 10;
    const std::string build = fs::path(program.back()).parent_path().parent_path().string();
    const std::string in = scratch + "/" + name + ".in", out = scratch + "/" + name + ".obs";
    fs::remove(out);
    write_input(in, input);
    program.insert(program.end(), {"--function", function, "--input", in, "--output", out});
    program.insert(program.end(), extra.begin(), extra.end());
    // The runner's build folder (build/labs/labNN-run) stays readable under the hidden work folder.
    const Outcome o = run_contained(program, scratch, {scratch}, limits, contained ? ctx.sandbox : Sandbox{},
                                    {build}, slot.env());
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

double run_timeout(const Context& ctx, const std::string& backend, std::size_t n) {
    const double per_million = backend == "cuda" ? ctx.rubric.gpu_per_million_s : ctx.rubric.run_per_million_s;
    return ctx.rubric.run_base_s + per_million * static_cast<double>(n) / 1e6;
}

// One function on one dataset on one backend, judged.
struct Verdict {
    bool passed = false, timed_out = false;
    std::string feedback;                                      // FAIL lines; empty when passed
    std::vector<std::pair<std::string, std::string>> findings;  // category, finding
};

// One function on one dataset, on every backend.
struct Unit {
    std::string cls, function;
    datasets::Spec spec;
    bool hidden = false, scored = true, passed = false;
    bool withheld = false;  // hidden, and not --show-hidden: named by number, no details
    const catalog::Function* fn = nullptr;
    std::vector<float> input;
    std::string what, feedback;
    std::vector<Verdict> on;  // per workspace of the slot
};

// What grading one lab gathers before it is scored.
struct LabState {
    const catalog::Lab* lab;
    LabFile file;
    std::vector<simt::Limit> limits;  // what of its scan.cu the emulator cannot run (simt/limits.hpp)
    // Where the emulator cannot run it and a GPU grades it alone: the index
    // of the emulator's workspace, whose verdicts then do not count; else -1.
    int emu_off = -1;
    std::string cache_key;  // where its result goes in the result cache; empty: it is not kept
    LabResult out;
    std::vector<Unit> units;
    std::map<std::string, std::vector<std::string>> findings;  // category -> findings, first few
    std::atomic<unsigned> emu_timeouts{0};
    std::mutex mutex;         // guards block_order, set by the emulator's runs
    std::string block_order;  // the emulator's default block order, for the feedback
    // function -> its GPU run that timed out, where one did: that function's
    // later GPU work (datasets, compute-sanitizer, timing) is skipped
    std::map<std::string, std::string> gpu_hung;
    double gate = 0;       // correctness fraction
    std::vector<std::pair<std::string, std::string>> sanitizer_findings;  // category, finding
    bool divergence_ran = false, timing_ran = false;
    std::vector<std::pair<Run, Run>> divergence;  // per function: the student's run and the reference's
    struct Timing {
        std::string problem;  // why it is not scored; empty when it is
        std::string json, observation;  // what scan-bench wrote, judged once the GPU is free again
        Timed timed;
    };
    std::vector<Timing> timings;  // per function
};


// The first few findings of a category; one the list holds already, but for
// how many more blocks showed it (the emulator counts them per dataset), is
// not news, so another tool's finding still gets shown.
void note_finding(LabState& state, const std::string& category, const std::string& finding) {
    static const std::regex blocks(R"( \(and [0-9]+ more blocks?\))");
    auto& list = state.findings[category];
    const std::string key = std::regex_replace(finding, blocks, "");
    for (const auto& f : list)
        if (std::regex_replace(f, blocks, "") == key) return;
    if (list.size() < 3) list.push_back(finding);
}

// A withheld unit's failure says only that it failed.
void withhold(const Unit& unit, const std::string& on, Verdict& v) {
    if (!unit.withheld) return;
    if (!v.feedback.empty()) v.feedback = "FAIL  " + unit.what + on + "\n";
    for (auto& [category, finding] : v.findings)
        finding = category + " finding on " + unit.what + " (details shown after grades are published)";
}

Verdict judge_run_in_full(const Unit& unit, const std::string& on, const Run& r);

Verdict judge_run(const Unit& unit, const std::string& on, const Run& r) {
    Verdict v = judge_run_in_full(unit, on, r);
    withhold(unit, on, v);
    return v;
}

Verdict judge_run_in_full(const Unit& unit, const std::string& on, const Run& r) {
    Verdict v;
    if (!r.ok) {
        v.timed_out = r.timed_out;
        v.feedback = "FAIL  " + unit.what + on + ": " + r.problem + "\n";
        return v;
    }
    // The run in the emulator's default block order, then (when it made one)
    // the run with the blocks reversed: both must be right.
    const auto judge_one = [&](const harness::Observation& seen, const std::string& order) {
        for (const auto& f : seen.findings) v.findings.push_back({score::category_of(f), f});
        if (seen.leaked_bytes)
            v.findings.push_back({"leak", std::to_string(seen.leaked_bytes) + " bytes in " +
                                              std::to_string(seen.leaked_allocations) + " allocation(s) still live after " +
                                              unit.function + " returned (cudaFree every temporary)"});
        std::string why;
        for (const auto& c : harness::judge(unit.input, seen, unit.fn->spec, datasets::is_exact(unit.spec.dist), unit.function))
            if (!c.ok && !score::safety_rule(c.rule))
                why += c.rule + ": " + c.message + "\n";  // safety findings are scored apart
        for (const auto& f : seen.findings)
            if (score::undefined_behaviour(f)) why += "undefined behaviour, so these values prove nothing: " + f + "\n";
        if (!why.empty())
            v.feedback = "FAIL  " + unit.what + on + (order.empty() ? "" : "; " + order) + "\n" + first_lines(why, 24);
        return why.empty();
    };
    v.passed = judge_one(r.seen, r.reversed ? r.seen.block_order : "") &&
               (!r.reversed || judge_one(*r.reversed, r.reversed->block_order + ": a GPU may run blocks in any order"));
    return v;
}

Verdict not_run(const Unit& unit, const std::string& on, const std::string& why) {
    Verdict v;
    v.feedback = "FAIL  " + unit.what + on + ": not run, " + why + "\n";
    withhold(unit, on, v);
    return v;
}

std::string on_label(const Context& ctx, const Workspace& ws) {
    return ctx.backends.size() > 1 ? " [" + ws.backend() + "]" : "";
}

// The slot's workspace for `backend`; nullptr when it is not graded on it.
Workspace* workspace_for(Slot& slot, const std::string& backend) {
    for (auto& ws : slot.workspaces)
        if (ws->backend() == backend) return ws.get();
    return nullptr;
}

std::size_t index_of(const Slot& slot, const Workspace* ws) {
    for (std::size_t i = 0; i < slot.workspaces.size(); ++i)
        if (slot.workspaces[i].get() == ws) return i;
    return 0;
}

// The emulator's runs: one process per dataset, as many at once as there are
// cores. After give_up_after timeouts in a lab its remaining datasets are not run.
constexpr long long kLargeRun = 1 << 16;  // elements: about 0.1 s on the emulator
// The reversed run is for code that is right only in some block order; that
// shows once a launch has more blocks than the emulator starts at once (4),
// which every dataset of up to 2^17 elements with more than one section has.
// Above that it would double the emulator's largest runs for nothing more.
constexpr std::size_t kReversedMax = 1 << 17;
void run_emulator_datasets(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    Workspace* emu = workspace_for(slot, "emu");
    if (!emu) return;
    const std::size_t b = index_of(slot, emu);
    const std::string on = on_label(ctx, *emu);
    const auto run_one = [&](LabState& state, Unit& unit) {
        if (stopping()) return;
        if (state.emu_timeouts >= ctx.rubric.give_up_after) {
            unit.on[b] = not_run(unit, on, "after " + std::to_string(state.emu_timeouts.load()) + " timeouts in this lab");
            return;
        }
        Run r;
        {
            Token token(ctx.cpu);
            const bool reversed = unit.input.size() <= kReversedMax;  // two runs, twice the time
            r = run_runner(ctx, slot, emu->scratch() + "/" + state.lab->suite,
                           "u" + std::to_string(&unit - state.units.data()), {emu->runner(*state.lab)}, unit.function,
                           unit.input, (reversed ? 2 : 1) * run_timeout(ctx, "emu", unit.input.size()), true,
                           reversed ? std::vector<std::string>{"--reversed-too"} : std::vector<std::string>{});
        }
        if (r.ok && !r.seen.block_order.empty()) {
            std::lock_guard<std::mutex> lock(state.mutex);
            state.block_order = r.seen.block_order;
        }
        state.emu_timeouts += r.timed_out;
        unit.on[b] = judge_run(unit, on, r);
    };
    // First each lab's smallest datasets, one at a time, until one ends in
    // time: a kernel that hangs everywhere costs give_up_after timeouts, not
    // one per core.
    std::vector<std::vector<const Unit*>> probed(labs.size());
    run_tasks(labs.size(), static_cast<unsigned>(labs.size()), [&](std::size_t l) {
        LabState& state = *labs[l];
        fs::create_directories(emu->scratch() + "/" + state.lab->suite);
        std::vector<Unit*> small;
        for (auto& unit : state.units)
            if (unit.scored) small.push_back(&unit);
        std::stable_sort(small.begin(), small.end(), [](const Unit* a, const Unit* b) { return a->input.size() < b->input.size(); });
        for (Unit* unit : small) {
            if (state.emu_timeouts >= ctx.rubric.give_up_after || stopping()) break;
            run_one(state, *unit);
            probed[l].push_back(unit);
            if (!unit->on[b].timed_out) break;
        }
    });
    // Then the rest across the cores: small ones first, then the large ones,
    // largest first, so the cores finish together.
    std::vector<std::pair<LabState*, Unit*>> runs;
    for (std::size_t l = 0; l < labs.size(); ++l)
        for (auto& unit : labs[l]->units)
            if (std::find(probed[l].begin(), probed[l].end(), &unit) == probed[l].end()) runs.push_back({labs[l], &unit});
    const auto order = [](const Unit* u) {
        const auto n = static_cast<long long>(u->input.size());
        return n < kLargeRun ? std::make_pair(0, n) : std::make_pair(1, -n);
    };
    std::stable_sort(runs.begin(), runs.end(), [&](const auto& a, const auto& b) { return order(a.second) < order(b.second); });
    run_tasks(runs.size(), ctx.cpu.count(), [&](std::size_t k) { run_one(*runs[k].first, *runs[k].second); });
}

// The GPU's runs of one lab: every dataset in one runner process (--plan), so
// the CUDA context is made once; a run that leaves the device unusable or
// crashes the process costs a new process for the rest, and a run that hangs
// costs a timeout of its function only: the other functions' runs go on in a
// new process (a lab 03 whose Kogge-Stone hangs keeps its Brent-Kung's
// points), and that function's later compute-sanitizer and timing runs are
// skipped.
void run_gpu_datasets(Context& ctx, Slot& slot, Workspace& ws, LabState& state) {
    const std::size_t b = index_of(slot, &ws), count = state.units.size();
    const std::string dir = ws.scratch() + "/" + state.lab->suite, on = on_label(ctx, ws);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const auto input = [&](std::size_t i) { return dir + "/u" + std::to_string(i) + ".in"; };
    const auto output = [&](std::size_t i) { return dir + "/u" + std::to_string(i) + ".obs"; };
    std::vector<std::size_t> pending;  // the units still to run, in order; the first is the next process's first
    std::map<std::string, unsigned> hangs;  // function -> its GPU runs that timed out
    for (std::size_t i = 0; i < count; ++i) {
        write_input(input(i), state.units[i].input);
        pending.push_back(i);
    }
    const auto timeout = [&](std::size_t p) {
        const std::size_t i = pending[p];
        const double per_million = ctx.rubric.gpu_per_million_s * static_cast<double>(state.units[i].input.size()) / 1e6;
        return (p == 0 ? ctx.rubric.run_base_s : ctx.rubric.gpu_step_s) + per_million;
    };
    while (!pending.empty() && !stopping()) {
        std::ofstream(dir + "/plan.txt") << [&] {
            std::string plan;
            for (std::size_t i : pending) plan += state.units[i].function + "\t" + input(i) + "\t" + output(i) + "\n";
            return plan;
        }();
        double total = 0;
        for (std::size_t p = 0; p < pending.size(); ++p) total += timeout(p);
        // Each run gets its own allowance, counted from the end of the one before.
        std::size_t done = 0;
        double last = 0;
        const Clock::time_point start = Clock::now();
        Limits limits{total};
        limits.step_deadline = [&] {
            while (done < pending.size() && fs::exists(output(pending[done]))) {
                ++done;
                last = since(start);
            }
            return done < pending.size() ? last + timeout(done) : total;
        };
        Outcome o;
        {
            SharedGpu gpu(ctx, slot);
            o = run_contained({ws.runner(*state.lab), "--plan", dir + "/plan.txt"}, dir, {dir}, limits, ctx.sandbox,
                              {ws.build_dir()}, slot.env());
        }
        std::size_t p = 0;
        for (; p < pending.size() && fs::exists(output(pending[p])); ++p) {
            Unit& u = state.units[pending[p]];
            u.on[b] = judge_run(u, on, read_run(output(pending[p]), u.input.size()));
            fs::remove(output(pending[p]));
        }
        if (p == pending.size()) break;
        if (o.exit_code == 3 && p > 0) {  // the run before this one left the device unusable: the rest in a new process
            pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(p));
            continue;
        }
        const std::size_t k = pending[p];
        Run failed;
        failed.timed_out = o.timed_out;
        failed.problem = run_problem(o);
        state.units[k].on[b] = judge_run(state.units[k], on, failed);
        std::vector<std::size_t> rest(pending.begin() + static_cast<std::ptrdiff_t>(p) + 1, pending.end());
        pending.clear();
        if (o.timed_out) {
            // The others' runs go on. That function's go on smallest first (a
            // hang that grows with n then costs only the runs it hangs on)
            // until it has timed out give_up_after times; then the rest are
            // not run.
            const std::string& function = state.units[k].function;
            state.gpu_hung.emplace(function, state.units[k].what);
            const bool give_up = ++hangs[function] >= ctx.rubric.give_up_after;
            std::vector<std::size_t> its;
            for (std::size_t j : rest)
                (state.units[j].function == function ? its : pending).push_back(j);
            std::stable_sort(its.begin(), its.end(), [&](std::size_t x, std::size_t y) {
                return state.units[x].input.size() < state.units[y].input.size();
            });
            for (std::size_t j : its)
                if (give_up)
                    state.units[j].on[b] = not_run(state.units[j], on, function + "'s GPU runs timed out " +
                                                                           std::to_string(hangs[function]) +
                                                                           " times, the last on " + state.units[k].what);
                else
                    pending.push_back(j);
        } else if (o.exit_code == 77 || !o.started) {  // the runner cannot run at all
            for (std::size_t j : rest) state.units[j].on[b] = not_run(state.units[j], on, failed.problem);
        } else {
            pending = rest;
        }
    }
    fs::remove_all(dir);
}

// "hierarchical_scan's hidden dataset 2 of lab 04": each function whose GPU run timed out, and the run.
std::string hung_runs(const LabState& state) {
    std::string out;
    for (const auto& [function, what] : state.gpu_hung)
        out += (out.empty() ? "" : "; ") + function + " on " + what;
    return out;
}

TestResult make_test(const std::string& lab, const catalog::Lab& info, const std::string& component,
                     const std::string& name, double score, double max, const std::string& output) {
    TestResult t;
    t.lab = lab;
    t.component = component;
    t.name = info.suite + " " + name;
    t.score = score;
    t.max_score = max;
    t.status = score >= max - 1e-9 ? Status::Passed : Status::Failed;
    t.output = output;
    return t;
}

// Whether a lab's later work on a backend is worth running: some dataset
// came out right there (its correctness is not 0) and none hung there. It is
// decided per backend, so the GPU's work goes on while the emulator's
// datasets still run; what the final correctness rules out is not scored.
bool worth_running(const LabState& state, std::size_t backend, bool gpu) {
    if (gpu && state.gpu_hung.size() == state.lab->functions.size()) return false;
    for (const Unit& u : state.units)
        if (u.scored && u.on[backend].passed) return true;
    return false;
}

// Why a lab's later component is not scored, or "" when it is.
std::string skip_reason(const LabState& state, bool gpu_work) {
    if (state.gate <= 0) return "not scored: no dataset came out right, and this component is scaled by correctness";
    if (gpu_work && state.gpu_hung.size() == state.lab->functions.size())
        return "not run on the GPU: " + hung_runs(state) + " timed out there (a hung kernel costs its function's later GPU work)";
    return "";
}

// compute-sanitizer on the GPU at a small n, each tool on each function in
// processes of their own, as many at once as there are cores (the tools
// are mostly CPU-bound); their reports are read into findings of the
// emulator's categories, in a fixed order whatever order the runs end in.
void sanitize(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    Workspace* cuda = workspace_for(slot, "cuda");
    if (!cuda) return;
    struct Job {
        LabState* state;
        std::string tool;
        const catalog::Function* fn;
        Run run;
    };
    std::vector<Job> jobs;
    const std::size_t b = index_of(slot, cuda);
    for (LabState* state : labs) {
        if (!worth_running(*state, b, true)) continue;
        for (const auto& tool : ctx.rubric.sanitizer_tools)
            for (const auto& fn : state->lab->functions)
                if (!state->gpu_hung.count(fn.name)) jobs.push_back({state, tool, &fn, {}});
    }
    const std::vector<float> input = datasets::generate({datasets::Distribution::Walk4, ctx.rubric.sanitizer_n, 4242});
    const std::string scratch = cuda->scratch() + "/sanitizer";
    fs::create_directories(scratch);
    run_tasks(jobs.size(), ctx.cpu.count(), [&](std::size_t k) {
        Job& job = jobs[k];
        if (stopping()) return;
        std::vector<std::string> program = {"compute-sanitizer", "--tool", job.tool, "--error-exitcode", "99",
                                            "--print-limit", "8"};
        if (job.tool == "memcheck") program.insert(program.end(), {"--leak-check", "full"});
        program.push_back(cuda->runner(*job.state->lab));
        // The GPU first: a core taken while waiting for another slot's timing
        // to end would sit idle, and every slot's emulator runs wait for it.
        SharedGpu gpu(ctx, slot);
        Token token(ctx.cpu);
        job.run = run_runner(ctx, slot, scratch, "s" + std::to_string(k), program, job.fn->name, input,
                             ctx.rubric.sanitizer_timeout_s, true);
    });
    for (const Job& job : jobs) {
        const Run& r = job.run;
        auto& findings = job.state->sanitizer_findings;
        if (r.ok) continue;
        const std::string on = " (compute-sanitizer " + job.tool + " on " + job.fn->name + ")";
        if (r.timed_out) {  // a kernel that never finishes under the tool: threads wait at a barrier forever
            findings.push_back({"barrier", "deadlock: " + job.fn->name + " did not finish in " +
                                               fixed(ctx.rubric.sanitizer_timeout_s, 0) +
                                               " s; is a __syncthreads() inside a loop or branch some threads leave?" + on});
            continue;
        }
        const std::vector<Finding> found = parse_sanitizer(job.tool, r.output);
        for (const auto& f : found) findings.push_back({f.category, f.text});
        if (found.empty()) {  // the tool failed the run, but in words the grader does not know
            const std::string category = job.tool == "racecheck" ? "race" : job.tool == "synccheck" ? "barrier" : "memory";
            findings.push_back({category, "the run failed: " + r.problem + on});
        }
    }
}

Component score_safety(const Context& ctx, LabState& state, LabResult& out) {
    const double weight = ctx.rubric.weights_of(state.lab->id).safety;
    std::string text;
    int clean = 0;
    for (const char* category : score::kCategories) {
        const auto it = state.findings.find(category);
        if (it == state.findings.end()) {
            ++clean;
            text += std::string("ok    no ") + category + " findings\n";
        } else
            for (const auto& f : it->second) text += "FAIL  " + f + "\n";
    }
    if (!state.gpu_hung.empty()) text += "compute-sanitizer not run on " + hung_runs(state) + ": it timed out on the GPU\n";
    if (state.emu_off >= 0)
        text += "the emulator's checks: not run: " + simt::summarize("scan.cu", state.limits) +
                " is beyond the CPU emulator; compute-sanitizer's on the GPU are scored\n";
    const double score = weight * state.gate * clean / 4.0;
    // With no dataset right the emulator's findings are still shown; compute-sanitizer did not run.
    std::string note = skip_reason(state, false);
    if (note.empty()) note = std::to_string(clean) + " of 4 checks clean (race, barrier, memory, leak)";
    if (state.gate > 0 && state.gate < 1) note += ", scaled by correctness " + fixed(state.gate * 100, 0) + "%";
    out.tests.push_back(make_test(state.lab->id, *state.lab, "safety", "safety", score, weight, note + "\n" + text));
    return {"safety", score, weight, true, note};
}

// The reference's divergence run of one function, kept in the work folder
// (the reference does not change between submissions; a rebuilt reference
// runner makes it stale).
Run reference_divergence(Context& ctx, const Slot& slot, const catalog::Lab& lab, const catalog::Function& fn,
                         const datasets::Spec& spec, const std::vector<float>& input) {
    static std::mutex mutex;  // batch workers share one cache
    const std::string runner =
        reference_build(ctx.work, ctx.kit, "emu", "labs/" + lab.suite + "-run", ctx.rubric.build_timeout_s);
    std::lock_guard<std::mutex> lock(mutex);
    const std::string dir = ctx.work + "/reference-emu/divergence";
    const std::string cached = dir + "/" + lab.suite + "-" + fn.name + "-" + std::to_string(spec.n) + "-" +
                               std::to_string(spec.seed) + ".obs";
    std::error_code ec;
    if (fs::exists(cached) && fs::last_write_time(cached, ec) >= fs::last_write_time(runner, ec)) {
        Run r = read_run(cached, input.size());
        if (r.ok) return r;
    }
    fs::create_directories(dir);
    Run r = run_runner(ctx, slot, dir, "run", {runner}, fn.name, input, run_timeout(ctx, "emu", spec.n), false,
                       {"--divergence"});
    if (r.ok) harness::write_observation(cached, r.seen);
    return r;
}

// The emulator's divergence runs of the student's functions and the
// reference's, for the labs with some dataset right.
void run_divergence(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    Workspace* emu = workspace_for(slot, "emu");
    if (!emu) return;
    const datasets::Spec spec = score::divergence_spec(ctx.rubric.divergence_n);
    const std::vector<float> input = datasets::generate(spec);
    std::vector<std::pair<LabState*, std::size_t>> jobs;
    const std::size_t b = index_of(slot, emu);
    for (LabState* state : labs) {
        if (!worth_running(*state, b, false)) continue;
        state->divergence_ran = true;
        state->divergence.resize(state->lab->functions.size());
        for (std::size_t f = 0; f < state->lab->functions.size(); ++f) jobs.push_back({state, f});
    }
    const std::string scratch = emu->scratch() + "/divergence";
    fs::create_directories(scratch);
    run_tasks(jobs.size(), ctx.cpu.count(), [&](std::size_t k) {
        auto [state, f] = jobs[k];
        const catalog::Function& fn = state->lab->functions[f];
        if (stopping()) return;
        {
            Token token(ctx.cpu);
            state->divergence[f].first = run_runner(ctx, slot, scratch, "d" + std::to_string(k), {emu->runner(*state->lab)},
                                                    fn.name, input, run_timeout(ctx, "emu", spec.n), true, {"--divergence"});
        }
        state->divergence[f].second = reference_divergence(ctx, slot, *state->lab, fn, spec, input);
    });
}

Component score_divergence(Context& ctx, Slot& slot, LabState& state, LabResult& out) {
    const double weight = ctx.rubric.weights_of(state.lab->id).divergence;
    if (!workspace_for(slot, "emu")) {  // --backend cuda: the metric is the emulator's
        TestResult t = make_test(state.lab->id, *state.lab, "divergence", "control divergence", 0, 0,
                                 "not gradable here: control divergence is measured by the emulator (--backend auto)");
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"divergence", 0, weight, false, "needs the emulator"};
    }
    if (state.emu_off >= 0) {
        const std::string why = "not run: " + simt::summarize("scan.cu", state.limits) +
                                " is beyond the CPU emulator, which measures control divergence";
        TestResult t = make_test(state.lab->id, *state.lab, "divergence", "control divergence", 0, 0, why);
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"divergence", 0, weight, false, why};
    }
    std::string why = skip_reason(state, false);
    if (why.empty() && !state.divergence_ran) why = "not run: no dataset came out right on the emulator";
    if (!why.empty()) {
        out.tests.push_back(make_test(state.lab->id, *state.lab, "divergence", "control divergence", 0, weight, why));
        return {"divergence", 0, weight, true, why};
    }
    const datasets::Spec spec = score::divergence_spec(ctx.rubric.divergence_n);
    const std::vector<float> input = datasets::generate(spec);
    double total = 0;
    std::string text, cause;  // cause: the last recognised one, for the one-line note
    for (std::size_t f = 0; f < state.lab->functions.size(); ++f) {
        const catalog::Function& fn = state.lab->functions[f];
        const auto& [mine, ref] = state.divergence[f];
        if (!ref.ok) throw std::runtime_error("the reference's divergence run failed: " + ref.problem);
        // For report.html's maps (none of a run without a valid result).
        out.divergence.push_back({fn.name, datasets::describe(spec), {}, ref.seen.divergence, ""});
        if (mine.ok) out.divergence.back().mine = mine.seen.divergence;
        const double target = harness::simt_efficiency(ref.seen.divergence);
        bool right = mine.ok;
        if (right)
            for (const auto& c : harness::judge(input, mine.seen, fn.spec, true, fn.name))
                right = right && (c.ok || score::safety_rule(c.rule));
        if (!right) {
            out.divergence.back().not_scored = "not scored: wrong or no outputs on " + datasets::describe(spec);
            text += fn.name + ": " + out.divergence.back().not_scored + "\n";
            continue;
        }
        if (mine.seen.divergence.empty()) {  // an efficiency of no warp at all is no efficiency
            out.divergence.back().not_scored = "not scored: no kernel ran on " + datasets::describe(spec);
            text += fn.name + ": " + out.divergence.back().not_scored + "\n";
            continue;
        }
        const double got = harness::simt_efficiency(mine.seen.divergence);
        const double part =
            score::divergence_part(got, target, ctx.rubric.divergence_full_within, ctx.rubric.divergence_zero_below);
        total += part;
        text += fn.name + ": " +
                score::divergence_line(got, target, datasets::describe(spec), ctx.rubric.divergence_full_within,
                                       ctx.rubric.divergence_zero_below) +
                "\n";
        std::string why;
        const harness::DivergentWarps ref_warps = harness::divergent_warps(ref.seen.divergence);
        if (const std::string found = harness::divergence_cause(fn.name, mine.seen.divergence, ref_warps, &why);
            !found.empty()) {
            cause = found;
            text += "  " + cause + ": " + why + "\n";
        }
        // Where it diverges beyond the reference: the lines a student can act on.
        for (std::size_t l = 0; l < mine.seen.divergence.size(); ++l)
            text += harness::report_beyond(mine.seen.divergence[l], l < ref_warps.size() ? ref_warps[l] : std::vector<unsigned>{}, 6);
    }
    const double score = weight * state.gate * total / static_cast<double>(state.lab->functions.size());
    std::string note = fixed(100 * total / static_cast<double>(state.lab->functions.size()), 0) + "% of the reference's level";
    if (state.gate < 1) note += ", scaled by correctness " + fixed(state.gate * 100, 0) + "%";
    if (!cause.empty() && total < static_cast<double>(state.lab->functions.size())) note += "; " + cause;
    out.tests.push_back(make_test(state.lab->id, *state.lab, "divergence", "control divergence", score, weight, note + "\n" + text));
    return {"divergence", score, weight, true, note};
}

// The GPU timing of one lab's functions against the reference's, the GPU
// held alone by the caller.
void run_timing(Context& ctx, Slot& slot, LabState& state) {
    const Rubric& rubric = ctx.rubric;
    Workspace* cuda = workspace_for(slot, "cuda");
    state.timing_ran = true;
    // scan-bench from the reference's build loads both builds' modules and
    // alternates them in one process (bench/README.md), with CUB's scan and a
    // copy in the same rounds for the HTML report's chart.
    const datasets::Spec spec = score::timing_spec(rubric.timing_n);
    const std::string bench = reference_build(ctx.work, ctx.kit, "cuda", "bench/scan-bench", rubric.build_timeout_s);
    const std::string reference =
        reference_build(ctx.work, ctx.kit, "cuda", "labs/" + state.lab->suite + "-scan.so", rubric.build_timeout_s);
    const std::string scratch = cuda->scratch();
    for (const auto& fn : state.lab->functions) {
        if (stopping()) return;
        const std::string json_path = scratch + "/timing-" + state.lab->suite + "-" + fn.name + ".json";
        const std::string seen_path = scratch + "/timing-" + state.lab->suite + "-" + fn.name + ".bin";
        fs::remove(json_path);
        fs::remove(seen_path);
        if (const auto hung = state.gpu_hung.find(fn.name); hung != state.gpu_hung.end()) {
            state.timings.push_back({"not run: its GPU run on " + hung->second + " timed out", json_path, seen_path, {}});
            continue;
        }
        const std::vector<std::string> command = {
            bench, "--lab", state.lab->id, "--function", fn.name, "--module", cuda->module(*state.lab), "--against",
            reference, "--sizes", std::to_string(spec.n), "--seed", std::to_string(spec.seed),
            "--min-rounds", std::to_string(rubric.timing_min_rounds), "--max-rounds", std::to_string(rubric.timing_max_rounds),
            "--rel-ci", fixed(rubric.timing_rel_ci, 6), "--max-seconds", fixed(rubric.timing_max_seconds, 3),
            "--json", json_path, "--observe", seen_path, "--grading"};
        const double timeout = 2 * rubric.timing_max_seconds + run_timeout(ctx, "cuda", spec.n) + 30;
        const Outcome o = run_contained(command, scratch, {scratch}, Limits{timeout}, ctx.sandbox,
                                        {cuda->build_dir(), fs::path(bench).parent_path().parent_path().string()},
                                        slot.env());
        std::string problem;
        if (!o.ok())
            problem = "the timing program " + o.describe() + (o.output.empty() ? "" : "; its output:\n" + first_lines(o.output, 12));
        state.timings.push_back({problem, json_path, seen_path, {}});
    }
}

// The timed calls' results and outputs, judged after the GPU is released.
void judge_timing(Context& ctx, LabState& state) {
    const datasets::Spec spec = score::timing_spec(ctx.rubric.timing_n);
    std::vector<float> input;
    for (std::size_t f = 0; f < state.timings.size(); ++f) {
        auto& timing = state.timings[f];
        const catalog::Function& fn = state.lab->functions[f];
        if (timing.problem.empty()) {
            try {
                timing.timed = read_timing(timing.json);
                timing.problem = timing.timed.problem;  // scan-bench's own verdict (a wrong call, the copy floor)
                if (timing.problem.empty()) {
                    if (input.empty()) input = datasets::generate(spec);
                    const harness::Observation seen = harness::read_observation(timing.observation);
                    if (seen.n != spec.n) throw std::runtime_error("the outputs are for another input");
                    for (const auto& c : harness::judge(input, seen, fn.spec, true, fn.name))
                        if (!c.ok && timing.problem.empty())
                            timing.problem = "wrong outputs on the timing dataset: " + first_lines(c.message, 3);
                }
            } catch (const std::exception& e) {
                timing.problem = std::string("the timing program left no valid result (") + e.what() + ")";
            }
        }
        fs::remove(timing.json);
        fs::remove(timing.observation);
    }
}

Component score_timing(Context& ctx, Slot& slot, LabState& state, LabResult& out) {
    const Rubric& rubric = ctx.rubric;
    const double weight = rubric.weights_of(state.lab->id).timing;
    Workspace* cuda = workspace_for(slot, "cuda");
    if (!cuda) {
        const std::string why = "not gradable here: " + ctx.device;
        TestResult t = make_test(state.lab->id, *state.lab, "timing", "timing", 0, 0, why);
        if (rubric.no_gpu_full_timing) {
            t.score = weight * state.gate;
            t.max_score = weight;
            t.output = why + "; full points by the rubric's no_gpu policy" +
                       (state.gate < 1 ? ", scaled by correctness " + fixed(state.gate * 100, 0) + "%" : "");
            t.status = state.gate >= 1 ? Status::Passed : Status::Failed;
            out.tests.push_back(t);
            return {"timing", t.score, weight, true, "full points without a GPU (rubric: no_gpu = full)"};
        }
        t.status = Status::NotGradable;
        out.tests.push_back(t);
        return {"timing", 0, weight, false, why};
    }
    std::string why = skip_reason(state, true);
    if (why.empty() && !state.timing_ran) why = "not run: no dataset came out right on the GPU";
    if (!why.empty()) {
        out.tests.push_back(make_test(state.lab->id, *state.lab, "timing", "timing", 0, weight, why));
        return {"timing", 0, weight, true, why};
    }
    const datasets::Spec spec = score::timing_spec(rubric.timing_n);
    double total = 0;
    std::string text;
    for (std::size_t f = 0; f < state.lab->functions.size(); ++f) {
        const std::string& name = state.lab->functions[f].name;
        const std::string& problem = state.timings[f].problem;
        const Timed& t = state.timings[f].timed;
        if (!problem.empty()) {
            text += name + ": not scored: " + problem + "\n";
            continue;
        }
        total += timing_part(rubric, t.median);
        out.timing.push_back({name, datasets::describe(spec), t});
        text += name + ": " + fixed(t.median, 3) + "x the reference's time (" + fixed(t.mine_ms, 4) + " ms against " +
                fixed(t.ref_ms, 4) + " ms" + (t.cub_ms > 0 ? "; CUB's scan " + fixed(t.cub_ms, 4) + " ms" : "") +
                "), median of " + std::to_string(t.rounds) + " alternated rounds (" + std::to_string(t.checked_calls) +
                " calls, each on a new input, every output checked), p10-p90 " +
                fixed(t.p10, 3) + "-" + fixed(t.p90, 3) + ", 95% CI of the median " + fixed(t.ci_low, 3) + "-" +
                fixed(t.ci_high, 3) + "; scored as " + fixed(rounded_ratio(rubric, t.median), 2) + "x on " +
                datasets::describe(spec) + "; full points within " + fixed(rubric.timing_full_within, 2) + "x, none from " +
                fixed(rubric.timing_zero_at, 2) + "x\n";
    }
    const double score = weight * state.gate * total / static_cast<double>(state.lab->functions.size());
    std::string note = text.empty() ? "" : first_lines(text, 1);
    note = note.substr(0, note.find('\n'));
    out.tests.push_back(make_test(state.lab->id, *state.lab, "timing", "timing", score, weight, text));
    return {"timing", score, weight, true, note};
}

// The units of one lab: the public manifest's datasets and the rubric's
// hidden ones, each for every function, their inputs generated here.
void plan_units(const Context& ctx, LabState& state) {
    const catalog::Lab& lab = *state.lab;
    std::size_t hidden_count = 0;
    const auto add = [&](const std::string& cls, const datasets::Spec& spec, bool hidden) {
        hidden_count += hidden;
        for (const auto& fn : lab.functions) {
            Unit u;
            u.cls = cls;
            u.function = fn.name;
            u.spec = spec;
            u.hidden = hidden;
            u.fn = &fn;
            u.input = datasets::generate(spec);
            u.scored = !score::trivial(u.input, fn.spec);
            u.withheld = hidden && !ctx.show_hidden;
            u.what = u.withheld ? "hidden dataset " + std::to_string(hidden_count) + " of lab " + lab.id.substr(0, 2)
                                : (hidden ? "hidden " : "") + datasets::describe(spec) +
                                      (u.scored ? "" : " (no points: the answer equals the input)");
            u.on.resize(ctx.backends.size());
            state.units.push_back(std::move(u));
        }
    };
    for (const auto& entry : datasets::read_manifest(ctx.kit + "/datasets/manifest/" + lab.suite + ".txt"))
        add(entry.cls, entry.spec, false);
    if (const auto hidden = ctx.rubric.hidden.find(lab.id); hidden != ctx.rubric.hidden.end())
        for (const auto& spec : hidden->second) add("hidden", spec, true);
}

// Correctness from the units' verdicts: one test per class (and function),
// points per scored dataset; the findings noted in the units' order.
void score_correctness(const Context& ctx, LabState& state) {
    const catalog::Lab& lab = *state.lab;
    LabResult& out = state.out;
    const Weights& w = ctx.rubric.weights_of(lab.id);
    std::size_t scored = 0, passed = 0;
    for (auto& u : state.units) {
        u.passed = true;
        for (std::size_t b = 0; b < u.on.size(); ++b) {
            if (static_cast<int>(b) == state.emu_off) continue;
            const Verdict& v = u.on[b];
            u.passed = u.passed && v.passed;
            u.feedback += v.feedback;
            for (const auto& [category, f] : v.findings) note_finding(state, category, f);
        }
        if (u.passed) u.feedback = "ok    " + u.what + "\n";
        scored += u.scored;
        passed += u.scored && u.passed;
        u.input = {};
    }
    state.gate = scored ? static_cast<double>(passed) / static_cast<double>(scored) : 0;
    std::vector<std::pair<std::string, std::string>> groups;
    for (const auto& u : state.units)
        if (std::find(groups.begin(), groups.end(), std::make_pair(u.cls, u.function)) == groups.end()) groups.push_back({u.cls, u.function});
    for (const auto& [cls, function] : groups) {
        std::size_t g_scored = 0, g_passed = 0;
        std::string text;
        bool hidden_group = false;
        for (const auto& u : state.units)
            if (u.cls == cls && u.function == function) {
                g_scored += u.scored;
                g_passed += u.scored && u.passed;
                hidden_group = u.hidden;
                text += u.feedback;
            }
        if (!state.block_order.empty())
            text = "emulator: " + state.block_order + "; again in reverse order where a launch ran more than one block\n" + text;
        const double unit = scored ? w.correctness / static_cast<double>(scored) : 0;
        TestResult t = make_test(lab.id, lab, "correctness",
                                 "correctness: " + cls + (lab.functions.size() > 1 ? ", " + function : ""),
                                 unit * static_cast<double>(g_passed), unit * static_cast<double>(g_scored), text);
        t.hidden = hidden_group;
        out.tests.push_back(t);
    }
    out.components.push_back({"correctness", w.correctness * state.gate, w.correctness, true,
                              std::to_string(passed) + " of " + std::to_string(scored) + " datasets right"});
}

// Whether a lab's result is the code's alone, the same on any machine: no
// run of it timed out (how long a run may take depends on the machine's load).
bool decided_by_the_code(const LabState& state) {
    if (state.emu_timeouts > 0 || !state.gpu_hung.empty() || stopping()) return false;
    for (const auto& [mine, reference] : state.divergence)
        if (mine.timed_out || reference.timed_out) return false;
    return true;
}

// The first scan of a library on the rubric's forbid list for the lab that
// scan.cu calls, as the message that rejects it; "" when it calls none. The
// libraries' other names are the emulator's limits, graded on a GPU.
std::string forbidden_library(const Context& ctx, const catalog::Lab& lab, const std::string& source) {
    const auto it = ctx.rubric.forbid.find(lab.id);
    if (it == ctx.rubric.forbid.end()) return "";
    for (const simt::Limit& l : simt::find_library_scans(source))
        if (std::find(it->second.begin(), it->second.end(), l.construct) != it->second.end())
            return "scan.cu:" + std::to_string(l.line) + " calls " + l.construct + "'s scan (`" + l.written +
                   "`), which lab " + lab.id.substr(0, 2) +
                   " does not allow: the lab asks for scan kernels of your own (the rubric's forbid list)";
    return "";
}

// g++ rejecting, on the emulator, a file nvcc compiles: a construct the
// emulator lacks, named by the compiler's first error on the student's file.
simt::Limit rejected_by_gxx(const std::string& errors) {
    static const std::regex first(R"(scan\.cu:([0-9]+):[0-9]+: error: ([^\n]*))");
    std::smatch m;
    if (std::regex_search(errors, m, first)) return {"code the emulator's compiler rejects", m[2], std::stoi(m[1])};
    return {"code the emulator's compiler rejects", first_lines(errors, 1).substr(0, 200), 0};
}

// How a lab's builds came out: the builds that failed and their errors,
// nvcc's first (a file nvcc rejects is the student's compile error, whatever
// the emulator made of it). Where the emulator's g++ rejects a file nvcc
// compiles (the GPU's build, or nvcc alone on a machine without a GPU), that
// is the emulator's gap, not the student's error: it becomes the lab's
// limit, as a construct the limits scan found would.
struct BuildOutcome {
    std::string failed, errors;
};
BuildOutcome judge_build(const Context& ctx, Slot& slot, const std::vector<std::vector<BuildResult>>& builds,
                         std::size_t i, LabState& state) {
    Workspace* emu = workspace_for(slot, "emu");
    Workspace* cuda = workspace_for(slot, "cuda");
    const BuildResult* emu_build = emu ? &builds[index_of(slot, emu)][i] : nullptr;
    std::optional<BuildResult> nvcc;
    if (cuda) nvcc = builds[index_of(slot, cuda)][i];
    else if (emu_build && (!emu_build->ok || !state.limits.empty()))
        nvcc = nvcc_check(ctx.kit, *state.lab, state.file, emu->scratch() + "/nvcc-check", ctx.rubric.build_timeout_s,
                          ctx.sandbox);
    BuildOutcome out;
    const auto fail = [&](const std::string& build, const std::string& errors) {
        out.failed += (out.failed.empty() ? "" : ", ") + build;
        out.errors += (out.errors.empty() ? "" : "\n") + std::string("Compile errors (") + build + "):\n" + errors;
    };
    if (nvcc && !nvcc->ok) fail("cuda", nvcc->errors);
    if (emu_build && !emu_build->ok) {
        if (nvcc && nvcc->ok) state.limits = {rejected_by_gxx(emu_build->errors)};
        else fail("emu", emu_build->errors);
    }
    return out;
}

void check_stop() {
    if (stopping()) throw Stopped();
}

// The table's header: how many hidden datasets each graded lab runs, and how
// the outputs name them.
std::string hidden_summary(const Context& ctx) {
    std::vector<std::pair<std::string, std::size_t>> counts;
    for (const auto& lab : ctx.labs) {
        const auto it = ctx.rubric.hidden.find(lab);
        counts.push_back({lab.substr(0, 2), it == ctx.rubric.hidden.end() ? 0 : it->second.size()});
    }
    bool same = true;
    for (const auto& c : counts) same = same && c.second == counts.front().second;
    std::string text;
    if (counts.empty()) return text;
    if (same)
        text = std::to_string(counts.front().second) + " hidden dataset" + (counts.front().second == 1 ? "" : "s") +
               (counts.size() > 1 ? " a lab" : "");
    else {
        text = "hidden datasets";
        for (std::size_t i = 0; i < counts.size(); ++i)
            text += (i ? ", " : ": ") + std::to_string(counts[i].second) + " in lab " + counts[i].first;
    }
    return text + (ctx.rubric.hidden_seed_from_secret ? " drawn from SCAN_GRADE_SECRET" : "") +
           (ctx.show_hidden ? ", shown in full (--show-hidden: the instructor's copy)"
                            : ", named by number until grades are published");
}

}  // namespace

std::string backend_names(const Context& ctx) {
    std::string names;
    for (const auto& b : ctx.backends) names += (names.empty() ? "" : "+") + b;
    return names;
}

LabResult zero_lab(const Context& ctx, const catalog::Lab& lab, const std::string& test, const std::string& note,
                   const std::string& output) {
    const Weights& w = ctx.rubric.weights_of(lab.id);
    const bool has_cuda = std::find(ctx.backends.begin(), ctx.backends.end(), "cuda") != ctx.backends.end();
    const bool has_emu = std::find(ctx.backends.begin(), ctx.backends.end(), "emu") != ctx.backends.end();
    const bool timing_counts = has_cuda || ctx.rubric.no_gpu_full_timing;
    LabResult out;
    out.lab = lab.id;
    out.note = note;
    out.components = {{"correctness", 0, w.correctness, true, note},
                      {"safety", 0, w.safety, true, note},
                      {"divergence", 0, w.divergence, has_emu, note},
                      {"timing", 0, w.timing, timing_counts, note}};
    double max = 0;
    for (const auto& c : out.components) max += c.gradable ? c.max_score : 0;
    out.tests.push_back(make_test(lab.id, lab, "build", test, 0, max, output));
    return out;
}

LabResult needs_gpu_lab(const Context& ctx, const catalog::Lab& lab, const std::vector<simt::Limit>& limits) {
    const Weights& w = ctx.rubric.weights_of(lab.id);
    LabResult out;
    out.lab = lab.id;
    out.submitted = true;
    out.emulator_limits = limits;
    out.note = "needs a GPU to grade: " + simt::summarize("scan.cu", limits) + " is beyond the CPU emulator";
    for (const auto& [name, weight] : {std::pair<const char*, double>{"correctness", w.correctness}, {"safety", w.safety},
                                       {"divergence", w.divergence}, {"timing", w.timing}})
        out.components.push_back({name, 0, weight, false, out.note});
    std::string text = "This machine has no GPU, and the CPU emulator cannot run this scan.cu:\n";
    for (const simt::Limit& l : limits) text += "  scan.cu:" + std::to_string(l.line) + ": " + simt::describe(l) + "\n";
    text += "This is the kit's limit, not a bug in the code: the lab is graded on a machine with an NVIDIA GPU, and "
            "the gradebook flags it for the instructor.\n";
    TestResult t = make_test(lab.id, lab, "build", "emulator", 0, 0, text);
    t.status = Status::NotGradable;
    out.tests.push_back(t);
    return out;
}

Slot make_slot(Context& ctx, unsigned index) {
    Slot slot;
    if (std::find(ctx.backends.begin(), ctx.backends.end(), "cuda") != ctx.backends.end() && !ctx.gpus.empty()) {
        slot.gpu = static_cast<int>(index % ctx.gpus.size());
        slot.gpu_id = ctx.gpus[slot.gpu];
    }
    for (const auto& backend : ctx.backends)
        slot.workspaces.push_back(std::make_unique<Workspace>(ctx.work + "/slot" + std::to_string(index) + "-" + backend,
                                                              ctx.kit, backend, ctx.rubric.build_timeout_s));
    return slot;
}

Report grade(Context& ctx, Slot& slot, const Submission& sub) {
    const Clock::time_point start = Clock::now();
    PhaseClock clock;
    Report report;
    report.submission = sub.name;
    report.backend = backend_names(ctx);
    report.device = ctx.device;
    report.sandboxed = ctx.sandbox.enabled;
    report.notes.push_back(ctx.sandbox.enabled ? "sandbox: bubblewrap (no network, read-only file system, hidden reference)"
                                               : "no sandbox was used: " + ctx.sandbox.why);
    report.hidden = hidden_summary(ctx);
    if (!sub.ignored.empty()) {
        std::string list;
        for (std::size_t i = 0; i < sub.ignored.size() && i < 8; ++i) list += (i ? ", " : "") + sub.ignored[i];
        if (sub.ignored.size() > 8) list += " and " + std::to_string(sub.ignored.size() - 8) + " more";
        report.notes.push_back("ignored (only each lab's scan.cu and the headers it includes are graded): " + list);
    }
    if (!sub.left_out.empty()) {
        std::string list;
        for (const std::string& l : sub.left_out) list += (list.empty() ? "" : ", ") + l;
        report.notes.push_back("left out unread: " + list);
    }
    const auto progress = [&](const std::string& line) {
        if (ctx.progress) ctx.progress(sub.name + ": " + line);
    };

    // The labs that were submitted and meet the source rules are built, every
    // lab in one Ninja run per backend, the backends at once.
    std::vector<std::unique_ptr<LabState>> states;
    std::vector<std::pair<const catalog::Lab*, LabFile>> to_build;
    for (const auto& id : ctx.labs) {
        auto state = std::make_unique<LabState>();
        state->lab = catalog::find(id);
        LabResult& out = state->out;
        out.lab = id;
        const auto file = sub.files.find(id);
        if (file == sub.files.end()) {
            const auto why = sub.missing.find(id);
            out = why == sub.missing.end()
                      ? zero_lab(ctx, *state->lab, "submitted", "not submitted: no labs/" + id + "/scan.cu",
                                 "No labs/" + id + "/scan.cu in the submission (accepted layouts: " + kLayouts + ").")
                      : zero_lab(ctx, *state->lab, "submitted", "not submitted: " + why->second,
                                 "No file graded as labs/" + id + "/scan.cu: " + why->second + ".");
            if (why != sub.missing.end()) report.flags.push_back(id + ": " + why->second);
        } else {
            out.submitted = true;
            state->file = file->second;
            out.source = read_file(state->file.path);
            for (const std::string& note : state->file.notes) report.notes.push_back(id + ": " + note);
            if (!state->file.flag.empty()) report.flags.push_back(id + ": " + state->file.flag);
            state->limits = simt::find_limits(out.source, ctx.kit + "/simt/include");
            if (!state->file.refused.empty()) {
                out = zero_lab(ctx, *state->lab, "build", "not built: " + state->file.refused,
                               "Not built: " + state->file.refused + "\n");
                out.submitted = true;
            } else if (const std::string broken = source_policy(state->file); !broken.empty()) {
                out = zero_lab(ctx, *state->lab, "build", "rejected by the source rules", "Not built: " + broken + "\n");
                out.submitted = true;
            } else if (const std::string library = forbidden_library(ctx, *state->lab, out.source); !library.empty()) {
                out = zero_lab(ctx, *state->lab, "build", "rejected by the rubric: " + library, "Not built: " + library + "\n");
                out.submitted = true;
            } else if (const std::string key = ctx.cache.on() ? ctx.cache.key(id, graded_text(state->file)) : "";
                       const auto hit = key.empty() ? std::nullopt : ctx.cache.find(key)) {
                out = *hit;
                report.cached.push_back(id);
                progress(id + ": the result of an earlier grading of the same scan.cu, kit and rubric (" +
                         ctx.cache.dir() + "; --no-cache grades it again)");
            } else {
                state->cache_key = key;
                to_build.push_back({state->lab, state->file});
            }
        }
        states.push_back(std::move(state));
    }
    if (!to_build.empty()) progress("building " + std::to_string(to_build.size()) + " lab(s) on " + backend_names(ctx));
    std::vector<std::vector<BuildResult>> builds(slot.workspaces.size());
    run_tasks(slot.workspaces.size(), static_cast<unsigned>(slot.workspaces.size()), [&](std::size_t w) {
        if (to_build.empty()) return;
        Span span{clock, "build " + slot.workspaces[w]->backend()};
        builds[w] = slot.workspaces[w]->build(to_build, ctx.sandbox);
    });
    check_stop();
    std::vector<LabState*> graded;
    for (std::size_t i = 0; i < to_build.size(); ++i) {
        LabState& state = **std::find_if(states.begin(), states.end(), [&](const auto& s) { return s->lab == to_build[i].first; });
        const BuildOutcome b = judge_build(ctx, slot, builds, i, state);
        if (!b.failed.empty()) {
            state.out = zero_lab(ctx, *state.lab, "build", "does not compile (" + b.failed + ")", b.errors);
            state.out.submitted = true;
            continue;
        }
        if (!state.limits.empty() && !workspace_for(slot, "cuda")) {
            state.out = needs_gpu_lab(ctx, *state.lab, state.limits);
            continue;
        }
        if (!state.limits.empty()) {
            state.emu_off = static_cast<int>(index_of(slot, workspace_for(slot, "emu")));
            state.out.note = "graded on the GPU only: " + simt::summarize("scan.cu", state.limits) + " is beyond the CPU emulator";
        }
        state.out.built = true;
        state.out.emulator_limits = state.limits;
        plan_units(ctx, state);
        graded.push_back(&state);
    }

    // Two pipelines at once: on the CPU the emulator's datasets across the
    // cores, then its divergence runs; on the GPU each lab's datasets in one
    // process (the labs at once), then compute-sanitizer, then timing with the
    // GPU alone. Each lab's later work runs where its datasets on that backend
    // had some right (worth_running).
    if (!graded.empty()) {
        std::size_t runs = 0;
        for (const LabState* state : graded) runs += state->units.size();
        progress(std::to_string(runs) + " datasets on " + backend_names(ctx) + ", then safety, divergence, timing");
        Workspace* emu = workspace_for(slot, "emu");
        Workspace* cuda = workspace_for(slot, "cuda");
        std::vector<LabState*> on_emu;
        for (LabState* state : graded)
            if (state->emu_off < 0) on_emu.push_back(state);
        run_tasks(2, 2, [&](std::size_t side) {
            if (side == 0 && emu && !on_emu.empty()) {
                {
                    Span span{clock, "datasets emu"};
                    run_emulator_datasets(ctx, slot, on_emu);
                }
                check_stop();
                Span span{clock, "divergence"};
                run_divergence(ctx, slot, on_emu);
            } else if (side == 1 && cuda) {
                {
                    Span span{clock, "datasets gpu"};
                    run_tasks(graded.size(), static_cast<unsigned>(graded.size()),
                              [&](std::size_t l) { run_gpu_datasets(ctx, slot, *cuda, *graded[l]); });
                }
                check_stop();
                {
                    Span span{clock, "sanitizer"};
                    sanitize(ctx, slot, graded);
                }
                check_stop();
                Span span{clock, "timing"};
                {
                    std::lock_guard<GpuLock> alone(*ctx.gpu_locks[slot.gpu]);
                    for (LabState* state : graded)
                        if (worth_running(*state, index_of(slot, cuda), true)) run_timing(ctx, slot, *state);
                }
                for (LabState* state : graded) judge_timing(ctx, *state);
            }
        });
        check_stop();
        for (LabState* state : graded) {
            score_correctness(ctx, *state);
            for (const auto& [category, f] : state->sanitizer_findings) note_finding(*state, category, f);
            for (const auto& [category, list] : state->findings)
                for (const auto& f : list) state->out.findings.push_back({category, f});
            LabResult& out = state->out;  // in the components' order: correctness, safety, divergence, timing
            out.components.push_back(score_safety(ctx, *state, out));
            out.components.push_back(score_divergence(ctx, slot, *state, out));
            out.components.push_back(score_timing(ctx, slot, *state, out));
            if (!state->cache_key.empty() && decided_by_the_code(*state)) ctx.cache.store(state->cache_key, out);
        }
    }
    for (auto& state : states) report.labs.push_back(std::move(state->out));
    report.phases = clock.phases();
    report.seconds = since(start);
    return report;
}

}  // namespace grader
