// scan-bench: times a lab build on the GPU against a device-to-device copy and
// CUB, or against another build of the same lab, and reads hardware counters
// through Nsight Compute. See bench/README.md.
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "bounds.hpp"
#include "catalog.hpp"
#include "compare.hpp"
#include "counters.hpp"
#include "device.hpp"
#include "generator.hpp"
#include "gpu_lock.hpp"
#include "module.hpp"
#include "observation.hpp"
#include "report.hpp"
#include "result_channel.hpp"
#include "sampler.hpp"
#include "serve.hpp"
#include "worker.hpp"

namespace fs = std::filesystem;
using namespace bench;

namespace {

// A checked call's output was wrong: its size is not scored.
struct WrongOutput : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The reference's worker found no usable device (exit status 77).
struct NoDevice : std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr const char* kUsage = R"(usage: scan-bench [options]
Times each lab function of this build on the GPU, at each size, against cudaMemcpy device to
device and CUB's DeviceScan (or, with --against, against another build of the same lab), and
prints a table; --counters reads hardware counters through ncu.
  --lab N           a lab (01, lab02, 03-exclusive, ...); default: every lab with a module here
  --function NAME   one function of the lab; default: each
  --module FILE     the lab build to time (default: this build's labs/labNN-scan.so)
  --against FILE    another build of the lab, timed alternately: prints the ratio module / against.
                    Each build runs in a worker process of its own (bench/README.md)
  --sizes LIST      element counts, comma-separated, 2^K allowed (default 2^20,2^22,2^24,2^26,2^28)
  --seed S          the input: the walk4 dataset (steps -4..4) of seed S (default 4444)
  --no-baselines    leave out the copy and CUB
  --min-rounds K, --max-rounds K, --rel-ci X, --max-seconds S
                    the stopping rule per size (defaults 20, 400, 0.005, 10): stop once every
                    median's 95% confidence interval is within +-X of it
  --decide F:Z:S    also stop (from --min-rounds on) once the ratio's 95% interval gets one
                    grader's score at both ends: full points within F, none from Z, the ratio
                    rounded to S (the rubric's timing_full_within, timing_zero_at, timing_ratio_step)
  --json FILE       write everything measured as JSON
  --plan FILE       several timings in one process, as the grader times a submission, at one size:
                    each line LAB<TAB>FUNCTION<TAB>MODULE<TAB>AGAINST names FUNCTION of MODULE,
                    timed against AGAINST with the options given. Needs --result-fd: line K's
                    outputs go there first as frame K, then a frame once the GPU is held alone,
                    then line K's timing (its JSON document) as frame K; no table, no file. The
                    process ends at once after the last frame. The first error ends the process
  --device-only N   with one --lab, --function, --module and --result-fd: N elements (up to
                    2^32 - 1) made, scanned by the module and checked on the device alone, above
                    what the host holds; one frame of JSON: wrong outputs, or why it did not run
  --result-fd N     with --plan or --device-only: the grader's result channel
                    (labs/common/result_channel.hpp)
  --gpu-lock PREFIX with --plan or --device-only: the GPU's lock files PREFIX.lock and PREFIX.turn
                    (flock), held shared from the start and alone from the first timing on
                    (--device-only: alone throughout)
  --observe FILE    write the module's outputs on the first size (the grader judges them)
  --grading         as the grader times: every call of the module and of --against on a fresh input
                    made on the device, and its whole output checked; a wrong output or a time
                    under the copy's (needs the baselines) leaves the size not scored, with why
  --counters        per function, hardware counters through ncu (--ncu PATH) on one run of
                    --counters-size elements (default 2^26: far beyond the L2 cache, so DRAM bytes count)
exit status: 0 measured, 1 a device or module error, 2 bad usage, 77 no usable GPU
)";


int usage(const std::string& why) {
    std::cerr << "scan-bench: " << why << "\n" << kUsage;
    return 2;
}

std::optional<std::size_t> parse_size(const std::string& text) {
    try {
        std::size_t used = 0;
        if (text.rfind("2^", 0) == 0) {
            const unsigned long k = std::stoul(text.substr(2), &used);
            if (used + 2 != text.size() || k > 40) return std::nullopt;
            return std::size_t{1} << k;
        }
        const unsigned long long v = std::stoull(text, &used);
        if (used != text.size()) return std::nullopt;
        return static_cast<std::size_t>(v);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string self_path() {
    char buf[PATH_MAX];
    const ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    return len > 0 ? std::string(buf, static_cast<std::size_t>(len)) : "scan-bench";
}

// This build's module of a lab: build/labs/labNN-scan.so beside build/bench/scan-bench.
std::string default_module(const catalog::Lab& lab) {
    return (fs::path(self_path()).parent_path().parent_path() / "labs" / (lab.suite + "-scan.so")).string();
}

double now_s() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Options {
    std::vector<const catalog::Lab*> labs;
    std::string function, module, against, json, observe, plan, ncu = "ncu", gpu_lock, result_fd;
    std::vector<std::size_t> sizes;
    bool baselines = true, counters = false, grading = false;
    std::size_t counters_size = std::size_t{1} << 26;
    std::uint64_t seed = 4444;  // walk4: never all zeros, and every sum exact
    std::optional<std::size_t> once;  // internal: run each function once on n elements (under ncu)
    std::optional<std::size_t> device_only;  // internal: one run made and checked on the device alone
    StopRule rule;
};

// A lab function in a worker: the worker and its job number there.
struct Build {
    Worker* worker;
    std::size_t job;
    std::string path;
};

using JobList = std::vector<std::tuple<std::string, std::string, std::string>>;  // lab, function, module

std::vector<std::string> worker_args(const Options& o, const JobList& jobs) {
    std::vector<std::string> args = {"--seed", std::to_string(o.seed)};
    if (o.grading) args.push_back("--grading");
    for (const auto& [lab, function, path] : jobs) args.insert(args.end(), {"--job", lab, function, path});
    return args;
}

// The device, as the reference's worker sees it; throws NoDevice when it has none usable.
DeviceInfo probe_through(Worker& trusted) {
    const std::string body = trusted.ask("probe").body;
    DeviceInfo dev;
    const std::size_t a = body.find('\t'), b = body.find('\t', a + 1);
    if (a == std::string::npos || b == std::string::npos) throw DeviceError("a device probe out of protocol");
    if (body[0] != '1') throw NoDevice(body.substr(b + 1));
    dev.usable = true;
    dev.l2_bytes = std::stoull(body.substr(a + 1, b - a - 1));
    dev.name = body.substr(b + 1);
    return dev;
}

// Buffers for n elements in each worker: false, with why printed, where the device has too little free.
bool size_all(std::size_t n, std::initializer_list<Worker*> workers) {
    for (Worker* w : workers)
        if (const Reply r = w->ask("size " + std::to_string(n)); r.status == 's') {
            std::cout << r.body << "\n";
            return false;
        }
    return true;
}

// A worker's "time" reply: the call's milliseconds and its output check.
struct CallTime {
    double ms = 0;
    OutputCheck check;
};

CallTime call_time(const Worker& w, const Reply& r) {
    std::istringstream in(r.body);
    CallTime t;
    if (!(in >> t.ms >> t.check.wrong >> t.check.first >> t.check.input_changed))
        throw DeviceError(w.name() + ": a time out of protocol");
    return t;
}

double milliseconds(const Reply& r) {
    std::istringstream in(r.body);
    double ms = 0;
    if (!(in >> ms)) throw DeviceError("a time out of protocol");
    return ms;
}

// What a function's results say before any size is timed.
BenchResult result_of(const Options& o, const DeviceInfo& dev, const catalog::Lab& lab, const catalog::Function& fn,
                      const std::string& mine, const std::string& other) {
    BenchResult r;
    r.device = dev.name;
    r.l2_bytes = dev.l2_bytes;
    r.lab = lab.id;
    r.function = fn.name;
    r.module = mine;
    r.against = other;
    r.rule = o.rule;
    return r;
}

// One function timed at the workers' size: warm-up, then rounds until the
// stopping rule. The student's worker is stopped but while its own call
// runs. `calls` counts the builds' calls across the process, so that in
// grading no two calls share an input's seed, nor an output a stale answer.
SizeResult time_size(const Options& o, std::size_t n, const catalog::Function& fn, const Build& mine, const Build* other,
                     Worker& trusted, std::uint64_t& calls, const Alone* alone) {
    const bool exclusive = fn.spec.kind == datasets::ScanKind::Exclusive;
    // One call of a build. Grading: on an input no call saw before (a
    // result kept from an earlier call, or recognised input, is wrong),
    // then every output checked, not a sample.
    std::uint64_t checked[2] = {0, 0};  // per build, its calls'
    const auto call = [&](const Build& build, unsigned k) {
        const std::string what = fn.name + " of " + build.path;
        const std::uint64_t seed = (o.seed << 32) + ++calls;
        if (k == 0) mine.worker->resume();
        const CallTime t = call_time(*build.worker, build.worker->ask("time " + std::to_string(build.job) + " " + std::to_string(seed)));
        if (k == 0) mine.worker->pause();
        const std::uint64_t wrong = t.check.wrong, first = t.check.first, changed = t.check.input_changed;
        if (o.grading) {
            ++checked[k];
            if (wrong || changed) {
                const std::string why =
                    "its call " + std::to_string(checked[k]) + " (each call on a new input) " +
                    (wrong ? "left " + std::to_string(wrong) + " of " + std::to_string(n) +
                                 " outputs wrong, the first at index " + std::to_string(first)
                           : "modified " + std::to_string(changed) + " input elements") +
                    ": an output kept from an earlier call, or work left unfinished when the call returned, is wrong";
                if (k != 0) throw DeviceError("the build timed against, " + what + ": " + why);
                throw WrongOutput(why);
            }
        }
        return t.ms;
    };
    std::vector<Candidate> cands;
    std::vector<Measure> measures;
    if (o.baselines) {
        cands.push_back({"cudaMemcpy device to device", "copy", {}});
        measures.push_back([&] { return milliseconds(trusted.ask("copy")); });
        cands.push_back({std::string("CUB DeviceScan::") + (exclusive ? "ExclusiveSum" : "InclusiveSum"), "cub", {}});
        measures.push_back([&, exclusive] { return milliseconds(trusted.ask(exclusive ? "cub 1" : "cub 0")); });
    }
    cands.push_back({fn.name + " (module)", "module", {}});
    measures.push_back([&] { return call(mine, 0); });
    std::optional<std::pair<std::size_t, std::size_t>> ratio;
    if (other) {
        cands.push_back({fn.name + " (against)", "against", {}});
        measures.push_back([&] { return call(*other, 1); });
        ratio = std::make_pair(measures.size() - 2, measures.size() - 1);
    }
    SizeResult size;
    size.n = n;
    size.candidates = cands;
    if (alone) size.alone = *alone;
    try {
        for (int warm = 0; warm < 3; ++warm)
            for (const auto& m : measures) m();
        const Sampling s = sample(measures, o.rule, ratio, now_s);
        size.rounds = s.rounds;
        size.stopped = s.stopped;
        for (std::size_t c = 0; c < cands.size(); ++c) size.candidates[c].ms = summarize(s.samples[c]);
        if (ratio) size.ratio = summarize(s.ratios);
        if (o.grading) {
            const Candidate* against = size.find("against");
            size.problem = doubt(alone ? *alone : Alone{}, size.find("module")->ms.median, size.find("copy")->ms.median,
                                 against ? against->ms.median : 0);
        }
    } catch (const WrongOutput& e) {
        size.candidates.clear();  // no time of a wrong answer is shown
        size.problem = e.what();
    }
    size.checked_calls = checked[0];
    return size;
}

// The medians of the copy and of each plan line's reference, `rounds` calls
// each, taken by the reference's worker while no process of the submission
// is alive: the times the alternated rounds are held against.
std::vector<Alone> record_alone(Worker& trusted, const std::vector<std::optional<std::size_t>>& against, const Options& o,
                                std::uint64_t& calls, unsigned rounds = 9) {
    const auto median = [&](const std::function<double()>& f) {
        std::vector<double> ms;
        for (unsigned r = 0; r < rounds; ++r) ms.push_back(f());
        return summarize(ms).median;
    };
    const double copy = median([&] { return milliseconds(trusted.ask("copy")); });
    std::vector<Alone> alone(against.size(), Alone{copy, 0});
    for (std::size_t k = 0; k < against.size(); ++k)
        if (against[k])
            alone[k].against_ms = median([&] {
                const std::uint64_t seed = (o.seed << 32) + ++calls;
                const CallTime t = call_time(trusted, trusted.ask("time " + std::to_string(*against[k]) + " " + std::to_string(seed)));
                if (t.check.wrong || t.check.input_changed)
                    throw DeviceError("the build timed against left a wrong output timed alone");
                return t.ms;
            });
    return alone;
}

// One lab's functions at every size, table mode: the module's and the
// against build's (and the baselines') workers. With --observe, the
// module's outputs on the first size.
std::vector<BenchResult> measure_lab(const Options& o, const catalog::Lab& lab, const std::string& module) {
    JobList mine_jobs, their_jobs;
    std::vector<const catalog::Function*> fns;
    for (const auto& fn : lab.functions) {
        if (!o.function.empty() && fn.name != o.function) continue;
        fns.push_back(&fn);
        mine_jobs.emplace_back(lab.id, fn.name, module);
        if (!o.against.empty()) their_jobs.emplace_back(lab.id, fn.name, o.against);
    }
    const std::string self = self_path();
    Worker trusted(self, worker_args(o, their_jobs), o.against.empty() ? "the baselines" : "the build timed against");
    Worker mine(self, worker_args(o, mine_jobs), "the module");
    const DeviceInfo dev = probe_through(trusted);
    std::vector<BenchResult> out;
    std::uint64_t calls = 0;
    for (std::size_t f = 0; f < fns.size(); ++f) {
        BenchResult r = result_of(o, dev, lab, *fns[f], module, o.against);
        const Build me{&mine, f, module}, them{&trusted, f, o.against};
        for (std::size_t n : o.sizes) {
            if (!size_all(n, {&trusted, &mine})) continue;
            if (!o.observe.empty() && n == o.sizes.front()) {
                const Reply seen = mine.ask("observe " + std::to_string(f));
                harness::write_observation(o.observe, harness::decode_observation(seen.body));
            }
            mine.pause();
            r.sizes.push_back(time_size(o, n, *fns[f], me, o.against.empty() ? nullptr : &them, trusted, calls, nullptr));
            mine.resume();
        }
        out.push_back(r);
    }
    return out;
}

// Runs this program under ncu on one function and parses what ncu printed.
Profile profile(const Options& o, const catalog::Lab& lab, const catalog::Function& fn, const std::string& module, std::size_t n) {
    const std::string cmd = "'" + o.ncu + "' --csv --metrics " + kMetrics + " '" + self_path() + "' --lab " + lab.id +
                            " --function " + fn.name + " --module '" + module + "' --once " + std::to_string(n) + " 2>&1";
    FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return {{}, "cannot run " + o.ncu};
    std::string output;
    char buf[4096];
    for (std::size_t got; (got = fread(buf, 1, sizeof buf, pipe)) > 0;) output.append(buf, got);
    const int status = pclose(pipe);
    Profile p = parse_ncu(output);
    if (p.problem.empty() && status != 0) p.problem = "ncu exited with status " + std::to_string(status);
    if (status != 0 && output.find("not found") != std::string::npos && p.kernels.empty())
        p.problem = "ncu is not installed here (" + o.ncu + "; pass --ncu PATH)";
    return p;
}

struct PlanJob {
    std::string lab, function, module, against;
};

// Writes `doc` to `path` whole or not at all.
void write_json(const std::string& path, const nlohmann::json& doc) {
    const std::string part = path + ".part";
    {
        std::ofstream out(part);
        out << doc.dump(1) << "\n";
        if (!out.flush()) throw std::runtime_error("cannot write " + path);
    }
    fs::rename(part, path);
}

// A plan's functions at its one size, as the grader times a submission. A
// frame of the result channel per step marks the progress: every
// observation, then `held`, then every timing.
//  1. The GPU shared with other work: the submission's worker writes each
//     function's outputs on the dataset, and is then killed with every
//     process it left (its device work goes with its context).
//  2. The GPU held alone: the reference's worker records the copy's and
//     each reference's time while no process of the submission is alive.
//  3. A new worker of the submission; each function timed, alternated with
//     the reference in the other worker, against the bounds (bounds.hpp).
int run_plan(const Options& o, const std::vector<PlanJob>& plan, gpu_lock::Hold& gpu, int fd) {
    using harness::channel::Kind;
    JobList mine_jobs, their_jobs;
    std::vector<std::optional<std::size_t>> against(plan.size());
    for (std::size_t k = 0; k < plan.size(); ++k) {
        mine_jobs.emplace_back(plan[k].lab, plan[k].function, plan[k].module);
        if (!plan[k].against.empty()) {
            against[k] = their_jobs.size();
            their_jobs.emplace_back(plan[k].lab, plan[k].function, plan[k].against);
        }
    }
    const std::string self = self_path();
    Worker trusted(self, worker_args(o, their_jobs), "the reference's build");
    auto mine = std::make_unique<Worker>(self, worker_args(o, mine_jobs), "the submission's build");
    const DeviceInfo dev = probe_through(trusted);
    const std::size_t n = o.sizes.front();
    // Where the device has too little free: no outputs, no times.
    const bool fits = size_all(n, {&trusted, mine.get()});
    if (fits)
        for (std::size_t k = 0; k < plan.size(); ++k)
            harness::channel::send(fd, Kind::observation, k, mine->ask("observe " + std::to_string(k)).body);
    mine->stop();
    end_strays(trusted.pid());
    if (gpu.held()) gpu.become(gpu_lock::Mode::exclusive);
    harness::channel::send(fd, Kind::held, 0, "");
    std::uint64_t calls = 0;
    std::vector<Alone> alone;
    if (fits && o.grading && o.baselines) alone = record_alone(trusted, against, o, calls);
    if (fits) {
        mine = std::make_unique<Worker>(self, worker_args(o, mine_jobs), "the submission's build");
        if (!size_all(n, {mine.get()})) throw DeviceError("the device had no room left for the submission's build");
        mine->pause();
    }
    for (std::size_t k = 0; k < plan.size(); ++k) {
        const catalog::Lab& lab = *catalog::find(plan[k].lab);
        const catalog::Function& fn = *std::find_if(lab.functions.begin(), lab.functions.end(),
                                                    [&](const auto& f) { return f.name == plan[k].function; });
        BenchResult r = result_of(o, dev, lab, fn, plan[k].module, plan[k].against);
        const Build me{mine.get(), k, plan[k].module};
        const Build them{&trusted, against[k].value_or(0), plan[k].against};
        if (fits)
            r.sizes.push_back(time_size(o, n, fn, me, against[k] ? &them : nullptr, trusted, calls,
                                        alone.empty() ? nullptr : &alone[k]));
        harness::channel::send(fd, Kind::timing, k,
                               document(dev.name, nlohmann::json::array({to_json(r)}), nlohmann::json::array()).dump(1));
    }
    return 0;
}

// One function on n elements made, run and checked on the device alone,
// above what the host holds (grading's datasets above 2^31 elements): the
// submission's worker runs it (DeviceOnlyRun); the other worker, which never
// ran the submission's code, checks the output while the first is stopped;
// then the first and all it left are killed. One frame of the result
// channel: {"n", "wrong", "first", "input_changed"}, or {"n", "skipped"}
// where the device has too little memory, or {"n", "problem"} where the run
// failed (a CUDA error, the worker's end).
int run_device_only(const Options& o, const catalog::Lab& lab, const std::string& function, int fd) {
    const catalog::Function& fn = *std::find_if(lab.functions.begin(), lab.functions.end(),
                                                [&](const auto& f) { return f.name == function; });
    const std::size_t n = *o.device_only;
    const std::string self = self_path();
    Worker checker(self, worker_args(o, {}), "the checker");
    Worker mine(self, worker_args(o, {{lab.id, fn.name, o.module}}), "the submission's build");
    nlohmann::json out{{"n", n}};
    try {
        const Reply r = mine.ask("alone 0 " + std::to_string(n) + " " + std::to_string(o.seed));
        mine.pause();
        if (r.status == 's') out["skipped"] = r.body;
        else {
            const bool exclusive = fn.spec.kind == datasets::ScanKind::Exclusive;
            std::istringstream c(checker.ask("verify " + std::to_string(n) + " " + std::to_string(o.seed) + " " +
                                             (exclusive ? "1 " : "0 ") + std::to_string(fn.spec.section) + " " + r.body)
                                     .body);
            std::uint64_t wrong = 0, first = 0, changed = 0;
            if (!(c >> wrong >> first >> changed)) throw DeviceError("the checker's reply is out of protocol");
            out["wrong"] = wrong;
            out["first"] = first;
            out["input_changed"] = changed;
        }
    } catch (const DeviceError& e) {
        out["problem"] = e.what();
    }
    mine.stop();
    end_strays(checker.pid());
    harness::channel::send(fd, harness::channel::Kind::device_only, 0, out.dump());
    return 0;
}

int run_once(const Options& o, const catalog::Lab& lab, const Module& mine) {
    const std::size_t n = *o.once;
    const DeviceInfo dev = probe();
    Buffers b(harness::guarded(datasets::generate({datasets::Distribution::Walk4, n, o.seed})), n, 1, compare::poison(),
              dev.l2_bytes);
    for (const auto& fn : lab.functions)
        if (o.function.empty() || fn.name == o.function)
            b.run([&] { mine.function(fn.name).run(b.in(), b.out(0), n); }, fn.name);
    return 0;
}

// scan-bench --worker FD --seed S [--grading] --job LAB FUNCTION MODULE...:
// internal, the coordinator's own command line for a worker (worker.hpp).
int worker_main(int argc, char** argv) {
    WorkerOptions w;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--worker" && i + 1 < argc) w.fd = std::atoi(argv[++i]);
        else if (arg == "--seed" && i + 1 < argc) w.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--grading") w.grading = true;
        else if (arg == "--job" && i + 3 < argc) {
            w.jobs.emplace_back(argv[i + 1], argv[i + 2], argv[i + 3]);
            i += 3;
        } else return usage("a worker's command line is scan-bench's own: " + arg);
    }
    serve(w);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::string(argv[1]) == "--worker") return worker_main(argc, argv);
    Options o;
    std::string sizes = "2^20,2^22,2^24,2^26,2^28";
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool value = i + 1 < argc;
        const auto number = [&](double& into) {
            try {
                into = std::stod(argv[++i]);
                return true;
            } catch (const std::exception&) {
                return false;
            }
        };
        double x = 0;
        if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            return 0;
        } else if (arg == "--lab" && value) {
            const catalog::Lab* lab = catalog::find(argv[++i]);
            if (!lab) return usage(std::string("no lab ") + argv[i]);
            o.labs.push_back(lab);
        } else if (arg == "--function" && value) o.function = argv[++i];
        else if (arg == "--module" && value) o.module = argv[++i];
        else if (arg == "--against" && value) o.against = argv[++i];
        else if (arg == "--sizes" && value) sizes = argv[++i];
        else if (arg == "--json" && value) o.json = argv[++i];
        else if (arg == "--observe" && value) o.observe = argv[++i];
        else if (arg == "--plan" && value) o.plan = argv[++i];
        else if (arg == "--gpu-lock" && value) o.gpu_lock = argv[++i];
        else if (arg == "--result-fd" && value) o.result_fd = argv[++i];
        else if (arg == "--ncu" && value) o.ncu = argv[++i];
        else if (arg == "--seed" && value) {
            const auto seed = parse_size(argv[++i]);
            if (!seed) return usage("--seed takes a non-negative integer");
            o.seed = *seed;
        }
        else if (arg == "--no-baselines") o.baselines = false;
        else if (arg == "--grading") o.grading = true;
        else if (arg == "--counters") o.counters = true;
        else if (arg == "--counters-size" && value) {
            const auto n = parse_size(argv[++i]);
            if (!n || *n == 0 || *n > 0xffffffffu) return usage("--counters-size takes an element count");
            o.counters_size = *n;
        }
        else if (arg == "--device-only" && value) {
            o.device_only = parse_size(argv[++i]);
            if (!o.device_only || *o.device_only == 0 || *o.device_only > 0xffffffffu)
                return usage("--device-only takes an element count from 1 to 2^32 - 1");
        } else if (arg == "--once" && value) {
            o.once = parse_size(argv[++i]);
            if (!o.once) return usage("--once takes an element count");
        } else if (arg == "--min-rounds" && value && number(x) && x >= 3) o.rule.min_rounds = static_cast<unsigned>(x);
        else if (arg == "--max-rounds" && value && number(x) && x >= 3) o.rule.max_rounds = static_cast<unsigned>(x);
        else if (arg == "--rel-ci" && value && number(x) && x > 0) o.rule.rel_ci = x;
        else if (arg == "--max-seconds" && value && number(x) && x > 0) o.rule.max_seconds = x;
        else if (arg == "--decide" && value) {
            ScoreSteps d;
            char tail = 0;
            if (std::sscanf(argv[++i], "%lf:%lf:%lf%c", &d.full_within, &d.zero_at, &d.step, &tail) != 3 ||
                !(d.full_within > 0 && d.zero_at > d.full_within && d.step >= 0))
                return usage("--decide takes FULL:ZERO:STEP, e.g. 1.2:3:0.05, with 0 < FULL < ZERO and STEP >= 0");
            o.rule.decide = d;
        }
        else return usage("unknown option, missing or bad value: " + arg);
    }
    for (std::size_t start = 0; start <= sizes.size();) {
        const std::size_t end = std::min(sizes.find(',', start), sizes.size());
        const auto n = parse_size(sizes.substr(start, end - start));
        if (!n || *n == 0 || *n > 0xffffffffu) return usage("--sizes: \"" + sizes.substr(start, end - start) + "\" is not a count from 1 to 2^32 - 1");
        o.sizes.push_back(*n);
        start = end + 1;
    }
    if (o.rule.min_rounds > o.rule.max_rounds) return usage("--min-rounds is above --max-rounds");
    if (o.grading && !o.baselines) return usage("--grading needs the baselines: the copy is the floor no scan's time may be under");
    std::vector<PlanJob> plan;
    int plan_fd = -1;
    if (!o.plan.empty()) {
        if (!o.labs.empty() || !o.function.empty() || !o.module.empty() || !o.against.empty() || !o.json.empty() ||
            !o.observe.empty() || o.counters || o.once)
            return usage("--plan names each timing's lab, function, modules and files itself");
        std::ifstream in(o.plan);
        if (!in) return usage("cannot read the plan " + o.plan);
        for (std::string line; std::getline(in, line);) {
            if (line.empty()) continue;
            PlanJob job;
            std::vector<std::string*> fields = {&job.lab, &job.function, &job.module, &job.against};
            std::size_t start = 0;
            for (std::size_t f = 0; f < fields.size(); ++f) {
                const std::size_t end = f + 1 < fields.size() ? line.find('\t', start) : line.size();
                if (end == std::string::npos) return usage("a plan line needs four tab-separated fields: " + line);
                *fields[f] = line.substr(start, end - start);
                start = end + 1;
            }
            const catalog::Lab* lab = catalog::find(job.lab);
            if (!lab) return usage("the plan names no lab " + job.lab);
            if (std::none_of(lab->functions.begin(), lab->functions.end(), [&](const auto& fn) { return fn.name == job.function; }))
                return usage("the plan names no function " + job.function + " in lab " + lab->id);
            plan.push_back(job);
        }
        if (plan.empty()) return usage("the plan " + o.plan + " is empty");
        if (o.sizes.size() != 1) return usage("--plan times one size: give --sizes one count");
        if (o.result_fd.empty()) return usage("--plan needs --result-fd");
        try {
            plan_fd = harness::channel::parse_fd(o.result_fd);
        } catch (const std::exception& e) {
            return usage(e.what());
        }
    } else if (o.labs.empty()) {
        for (const auto& lab : catalog::labs())
            if (!o.module.empty() || fs::exists(default_module(lab))) o.labs.push_back(&lab);
        if (o.labs.empty()) return usage("no lab modules next to this scan-bench (build with nvcc); name one with --module");
    }
    int device_only_fd = -1;
    if (o.device_only) {
        if (o.labs.size() != 1 || o.function.empty() || o.module.empty() || o.result_fd.empty())
            return usage("--device-only needs one --lab, --function, --module and --result-fd");
        try {
            device_only_fd = harness::channel::parse_fd(o.result_fd);
        } catch (const std::exception& e) {
            return usage(e.what());
        }
    } else if (o.plan.empty() && (!o.gpu_lock.empty() || !o.result_fd.empty()))
        return usage("--gpu-lock and --result-fd go with --plan or --device-only");
    if (o.labs.size() > 1 && (!o.module.empty() || !o.against.empty()))
        return usage("--module and --against need one --lab");
    if (!o.function.empty()) {
        bool known = false;
        for (const auto* lab : o.labs)
            for (const auto& fn : lab->functions) known = known || fn.name == o.function;
        if (!known) return usage("no function " + o.function + " in the labs asked for");
    }

    try {
        if (o.once) {
            const catalog::Lab& lab = *o.labs.front();
            return run_once(o, lab, load_module(o.module.empty() ? default_module(lab) : o.module, lab.id));
        }
        guard_coordinator();
        // Held shared from before the device is first touched: the start-up
        // (contexts, modules, buffers, outputs) may share the GPU; the timing may not.
        gpu_lock::Hold gpu;
        if (!o.gpu_lock.empty()) gpu = gpu_lock::Hold(o.gpu_lock, gpu_lock::Mode::shared);
        // No return from main after a plan: exit handlers never run after the last frame.
        if (!plan.empty()) harness::channel::finish(run_plan(o, plan, gpu, plan_fd));
        if (o.device_only) {
            // Alone on the GPU: its 2 x 4n bytes would not fit beside other runs'.
            if (gpu.held()) gpu.become(gpu_lock::Mode::exclusive);
            harness::channel::send(device_only_fd, harness::channel::Kind::held, 0, "");
            harness::channel::finish(run_device_only(o, *o.labs.front(), o.function, device_only_fd));
        }
        nlohmann::json results = nlohmann::json::array(), counters = nlohmann::json::array();
        std::string device;
        for (const auto* lab : o.labs) {
            const std::string module = o.module.empty() ? default_module(*lab) : o.module;
            for (const BenchResult& r : measure_lab(o, *lab, module)) {
                device = r.device;
                std::cout << table(r) << std::flush;
                results.push_back(to_json(r));
                if (o.counters) {
                    const catalog::Function& fn = *std::find_if(lab->functions.begin(), lab->functions.end(),
                                                                [&](const auto& f) { return f.name == r.function; });
                    const Profile p = profile(o, *lab, fn, module, o.counters_size);
                    std::cout << counters_report(fn.name, o.counters_size, p) << std::flush;
                    counters.push_back(counters_json(fn.name, o.counters_size, p));
                }
            }
        }
        if (!o.json.empty()) write_json(o.json, document(device, results, counters));
    } catch (const NoDevice& e) {
        std::cout << "SKIP: no usable CUDA device: " << e.what() << "\n";
        if (!plan.empty()) harness::channel::finish(77);
        return 77;
    } catch (const std::exception& e) {
        std::cerr << "scan-bench: " << e.what() << "\n";
        if (!plan.empty()) harness::channel::finish(1);
        return 1;
    }
    return 0;
}
