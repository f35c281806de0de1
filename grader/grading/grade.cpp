#include "grader/grading/grade.hpp"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>
#include <optional>
#include <regex>
#include <thread>

#include "grader/core/files.hpp"
#include "grader/grading/pipeline.hpp"
#include "grader/grading/process_executor.hpp"
#include "grader/grading/scorers.hpp"

namespace grader {

namespace {

// Whether a lab's result is the code's alone, the same on any machine: no
// run of it timed out (how long a run may take depends on the machine's load).
bool decided_by_the_code(const LabState& state) {
    if (state.emu_timeouts > 0 || !state.gpu_hung.empty() || stopping()) return false;
    for (const auto& [mine, reference] : state.divergence)
        if (mine.timed_out || reference.timed_out) return false;
    return true;
}

// Whether the rubric forbids `library`'s scans in `lab`.
bool forbids(const Context& ctx, const catalog::Lab& lab, const std::string& library) {
    const auto it = ctx.rubric.forbid.find(lab.id);
    return it != ctx.rubric.forbid.end() && std::find(it->second.begin(), it->second.end(), library) != it->second.end();
}
bool forbids_any(const Context& ctx, const catalog::Lab& lab) {
    const auto it = ctx.rubric.forbid.find(lab.id);
    return it != ctx.rubric.forbid.end() && !it->second.empty();
}
std::string not_allowed(const catalog::Lab& lab) {
    return "which lab " + lab.id.substr(0, 2) + " does not allow: the lab asks for scan kernels of your own (the rubric's forbid list)";
}

// The source text's look, before anything is built: the first scan of a
// library on the rubric's forbid list for the lab that scan.cu or a header
// of its calls by name, or a #define that renames or configures that library
// (its compiled names would then not say whose they are), as the message
// that rejects it; "" when there is none. The libraries' other names are the
// emulator's limits, graded on a GPU. What was built is read after the build
// (forbidden_in_build).
std::string forbidden_library(const Context& ctx, const catalog::Lab& lab, const LabFile& file, const std::string& source) {
    if (!forbids_any(ctx, lab)) return "";
    std::vector<std::pair<std::string, std::string>> texts = {{"scan.cu", source}};
    for (const std::string& h : file.headers)
        texts.push_back({h, read_file((std::filesystem::path(file.path).parent_path() / h).string())});
    for (const auto& [name, text] : texts) {
        for (const simt::Limit& l : simt::find_library_scans(text))
            if (forbids(ctx, lab, l.construct))
                return name + ":" + std::to_string(l.line) + " calls " + l.construct + "'s scan (`" + l.written + "`), " +
                       not_allowed(lab);
        for (const simt::Limit& l : library_renames(text))
            if (forbids(ctx, lab, l.construct))
                return name + ":" + std::to_string(l.line) + " renames or configures " + l.construct + " (`" + l.written +
                       "`), which lab " + lab.id.substr(0, 2) + " does not allow while it forbids " + l.construct +
                       "'s scans: they are found by the names the library compiles to (the rubric's forbid list)";
    }
    return "";
}

// What was built: the first scan of a library on the lab's forbid list that
// `build`'s object of the lab holds (library_symbols.hpp), however the source
// spelt it, as the message that rejects the lab; "" when there is none.
std::string forbidden_in_build(const Context& ctx, const catalog::Lab& lab, const BuildResult& built,
                               const std::string& build) {
    if (!built.ok) return "";
    for (const LibraryScan& scan : built.library_scans)
        if (forbids(ctx, lab, scan.library))
            return "scan.cu, as " + build + " compiled it, calls " + scan.library + "'s scan (`" + scan.name +
                   "` among its symbols), " + not_allowed(lab);
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
// limit, as a construct the limits scan found would. Where the emulator's
// build left out unused #includes and fails (the code needed a name of
// theirs after all), those includes become the limits, as before they were
// left out, unless nvcc rejects the file too: the kit's limits never cost a
// student points. A scan the rubric forbids in what nvcc or the emulator
// built refuses the lab (`forbidden`).
struct BuildOutcome {
    std::string failed, errors, forbidden;
};
BuildOutcome judge_build(const Context& ctx, Slot& slot, const std::vector<std::vector<BuildResult>>& builds,
                         std::size_t i, LabState& state, const std::optional<BuildResult>& prechecked) {
    const int emu = backend_index(ctx, "emu"), cuda = backend_index(ctx, "cuda");
    const BuildResult* emu_build = emu >= 0 ? &builds[static_cast<std::size_t>(emu)][i] : nullptr;
    std::optional<BuildResult> nvcc;
    if (cuda >= 0) nvcc = builds[static_cast<std::size_t>(cuda)][i];
    else if (prechecked) nvcc = prechecked;
    else if (emu_build && (!emu_build->ok || !state.limits.empty() || !state.left_out.empty()))
        nvcc = slot.exec->nvcc_check(*state.lab, state.file);
    BuildOutcome out;
    const auto fail = [&](const std::string& build, const std::string& errors) {
        out.failed += (out.failed.empty() ? "" : ", ") + build;
        out.errors += (out.errors.empty() ? "" : "\n") + std::string("Compile errors (") + build + "):\n" + errors;
    };
    if (nvcc && !nvcc->ok) fail("cuda", nvcc->errors);
    if (emu_build && !emu_build->ok) {
        if (!state.left_out.empty()) {
            if (!nvcc || nvcc->ok) state.limits = state.left_out;
        } else if (nvcc && nvcc->ok) state.limits = {rejected_by_gxx(emu_build->errors)};
        else fail("emu", emu_build->errors);
    }
    if (out.failed.empty() && nvcc) out.forbidden = forbidden_in_build(ctx, *state.lab, *nvcc, "nvcc");
    if (out.failed.empty() && out.forbidden.empty() && emu_build)
        out.forbidden = forbidden_in_build(ctx, *state.lab, *emu_build, "the emulator's compiler");
    return out;
}

// The notes that the emulator built scan.cu without its unused #includes.
void note_left_out(Report& report, const std::string& lab, const std::vector<simt::Limit>& left_out) {
    for (const simt::Limit& l : left_out)
        report.notes.push_back(lab + ": unused " + l.written + " left out on the emulator (scan.cu:" + std::to_string(l.line) + ")");
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
                            : std::string(kHiddenNamedLater));
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
    if (backend_index(ctx, "cuda") >= 0 && !ctx.gpus.empty()) {
        slot.gpu = static_cast<int>(index % ctx.gpus.size());
        slot.gpu_id = ctx.gpus[static_cast<std::size_t>(slot.gpu)];
    }
    slot.exec = std::make_unique<ProcessExecutor>(ctx, index, slot.gpu_id);
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
    report.run_notes.push_back(ctx.sandbox.enabled ? "sandbox: bubblewrap (no network; a run sees the system's folders, its build and its input alone, and writes to a " +
                                                               std::to_string(Limits::scratch_bytes >> 20) + " MiB scratch that is gone after it)"
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
            if (state->limits.empty()) state->left_out = simt::unused_includes(out.source, ctx.kit + "/simt/include");
            if (!state->file.refused.empty()) {
                out = zero_lab(ctx, *state->lab, "build", "not built: " + state->file.refused,
                               "Not built: " + state->file.refused + "\n");
                out.submitted = true;
            } else if (const std::string broken = source_policy(state->file); !broken.empty()) {
                out = zero_lab(ctx, *state->lab, "build", "rejected by the source rules", "Not built: " + broken + "\n");
                out.submitted = true;
            } else if (const std::string library = forbidden_library(ctx, *state->lab, state->file, out.source);
                       !library.empty()) {
                out = zero_lab(ctx, *state->lab, "build", "rejected by the rubric: " + library, "Not built: " + library + "\n");
                out.submitted = true;
            } else if (const std::string key = ctx.cache.on() ? ctx.cache.key(id, graded_text(state->file)) : "";
                       const auto hit = key.empty() ? std::nullopt : ctx.cache.find(key)) {
                out = *hit;
                if (out.emulator_limits.empty() && backend_index(ctx, "emu") >= 0) note_left_out(report, id, state->left_out);
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
    // The reference's builds for divergence and timing, made alongside (on a
    // first grading in a work folder they were half a minute inside each of
    // those phases); joined before grade() returns, whatever it returns with.
    std::vector<const catalog::Lab*> to_prepare;
    for (const auto& [lab, file] : to_build) to_prepare.push_back(lab);
    struct Joined {
        std::thread thread;
        ~Joined() {
            if (thread.joinable()) thread.join();
        }
    } prepare;
    if (!to_prepare.empty()) prepare.thread = std::thread([&slot, to_prepare] { slot.exec->prepare_reference(to_prepare); });
    if (!to_build.empty()) progress("building " + std::to_string(to_build.size()) + " lab(s) on " + backend_names(ctx));
    std::vector<LabState*> building;  // in to_build's order
    for (const auto& [lab, file] : to_build)
        building.push_back(std::find_if(states.begin(), states.end(), [&](const auto& s) { return s->lab == lab; })->get());
    const int emu = backend_index(ctx, "emu"), cuda = backend_index(ctx, "cuda");
    // Without the GPU's build, nvcc's check of each lab whose rubric forbids
    // a library runs alongside the builds and the emulator's runs, one lab
    // after another on a core of theirs: a file may give the emulator other
    // code than nvcc (__has_include), so what nvcc builds is read for the
    // libraries' scans (judge_build). Declared after what it uses: joined
    // first on every way out.
    std::vector<std::optional<BuildResult>> prechecked(to_build.size());
    std::future<void> prechecking;
    if (cuda < 0 && emu >= 0)
        prechecking = std::async(std::launch::async, [&] {
            for (std::size_t i = 0; i < to_build.size() && !stopping(); ++i)
                if (forbids_any(ctx, *to_build[i].first)) {
                    Token core(ctx.cpu);
                    Span span{clock, "nvcc check"};
                    prechecked[i] = slot.exec->nvcc_check(*to_build[i].first, to_build[i].second);
                }
        });

    // The datasets are drawn while the labs build. Each backend's pipeline
    // starts once its own build is done (the GPU's had waited for the
    // emulator's build: 4 s of a first grading): on the CPU the emulator's
    // datasets across the cores, then its divergence runs; on the GPU the
    // labs' datasets in one process, then compute-sanitizer's runs of them
    // all, a process a tool, then timing with the GPU alone. A backend runs
    // the labs that built there (the emulator those it can run); whether a lab
    // is graded at all is judged from both builds after (judge_build), its
    // runs then left unused. Each lab's later work runs where its datasets on
    // that backend had some right (worth_running).
    std::shared_future<void> planned = std::async(std::launch::async, [&] {
        run_tasks(building.size(), static_cast<unsigned>(building.size()), [&](std::size_t i) { plan_units(ctx, *building[i]); });
        std::size_t runs = 0;
        for (const LabState* state : building) runs += state->units.size();
        if (runs) progress(std::to_string(runs) + " datasets on " + backend_names(ctx) + ", then safety, divergence, timing");
    }).share();
    // Ready once the GPU's datasets are judged, or the GPU side ends without
    // them: on every path out of it, so the emulator never waits for ever.
    struct Signal {
        std::promise<void> promise;
        std::atomic<bool> fired{false};
        void fire() {
            if (!fired.exchange(true)) promise.set_value();
        }
    } gpu_judged;
    const std::shared_future<void> gpu_judged_future = gpu_judged.promise.get_future().share();
    struct FireOnExit {
        Signal& signal;
        explicit FireOnExit(Signal& s) : signal(s) {}
        FireOnExit(const FireOnExit&) = delete;
        ~FireOnExit() { signal.fire(); }
    };
    const auto emulator_side = [&](std::vector<LabState*>& labs) {
        {
            Span span{clock, "datasets emu"};
            run_emulator_datasets(ctx, slot, labs, cuda >= 0 ? gpu_judged_future : std::shared_future<void>{});
        }
        check_stop();
        Span span{clock, "divergence"};
        run_divergence(ctx, slot, labs);
    };
    const auto gpu_side = [&](std::vector<LabState*>& labs) {
        {
            FireOnExit fire{gpu_judged};
            Span span{clock, "datasets gpu"};
            run_gpu_datasets(ctx, slot, labs);
        }
        check_stop();
        {
            Span span{clock, "datasets gpu only"};
            run_device_only(ctx, slot, labs);
        }
        check_stop();
        // Every lab's functions under each tool in one process: a tool's
        // start, not a lab's, is what costs.
        {
            Span span{clock, "sanitizer"};
            sanitize(ctx, slot, labs);
        }
        check_stop();
        // Timing, every lab's functions in one process, which holds the GPU
        // alone while it times; then the timed outputs (2^24 elements a
        // function) are judged on the CPU, the labs at once.
        std::vector<LabState*> timed;
        for (LabState* state : labs)
            if (worth_running(*state, static_cast<std::size_t>(cuda), true)) timed.push_back(state);
        if (timed.empty()) return;
        {
            Span span{clock, "timing"};
            run_timing(ctx, slot, timed);
        }
        check_stop();
        Span span{clock, "timing check"};
        run_tasks(timed.size(), static_cast<unsigned>(timed.size()), [&](std::size_t l) { judge_timing(ctx, *timed[l]); });
    };
    std::vector<std::vector<BuildResult>> builds(ctx.backends.size());
    run_tasks(ctx.backends.size(), static_cast<unsigned>(ctx.backends.size()), [&](std::size_t w) {
        std::optional<FireOnExit> fire;  // the GPU side ended, with or without its datasets
        if (static_cast<int>(w) == cuda) fire.emplace(gpu_judged);
        if (to_build.empty()) return;
        {
            Span span{clock, "build " + ctx.backends[w]};
            builds[w] = slot.exec->build(w, to_build);
        }
        planned.get();  // its exception, if any
        // A lab whose build holds a scan the rubric forbids is not run there (judge_build refuses it).
        std::vector<LabState*> labs;
        for (std::size_t i = 0; i < building.size(); ++i)
            if (builds[w][i].ok && (static_cast<int>(w) != emu || building[i]->limits.empty()) &&
                forbidden_in_build(ctx, *building[i]->lab, builds[w][i], "").empty())
                labs.push_back(building[i]);
        if (labs.empty() || stopping()) return;
        if (static_cast<int>(w) == emu) emulator_side(labs);
        else if (static_cast<int>(w) == cuda) gpu_side(labs);
    });
    planned.get();
    if (prechecking.valid()) prechecking.get();
    check_stop();
    std::vector<LabState*> graded;
    for (std::size_t i = 0; i < to_build.size(); ++i) {
        LabState& state = *building[i];
        const BuildOutcome b = judge_build(ctx, slot, builds, i, state, prechecked[i]);
        if (!b.failed.empty()) {
            state.out = zero_lab(ctx, *state.lab, "build", "does not compile (" + b.failed + ")", b.errors);
            state.out.submitted = true;
            continue;
        }
        if (!b.forbidden.empty()) {
            state.out = zero_lab(ctx, *state.lab, "build", "rejected by the rubric: " + b.forbidden, "Not graded: " + b.forbidden + "\n");
            state.out.submitted = true;
            continue;
        }
        if (!state.limits.empty() && cuda < 0) {
            state.out = needs_gpu_lab(ctx, *state.lab, state.limits);
            continue;
        }
        if (!state.limits.empty()) {
            state.emu_off = emu;
            state.out.note = "graded on the GPU only: " + simt::summarize("scan.cu", state.limits) + " is beyond the CPU emulator";
        } else if (emu >= 0) {
            note_left_out(report, state.lab->id, state.left_out);
        }
        state.out.built = true;
        state.out.emulator_limits = state.limits;
        graded.push_back(&state);
    }
    // The labs the emulator could not run: their divergence on the GPU's
    // counters, once both builds are judged (an emulator build that fails on
    // a header it lacks is known only then).
    if (std::any_of(graded.begin(), graded.end(), [](const LabState* s) { return s->emu_off >= 0; })) {
        {
            Span span{clock, "divergence gpu"};
            run_gpu_divergence(ctx, slot, graded);
        }
        check_stop();
    }
    for (LabState* state : graded) {
        score_correctness(ctx, *state);
        for (const auto& f : state->sanitizer_findings) note_finding(*state, f);
        for (const auto& [category, list] : state->findings)
            state->out.findings.insert(state->out.findings.end(), list.begin(), list.end());
        LabResult& out = state->out;  // in the components' order: correctness, safety, divergence, timing
        out.components.push_back(score_safety(ctx, *state, out));
        out.components.push_back(score_divergence(ctx, *state, out));
        out.components.push_back(score_timing(ctx, *state, out));
        if (!state->cache_key.empty() && decided_by_the_code(*state)) ctx.cache.store(state->cache_key, out);
    }
    for (auto& state : states) report.labs.push_back(std::move(state->out));
    report.phases = clock.phases();
    report.seconds = since(start);
    return report;
}

}  // namespace grader
