#include "grader/grading/pipeline.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "grader/core/files.hpp"
#include "grader/core/hash.hpp"
#include "grader/core/sanitizer.hpp"
#include "grader/outputs/outputs.hpp"
#include "manifest.hpp"
#include "score.hpp"

namespace grader {

namespace {

const std::string& gpu_lock(const Context& ctx, const Slot& slot) {
    static const std::string none;
    return slot.gpu < 0 ? none : ctx.gpu_locks[static_cast<std::size_t>(slot.gpu)];
}

}  // namespace

void plan_units(Context& ctx, LabState& state) {
    const catalog::Lab& lab = *state.lab;
    std::size_t hidden_count = 0;
    const auto add = [&](const std::string& cls, const datasets::Spec& spec, bool hidden, bool device_only) {
        hidden_count += hidden;
        for (const auto& fn : lab.functions) {
            Unit u;
            u.cls = cls;
            u.function = fn.name;
            u.spec = spec;
            u.hidden = hidden;
            u.device_only = device_only;
            u.fn = &fn;
            if (!device_only) u.input = ctx.datasets.get(spec);
            u.scored = device_only || !score::trivial(*u.input, fn.spec);
            u.withheld = hidden && !ctx.show_hidden;
            u.what = u.withheld ? "hidden dataset " + std::to_string(hidden_count) + " of lab " + lab.id.substr(0, 2)
                                : (hidden ? "hidden " : "") + datasets::describe(spec) +
                                      (u.scored ? "" : " (no points: the answer equals the input)");
            u.on.resize(ctx.backends.size());
            if (const int emu = backend_index(ctx, "emu"); device_only && emu >= 0)
                u.on[static_cast<std::size_t>(emu)].passed = u.on[static_cast<std::size_t>(emu)].skipped = true;
            state.units.push_back(std::move(u));
        }
    };
    for (const auto& entry : datasets::read_manifest(ctx.kit + "/datasets/manifest/" + lab.suite + ".txt"))
        add(entry.cls, entry.spec, false, false);
    if (const auto hidden = ctx.rubric.hidden.find(lab.id); hidden != ctx.rubric.hidden.end())
        for (const auto& spec : hidden->second) add("hidden", spec, true, false);
    // Only where a GPU grades: the emulator cannot hold it.
    if (const auto big = ctx.rubric.gpu_only.find(lab.id); big != ctx.rubric.gpu_only.end() && backend_index(ctx, "cuda") >= 0)
        add("hidden", big->second, true, true);
}

// After give_up_after timeouts in a lab its remaining datasets are not run.
constexpr long long kLargeRun = 1 << 16;  // elements: about 0.1 s on the emulator
// The reversed run is for code that is right only in some block order; that
// shows once a launch has more blocks than the emulator starts at once (4),
// which every dataset of up to 2^17 elements with more than one section has.
// Above that it would double the emulator's largest runs for nothing more.
constexpr std::size_t kReversedMax = 1 << 17;

// With a GPU, the emulator leaves a clean lab's datasets above
// emulator_with_gpu_max_n to the GPU, and the feedback names that size, so
// a bug written to show only above it (a fence or ticket dropped for large
// n) would keep its safety points. One of those datasets runs on the
// emulator all the same: chosen by the course's secret and the lab's code,
// so it is the same for a resubmission of the same code and cannot be known
// without the secret. None where the lab has no scored large dataset.
const Unit* secret_large(const Context& ctx, const LabState& state, const std::function<bool(const LabState&, const Unit&)>& large) {
    std::vector<const Unit*> candidates;
    for (const Unit& unit : state.units)
        if (unit.scored && !unit.device_only && large(state, unit)) candidates.push_back(&unit);
    if (candidates.empty()) return nullptr;
    const std::uint64_t pick =
        Hash().add(std::to_string(ctx.rubric.hidden_seed)).add(state.lab->id).add(state.out.source).h;
    return candidates[pick % candidates.size()];
}
void run_emulator_datasets(Context& ctx, Slot& slot, std::vector<LabState*>& labs, const std::shared_future<void>& gpu_judged) {
    const int emu = backend_index(ctx, "emu");
    if (emu < 0) return;
    const auto b = static_cast<std::size_t>(emu);
    const std::string on = on_label(ctx, "emu");
    const auto run_one = [&](LabState& state, Unit& unit) {
        if (stopping()) return;
        if (state.emu_timeouts >= ctx.rubric.give_up_after) {
            unit.on[b] = not_run(unit, on, "after " + std::to_string(state.emu_timeouts.load()) + " timeouts in this lab");
            return;
        }
        Run r;
        double seconds = 0;
        {
            Token token(ctx.cpu);
            const bool reversed = unit.input->size() <= kReversedMax;  // two runs, twice the time
            const Clock::time_point start = Clock::now();
            r = slot.exec->emulate(*state.lab, unit.function, *unit.input,
                                   (reversed ? 2 : 1) * run_timeout(ctx, "emu", unit.input->size()),
                                   reversed ? Trace::reversed_too : Trace::none);
            seconds = since(start);
        }
        if (r.ok && !r.seen.block_order.empty()) {
            std::lock_guard<std::mutex> lock(state.mutex);
            state.block_order = r.seen.block_order;
        }
        state.emu_timeouts += r.timed_out;
        unit.on[b] = judge_run(unit, on, r);
        unit.on[b].seconds = seconds;
    };
    // Where a GPU judges every dataset, a lab's datasets above its
    // emulator_with_gpu_max_n (rubric) run on the emulator only where a smaller
    // one found something: a wrong output, a finding, a timeout. On the
    // grader's corpus every bug the emulator shows on a large dataset it shows
    // on a smaller one too, so a clean lab's large runs would only repeat the
    // GPU's verdict, at most of the emulator's time.
    const bool gpu = backend_index(ctx, "cuda") >= 0;
    const auto large = [&](const LabState& state, const Unit& unit) {
        const std::size_t max_n = gpu ? ctx.rubric.emulator_max_n(state.lab->id) : 0;
        return max_n != 0 && unit.spec.n > max_n;
    };
    // First each lab's smallest datasets, one at a time, until one ends in
    // time: a kernel that hangs everywhere costs give_up_after timeouts, not
    // one per core.
    std::vector<std::vector<const Unit*>> probed(labs.size());
    run_tasks(labs.size(), static_cast<unsigned>(labs.size()), [&](std::size_t l) {
        LabState& state = *labs[l];
        std::vector<Unit*> small;
        for (auto& unit : state.units)
            if (unit.scored && !unit.device_only && !large(state, unit)) small.push_back(&unit);
        std::stable_sort(small.begin(), small.end(), [](const Unit* a, const Unit* b) { return a->input->size() < b->input->size(); });
        for (Unit* unit : small) {
            if (state.emu_timeouts >= ctx.rubric.give_up_after || stopping()) break;
            run_one(state, *unit);
            probed[l].push_back(unit);
            if (!unit->on[b].timed_out) break;
        }
    });
    // Then the rest across the cores: small ones first, then the large ones,
    // largest first, so the cores finish together.
    const auto run_all = [&](const std::function<bool(const LabState&, const Unit&)>& wanted) {
        std::vector<std::pair<LabState*, Unit*>> runs;
        for (std::size_t l = 0; l < labs.size(); ++l)
            for (auto& unit : labs[l]->units)
                if (!unit.device_only && wanted(*labs[l], unit) &&
                    std::find(probed[l].begin(), probed[l].end(), &unit) == probed[l].end())
                    runs.push_back({labs[l], &unit});
        const auto order = [](const Unit* u) {
            const auto n = static_cast<long long>(u->input->size());
            return n < kLargeRun ? std::make_pair(0, n) : std::make_pair(1, -n);
        };
        std::stable_sort(runs.begin(), runs.end(), [&](const auto& x, const auto& y) { return order(x.second) < order(y.second); });
        run_tasks(runs.size(), ctx.cpu.count(), [&](std::size_t k) { run_one(*runs[k].first, *runs[k].second); });
    };
    run_all([&](const LabState& state, const Unit& unit) { return !large(state, unit); });
    std::vector<const Unit*> secret_runs;  // secret_large's, run even where nothing smaller found anything
    for (LabState* state : labs) {
        bool found = state->emu_timeouts > 0;
        for (const Unit& unit : state->units)
            found = found || (!unit.device_only && !large(*state, unit) && (!unit.on[b].passed || !unit.on[b].findings.empty()));
        if (found) continue;
        const Unit* secret = secret_large(ctx, *state, large);
        if (secret) secret_runs.push_back(secret);
        for (Unit& unit : state->units)
            if (!unit.device_only && large(*state, unit) && &unit != secret) {
                unit.on[b].passed = unit.on[b].skipped = true;
                state->emu_skipped = true;
            }
    }
    // A large dataset the GPU failed fails whatever the emulator finds, and on
    // the grader's corpus the emulator found nothing on one that it had not
    // found on a smaller dataset of the lab: it runs only those the GPU got
    // right (where a race or a read of uninitialised memory the hardware hid
    // fails them). Lab 04's and 05's largest are the emulator's longest runs.
    const auto remaining = [&](const LabState& state, const Unit& unit) {
        return !unit.device_only && large(state, unit) && !unit.on[b].skipped;
    };
    bool any = false;
    for (LabState* state : labs)
        for (const Unit& unit : state->units) any = any || remaining(*state, unit);
    const int cuda = backend_index(ctx, "cuda");
    if (any && cuda >= 0 && gpu_judged.valid()) {
        gpu_judged.wait();
        for (LabState* state : labs) {
            if (!state->gpu_judged) continue;
            for (Unit& unit : state->units)
                if (remaining(*state, unit) && !unit.on[static_cast<std::size_t>(cuda)].passed) {
                    unit.on[b].passed = unit.on[b].skipped = true;
                    state->emu_spared = true;
                }
        }
    }
    run_all(remaining);
    // A clean run of the secret one reads as the others, left to the GPU:
    // the feedback never tells which it was.
    for (LabState* state : labs)
        for (Unit& unit : state->units)
            if (std::count(secret_runs.begin(), secret_runs.end(), &unit) && unit.on[b].passed && unit.on[b].findings.empty())
                unit.on[b].skipped = true;
}

void run_divergence(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    const int emu = backend_index(ctx, "emu");
    if (emu < 0) return;
    const datasets::Spec spec = score::divergence_spec(ctx.rubric.divergence_n);
    const std::vector<float>& input = *ctx.datasets.get(spec);
    std::vector<std::pair<LabState*, std::size_t>> jobs;
    for (LabState* state : labs) {
        if (!worth_running(*state, static_cast<std::size_t>(emu), false)) continue;
        state->divergence_ran = true;
        state->divergence.resize(state->lab->functions.size());
        for (std::size_t f = 0; f < state->lab->functions.size(); ++f) jobs.push_back({state, f});
    }
    run_tasks(jobs.size(), ctx.cpu.count(), [&](std::size_t k) {
        auto [state, f] = jobs[k];
        const catalog::Function& fn = state->lab->functions[f];
        if (stopping()) return;
        {
            Token token(ctx.cpu);
            state->divergence[f].first =
                slot.exec->emulate(*state->lab, fn.name, input, run_timeout(ctx, "emu", spec.n), Trace::divergence);
        }
        state->divergence[f].second = slot.exec->reference_divergence(*state->lab, fn, spec, input);
    });
}

// Every lab's datasets in one process (scan-run --plan), so the CUDA context
// is made once a submission; a run that leaves the device unusable or
// crashes the process costs a new process for the rest, and a run that hangs
// costs a timeout of its function only: the other functions' runs go on in a
// new process (a lab 03 whose Kogge-Stone hangs keeps its Brent-Kung's
// points), and that function's later compute-sanitizer and timing runs are
// skipped. Function names are unique across labs.
void run_gpu_datasets(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    const auto b = static_cast<std::size_t>(backend_index(ctx, "cuda"));
    const std::string on = on_label(ctx, "cuda");
    struct Ref {
        LabState* state;
        Unit* unit;
    };
    std::vector<Ref> pending;  // the units still to run, in order; the first is the next process's first
    for (LabState* state : labs)
        for (Unit& unit : state->units)
            if (!unit.device_only) pending.push_back({state, &unit});  // run_device_only's
    std::map<std::string, unsigned> hangs;  // function -> its GPU runs that timed out
    while (!pending.empty() && !stopping()) {
        std::vector<LabCall> calls;
        for (const Ref& r : pending) calls.push_back({r.state->lab, r.unit->function, r.unit->spec, r.unit->input.get()});
        PlanRun run;
        {
            SharedGpu gpu(gpu_lock(ctx, slot));
            run = slot.exec->gpu_plan(calls);
        }
        std::size_t p = 0;
        for (; p < run.done.size(); ++p) pending[p].unit->on[b] = judge_run(*pending[p].unit, on, run.done[p]);
        if (p == pending.size()) break;
        if (run.restart && p > 0) {  // the run before this one left the device unusable: the rest in a new process
            pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(p));
            continue;
        }
        const Ref failed = pending[p];
        failed.unit->on[b] = judge_run(*failed.unit, on, run.failed);
        std::vector<Ref> rest(pending.begin() + static_cast<std::ptrdiff_t>(p) + 1, pending.end());
        pending.clear();
        if (run.failed.timed_out) {
            // The others' runs go on. That function's go on smallest first (a
            // hang that grows with n then costs only the runs it hangs on)
            // until it has timed out give_up_after times; then the rest are
            // not run.
            const std::string& function = failed.unit->function;
            failed.state->gpu_hung.emplace(function, failed.unit->what);
            const bool give_up = ++hangs[function] >= ctx.rubric.give_up_after;
            std::vector<Ref> its;
            for (const Ref& r : rest) (r.unit->function == function ? its : pending).push_back(r);
            std::stable_sort(its.begin(), its.end(),
                             [](const Ref& x, const Ref& y) { return x.unit->input->size() < y.unit->input->size(); });
            for (const Ref& r : its)
                if (give_up)
                    r.unit->on[b] = not_run(*r.unit, on, function + "'s GPU runs timed out " + std::to_string(hangs[function]) +
                                                             " times, the last on " + failed.unit->what);
                else
                    pending.push_back(r);
        } else if (run.cannot_run) {
            for (const Ref& r : rest) r.unit->on[b] = not_run(*r.unit, on, run.failed.problem);
        } else {
            pending = rest;
        }
    }
    if (!stopping())
        for (LabState* state : labs) state->gpu_judged = true;
}

// The datasets above what the host holds, each function's made, run and
// checked on the GPU alone (Executor::device_only), after the others: a
// function whose GPU run hung is not run again. Where it fails and every
// other dataset of the function passed on the GPU, the likely cause is an
// index held in 32 bits: the hint says so (withheld or not), and names no
// more of the dataset than that it is above 2^31 elements.
void run_device_only(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    const int cuda = backend_index(ctx, "cuda");
    if (cuda < 0) return;
    const auto b = static_cast<std::size_t>(cuda);
    const std::string on = on_label(ctx, "cuda");
    for (LabState* state : labs)
        for (Unit& unit : state->units) {
            if (!unit.device_only || stopping()) continue;
            if (const auto hung = state->gpu_hung.find(unit.function); hung != state->gpu_hung.end()) {
                unit.on[b] = not_run(unit, on, "its GPU run on " + hung->second + " timed out");
                continue;
            }
            const DeviceOnlyCheck c = slot.exec->device_only(*state->lab, *unit.fn, unit.spec, gpu_lock(ctx, slot));
            Run r;
            if (!c.skipped.empty()) {  // no fault of the code: left out of the score
                unit.scored = false;
                unit.on[b].passed = unit.on[b].skipped = true;
                unit.what += " (not run: " + c.skipped + ")";
                continue;
            }
            r.timed_out = c.timed_out;
            r.problem = c.problem;
            if (r.problem.empty() && (c.wrong || c.input_changed))
                r.problem = c.wrong ? std::to_string(c.wrong) + " of " + std::to_string(unit.spec.n) +
                                          " outputs wrong, the first at index " + std::to_string(c.first)
                                    : std::to_string(c.input_changed) + " input elements modified";
            r.ok = r.problem.empty();
            if (r.ok) {
                unit.on[b].passed = true;
                continue;
            }
            unit.on[b] = judge_run(unit, on, r);  // a failed run: its problem, withheld where the unit is
            bool rest_passed = true;
            for (const Unit& other : state->units)
                if (&other != &unit && other.function == unit.function && other.scored && !other.device_only)
                    rest_passed = rest_passed && other.on[b].passed;
            if (rest_passed)
                unit.on[b].feedback +=
                    "  hint: only this dataset, above 2^31 elements, failed: an index or offset held in 32 bits "
                    "(int i = blockIdx.x * blockDim.x + threadIdx.x, an int block offset or loop counter) "
                    "passes 2^31 - 1 there and wraps; the labs take any n below 2^32, so compute element "
                    "indices in size_t (unsigned long long)\n";
        }
}

// Each tool in a process of its own running every function not known to
// hang, at a small n, the tools at once as cores allow (they are mostly
// CPU-bound). A function whose run hangs or crashes gets that failure and
// the functions after it a new process. The reports are read into findings
// of the emulator's categories, in a fixed order (lab, tool, function)
// whatever order the runs end in.
void sanitize(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    const int cuda = backend_index(ctx, "cuda");
    if (cuda < 0) return;
    struct Call {
        LabState* state;
        const catalog::Function* fn;
    };
    std::vector<Call> calls;
    for (LabState* state : labs) {
        if (!worth_running(*state, static_cast<std::size_t>(cuda), true)) continue;
        for (const auto& fn : state->lab->functions)
            if (!state->gpu_hung.count(fn.name)) calls.push_back({state, &fn});
    }
    if (calls.empty()) return;
    const std::vector<std::string>& tools = ctx.rubric.sanitizer_tools;
    std::vector<std::vector<Run>> runs(tools.size(), std::vector<Run>(calls.size()));
    const datasets::Spec spec{datasets::Distribution::Walk4, ctx.rubric.sanitizer_n, 4242};
    const DatasetCache::Data input = ctx.datasets.get(spec);
    run_tasks(tools.size(), ctx.gpu_feeders.count(), [&](std::size_t t) {
        std::vector<std::size_t> pending(calls.size());
        for (std::size_t i = 0; i < calls.size(); ++i) pending[i] = i;
        while (!pending.empty() && !stopping()) {
            std::vector<LabCall> plan;
            for (std::size_t i : pending) plan.push_back({calls[i].state->lab, calls[i].fn->name, spec, input.get()});
            PlanRun run;
            {
                // The GPU first: a core taken while waiting for another slot's timing
                // to end would sit idle.
                SharedGpu gpu(gpu_lock(ctx, slot));
                Token token(ctx.gpu_feeders);
                run = slot.exec->sanitize(tools[t], plan);
            }
            std::size_t p = 0;
            for (; p < run.done.size(); ++p) runs[t][pending[p]] = std::move(run.done[p]);
            if (p == pending.size()) break;
            pending.erase(pending.begin(), pending.begin() + static_cast<std::ptrdiff_t>(p));
            if (run.restart && p > 0) continue;
            runs[t][pending.front()] = run.failed;
            pending.erase(pending.begin());
            if (run.cannot_run) {
                for (std::size_t i : pending) runs[t][i] = run.failed;
                break;
            }
        }
    });
    for (LabState* state : labs)
        for (std::size_t t = 0; t < tools.size(); ++t)
            for (std::size_t i = 0; i < calls.size(); ++i) {
                if (calls[i].state != state) continue;
                const Run& r = runs[t][i];
                auto& findings = state->sanitizer_findings;
                if (r.ok) continue;
                if (r.timed_out) {  // a kernel that never finishes under the tool: threads wait at a barrier forever
                    findings.push_back(sanitizer_hung(tools[t], calls[i].fn->name, fixed(ctx.rubric.sanitizer_timeout_s, 0)));
                    continue;
                }
                const std::vector<Finding> found = parse_sanitizer(tools[t], r.output);
                findings.insert(findings.end(), found.begin(), found.end());
                if (found.empty())  // the tool failed the run, but in words the grader does not know
                    findings.push_back(sanitizer_failed(tools[t], calls[i].fn->name, r.problem));
            }
}

void run_gpu_divergence(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    const int cuda = backend_index(ctx, "cuda");
    if (cuda < 0 || backend_index(ctx, "emu") < 0) return;  // --backend cuda: divergence is not asked of the GPU
    const datasets::Spec spec = score::divergence_spec(ctx.rubric.divergence_n);
    for (LabState* state : labs) {
        if (state->emu_off < 0 || !worth_running(*state, static_cast<std::size_t>(cuda), true)) continue;
        for (const auto& fn : state->lab->functions) {
            if (stopping()) return;
            GpuDivergence d;
            if (const auto hung = state->gpu_hung.find(fn.name); hung != state->gpu_hung.end())
                d.problem = "not run: its GPU run on " + hung->second + " timed out";
            else
                d = slot.exec->gpu_divergence(*state->lab, fn, spec, gpu_lock(ctx, slot));
            state->gpu_divergence.push_back(d);
        }
    }
}

void run_timing(Context& ctx, Slot& slot, std::vector<LabState*>& labs) {
    std::vector<std::pair<const catalog::Lab*, const catalog::Function*>> fns;
    std::vector<TimingRun*> into;
    for (LabState* state : labs) {
        state->timing_ran = true;
        state->timings.resize(state->lab->functions.size());
        for (std::size_t f = 0; f < state->lab->functions.size(); ++f) {
            const catalog::Function& fn = state->lab->functions[f];
            if (const auto hung = state->gpu_hung.find(fn.name); hung != state->gpu_hung.end())
                state->timings[f].problem = "not run: its GPU run on " + hung->second + " timed out";
            else {
                fns.push_back({state->lab, &fn});
                into.push_back(&state->timings[f]);
            }
        }
    }
    if (fns.empty()) return;
    std::vector<TimingRun> runs = slot.exec->time(fns, ctx.rubric.timing_spec(), gpu_lock(ctx, slot));
    for (std::size_t k = 0; k < runs.size(); ++k) *into[k] = std::move(runs[k]);
}

void judge_timing(Context& ctx, LabState& state) {
    const datasets::Spec spec = ctx.rubric.timing_spec();
    DatasetCache::Data input;
    for (std::size_t f = 0; f < state.timings.size(); ++f) {
        TimingRun& timing = state.timings[f];
        const catalog::Function& fn = state.lab->functions[f];
        if (!timing.problem.empty()) continue;
        timing.problem = timing.timed.problem;  // scan-bench's own verdict (a wrong call, the copy floor)
        if (!timing.problem.empty()) continue;
        try {
            if (!input) input = ctx.datasets.get(spec);
            for (const auto& c : harness::judge(*input, timing.seen, fn.spec, true, fn.name))
                if (!c.ok && timing.problem.empty())
                    timing.problem = "wrong outputs on the timing dataset: " + first_lines(c.message, 3);
        } catch (const std::exception& e) {
            timing.problem = std::string("the timing program left no valid result (") + e.what() + ")";
        }
    }
}

}  // namespace grader
