// scan-grade: grades one submission, or a folder of them, with the kit's
// rubric. See grader/README.md.
#include <sched.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <thread>

#include "catalog.hpp"
#include "grader/cli/options.hpp"
#include "grader/cli/resume.hpp"
#include "grader/cli/slurm.hpp"
#include "grader/core/files.hpp"
#include "grader/grading/grade.hpp"
#include "grader/intake/batch.hpp"
#include "grader/intake/class_report.hpp"
#include "grader/intake/export.hpp"
#include "grader/intake/similarity.hpp"
#include "grader/outputs/classroom50.hpp"
#include "grader/outputs/gradebook.hpp"
#include "grader/outputs/outputs.hpp"

namespace fs = std::filesystem;
using namespace grader;

namespace {

int usage(const std::string& why) {
    std::fprintf(stderr, "scan-grade: %s\n%s", why.c_str(), cli::help_text().c_str());
    return 2;
}

// The GPUs to grade on: those CUDA_VISIBLE_DEVICES names where it is set,
// else every one nvidia-smi lists; empty, with the reason in `device`, where
// there is none.
std::vector<std::string> usable_gpus(std::string& device) {
    const Outcome nvcc = run_contained({"nvcc", "--version"}, "/", {}, Limits{30}, Sandbox{});
    if (!nvcc.ok()) {
        device = "no GPU backend: nvcc is not on PATH";
        return {};
    }
    const Outcome smi = run_contained({"nvidia-smi", "-L"}, "/", {}, Limits{30}, Sandbox{});
    if (!smi.ok() || smi.output.find("GPU") == std::string::npos) {
        device = "no GPU: nvidia-smi -L " + (smi.ok() ? std::string("lists none") : smi.describe());
        return {};
    }
    std::vector<std::string> gpus;
    if (const char* visible = std::getenv("CUDA_VISIBLE_DEVICES"); visible && *visible) {
        std::string list = visible;
        for (std::size_t start = 0; start <= list.size();) {
            const std::size_t end = std::min(list.find(',', start), list.size());
            if (end > start) gpus.push_back(list.substr(start, end - start));
            start = end + 1;
        }
    } else {
        for (std::size_t at = 0; (at = smi.output.find("GPU ", at)) != std::string::npos; at += 4)
            if (at == 0 || smi.output[at - 1] == '\n') gpus.push_back(std::to_string(gpus.size()));
    }
    device = smi.output.substr(0, smi.output.find('\n'));
    if (gpus.size() > 1) device += " and " + std::to_string(gpus.size() - 1) + " more";
    return gpus;
}

// The cores this process may use (a container's or a job's share, not the machine's).
unsigned usable_cores() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return static_cast<unsigned>(CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

std::atomic<int> g_signal{0};

// The committer date of HEAD, in UTC (classroom50.hpp's utc_instant), where
// `folder` is a git checkout (its own .git, not one above it); "" otherwise.
std::string git_commit_instant(const std::string& folder) {
    std::error_code error;
    if (!fs::exists(fs::path(folder) / ".git", error)) return "";
    // safe.directory: a checkout another user owns (a runner's, a course
    // share's) is still read.
    const Outcome git = run_contained({"git", "-c", "safe.directory=*", "-C", folder, "log", "-1", "--format=%cI"}, "/", {},
                                      Limits{30}, Sandbox{});
    if (!git.ok()) return "";
    std::string line = git.output.substr(0, git.output.find('\n'));
    return utc_instant(line);
}

// --fail-under: whether any report scores under `percent` of its gradable
// points (a line on stderr for each); never where percent < 0 (not given).
bool under_threshold(const std::vector<Report>& reports, double percent) {
    if (percent < 0) return false;
    std::size_t under = 0;
    for (const Report& r : reports) {
        const double got = r.max_score() > 0 ? 100 * r.score() / r.max_score() : 0;
        if (got >= percent) continue;
        ++under;
        std::fprintf(stderr, "scan-grade: %s scored %s%%, under --fail-under %s\n", r.submission.c_str(),
                     format_points(got).c_str(), format_points(percent).c_str());
    }
    if (under) std::fprintf(stderr, "scan-grade: exit 3: %zu submission(s) under --fail-under\n", under);
    return under > 0;
}

extern "C" void on_stop_signal(int sig) {
    g_signal = sig;
    stop_children();
}

// A submission that cannot be graded still gets a report, with every lab
// zero, and one line on stderr for a script that reads no results file.
Report ungradable(Context& ctx, const std::string& name, const std::string& kind, const std::string& why) {
    std::fprintf(stderr, "scan-grade: not graded (%s), 0 points: %s\n", kind.c_str(), why.c_str());
    Report r;
    r.submission = name;
    r.refused = kind;
    r.backend = backend_names(ctx);
    r.device = ctx.device;
    r.notes.push_back("not graded: " + why);
    for (const auto& id : ctx.labs) r.labs.push_back(zero_lab(ctx, *catalog::find(id), "submission", why, "Not graded: " + why));
    return r;
}

// One student of a batch: graded, or taken from a record of an earlier run
// (resume.hpp); nothing when the grader was stopped before the end.
std::optional<Report> grade_entry(Context& ctx, Slot& slot, const BatchEntry& entry, const std::string& unpack_dir,
                                  const std::string& out, const std::string& rubric_text, bool& resumed) {
    Submission sub;
    try {
        if (!entry.refused.empty()) throw SubmissionError(entry.kind, entry.refused);
        sub = open_submission(entry.path.string(), unpack_dir, ctx.kit, ctx.rubric.intake);
        sub.name = entry.name;
    } catch (const SubmissionError& e) {
        // Recorded for the gradebook (scan-grade merge), with no fingerprint:
        // a rerun looks at it again.
        Report r = ungradable(ctx, entry.name, e.kind, e.what());
        write_all(r, out + "/" + r.submission);
        write_graded_code(r, out + "/" + r.submission);  // none: an earlier grading's goes
        write_record(r, {}, out + "/" + r.submission);
        return r;
    }
    const Fingerprint fp = fingerprint(ctx, sub, rubric_text);
    const std::string dir = out + "/" + sub.name;
    if (auto record = read_record(dir, fp.full)) {
        resumed = true;
        return record;
    }
    Report r;
    try {
        r = grade(ctx, slot, sub);
        r.submitted_at = git_commit_instant(entry.path.string());
    } catch (const std::exception& e) {  // the grader's trouble on this one: the batch goes on
        if (stopping()) return std::nullopt;
        r = ungradable(ctx, sub.name, "the grader's error", e.what());
    }
    if (stopping()) return std::nullopt;
    fs::remove(dir + "/grade.json");  // written last: a folder without it is incomplete
    write_all(r, dir);
    write_graded_code(r, dir);  // the class report's similarity check compares it
    write_record(r, fp, dir);
    return r;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "export") == 0)
        return export_main(std::vector<std::string>(argv + 2, argv + argc), SCAN_KIT_SOURCE);
    if (argc > 1 && std::strcmp(argv[1], "merge") == 0) return merge_main(std::vector<std::string>(argv + 2, argv + argc), SCAN_KIT_SOURCE);
    if (argc > 1 && std::strcmp(argv[1], "report") == 0) return report_main(std::vector<std::string>(argv + 2, argv + argc), SCAN_KIT_SOURCE);
    cli::Settings o;
    o.kit = SCAN_KIT_SOURCE;
    o.colour = isatty(1);
    if (const std::string why = cli::parse(argc, argv, o); !why.empty()) return usage(why);
    if (o.help) {
        std::fputs(cli::help_text().c_str(), stdout);
        return 0;
    }
    Context ctx;
    ctx.kit = o.kit;
    ctx.labs = o.labs;
    ctx.show_hidden = o.show_hidden;
    std::string submission = o.submission, work = o.work, rubric_path = o.rubric;
    const std::string &batch = o.batch, &out = o.out, &backend = o.backend, &part = o.part, &roster_path = o.roster;
    if (!fs::is_regular_file(ctx.kit + "/meson.build") || !fs::is_directory(ctx.kit + "/reference"))
        return usage("not a scan-labs kit with its reference/: " + ctx.kit + " (--kit)");
    if (rubric_path.empty()) rubric_path = ctx.kit + "/grader/rubric.json";
    try {
        ctx.rubric = load_rubric(rubric_path);
    } catch (const RubricError& e) {
        std::fprintf(stderr, "scan-grade: %s\n", e.what());
        return 2;
    }
    if (ctx.labs.empty())
        for (const auto& lab : catalog::labs()) ctx.labs.push_back(lab.id);
    if (submission.empty() && batch.empty()) submission = ctx.kit + "/reference";
    if (!submission.empty() && !fs::exists(submission)) return usage("no such submission: " + submission);
    if (!batch.empty() && !fs::is_directory(batch)) return usage("--batch needs a folder: " + batch);
    if (!part.empty() && !fs::is_regular_file(part)) return usage("no such --part file: " + part);
    // Read before any grading: a malformed roster stops the batch at once, naming its line.
    std::optional<std::vector<RosterStudent>> roster;
    if (!roster_path.empty()) {
        try {
            roster = read_roster(roster_path);
        } catch (const RosterError& e) {
            std::fprintf(stderr, "scan-grade: %s\n", e.what());
            return 2;
        }
    }

    const std::string rubric_text = read_file(rubric_path);
    fs::create_directories(work);
    work = fs::canonical(work).string();
    ctx.kit = fs::canonical(ctx.kit).string();
    ctx.work = work;
    ctx.backend_asked = backend;
    if (o.slurm) {
        // Here only the submissions to grade are chosen; the nodes grade them.
        SlurmRequest request;
        request.scan_grade = fs::canonical("/proc/self/exe").string();
        request.batch = fs::canonical(batch).string();
        fs::create_directories(out);
        request.out = fs::canonical(out).string();
        request.kit = ctx.kit;
        request.rubric = fs::canonical(rubric_path).string();
        request.backend = backend;
        request.labs = o.lab_args;
        request.sandbox = o.sandbox;
        request.show_hidden = ctx.show_hidden;
        request.submit = o.submit;
        request.settings = ctx.rubric.slurm;
        if (o.partition) request.settings.partition = *o.partition;
        if (o.account) request.settings.account = *o.account;
        if (o.time_limit) request.settings.time = *o.time_limit;
        if (o.chunk) request.settings.chunk = o.chunk;
        if (o.cpus_per_task) request.settings.cpus_per_task = o.cpus_per_task;
        request.sbatch_args = o.sbatch_args;
        if (roster) request.roster = fs::canonical(roster_path).string();
        request.lms_assignment = o.lms_assignment;
        std::vector<std::string> todo;
        for (const BatchEntry& entry : read_batch(batch, ctx.rubric.intake.refuse_duplicates).entries) {
            bool done = false;
            try {
                if (entry.refused.empty()) {
                    Submission sub = open_submission(entry.path.string(), work + "/unpack-slurm", ctx.kit, ctx.rubric.intake);
                    sub.name = entry.name;
                    done = has_record_for(out + "/" + sub.name, fingerprint(ctx, sub, rubric_text).inputs);
                }
            } catch (const SubmissionError&) {  // graded zero on a node, with the reason
            }
            if (!done) todo.push_back(entry.path.filename().string());
        }
        fs::remove_all(work + "/unpack-slurm");
        return submit_to_slurm(request, todo);
    }
    ctx.backends = {"emu"};
    if (backend == "emu") ctx.device = "no GPU backend: --backend emu";
    else if (!(ctx.gpus = usable_gpus(ctx.device)).empty()) ctx.backends.push_back("cuda");
    else if (backend == "cuda") return usage("--backend cuda needs a usable GPU: " + ctx.device);
    if (backend == "cuda") ctx.backends = {"cuda"};  // no emulator: no divergence, no emulator checks
    if (ctx.backends.back() != "cuda") ctx.gpus.clear();
    for (std::size_t g = 0; g < ctx.gpus.size(); ++g) {
        ctx.gpu_locks.push_back(work + "/gpu-locks/gpu" + std::to_string(g));
        try {
            gpu_lock::create(ctx.gpu_locks.back());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "scan-grade: %s\n", e.what());
            return 1;
        }
    }
    if (o.cache && ctx.backends == std::vector<std::string>{"emu"}) {
        const char* shared = std::getenv("SCAN_GRADE_CACHE");
        ctx.cache = ResultCache(shared && *shared ? fs::absolute(shared).string() : work + "/result-cache", cache_salt(ctx, rubric_text));
    }
    ctx.cpu.reset(usable_cores());
    ctx.gpu_feeders.reset(usable_cores());
    if (o.jobs == 0) o.jobs = 2 * static_cast<unsigned>(std::max<std::size_t>(1, ctx.gpus.size()));
    // A stop (Ctrl-C, a CI cancellation, a time limit) ends every child's
    // process group, GPU work included, and the grader writes what finished.
    struct sigaction action = {};
    action.sa_handler = on_stop_signal;
    action.sa_flags = SA_RESTART;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    ctx.sandbox = Sandbox::probe(o.sandbox);
    ctx.sandbox.hide = {ctx.kit + "/reference", ctx.kit + "/grader", fs::absolute(rubric_path).string(), work};

    try {
        if (!batch.empty()) {
            const Batch folder = read_batch(batch, ctx.rubric.intake.refuse_duplicates);
            std::vector<BatchEntry> entries = folder.entries;
            for (const std::string& w : folder.warnings) std::fprintf(stderr, "scan-grade: warning: %s\n", w.c_str());
            if (!folder.hidden.empty()) {
                std::string list;
                for (const auto& h : folder.hidden) list += (list.empty() ? "" : ", ") + h;
                std::fprintf(stderr, "scan-grade: hidden entries left out: %s\n", list.c_str());
            }
            if (!part.empty()) {  // a Slurm task's share: only the entries FILE names
                std::vector<std::string> names;
                std::ifstream in(part);
                for (std::string line; std::getline(in, line);)
                    if (!line.empty()) names.push_back(line);
                std::vector<BatchEntry> mine;
                for (const auto& name : names) {
                    const auto it = std::find_if(entries.begin(), entries.end(), [&](const BatchEntry& e) { return e.path.filename() == name; });
                    if (it == entries.end()) std::fprintf(stderr, "scan-grade: %s (in %s) is not in %s: left out\n", name.c_str(), part.c_str(), batch.c_str());
                    else mine.push_back(*it);
                }
                entries = mine;
            }
            std::vector<std::optional<Report>> reports(entries.size());
            std::atomic<std::size_t> next{0}, done{0}, resumed_count{0};
            std::mutex print;
            const bool bar = isatty(2);  // a live progress line on a terminal, one line per student in a log
            if (bar)
                ctx.progress = [&](const std::string& line) {
                    std::lock_guard<std::mutex> lock(print);
                    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done.load(), entries.size(), line.substr(0, 100).c_str());
                };
            std::vector<std::thread> workers;
            for (unsigned j = 0; j < std::min<std::size_t>(o.jobs, entries.size()); ++j)
                workers.emplace_back([&, j] {
                    Slot slot = make_slot(ctx, j);
                    for (std::size_t k; !stopping() && (k = next++) < entries.size();) {
                        bool resumed = false;
                        try {
                            reports[k] = grade_entry(ctx, slot, entries[k], work + "/unpack" + std::to_string(j), out,
                                                     rubric_text, resumed);
                        } catch (const std::exception& e) {  // its results could not be written: the batch goes on
                            std::lock_guard<std::mutex> lock(print);
                            std::fprintf(stderr, "scan-grade: %s: %s\n", entries[k].path.filename().c_str(), e.what());
                        }
                        if (!reports[k]) continue;
                        ++done;
                        resumed_count += resumed;
                        std::lock_guard<std::mutex> lock(print);
                        const std::string times = resumed ? "graded before (its grade.json matches)" : phases_text(*reports[k]);
                        std::fprintf(stderr, "%s[%zu/%zu] %s: %s\n", bar ? "\r\033[K" : "", done.load(), entries.size(),
                                     reports[k]->submission.c_str(), times.empty() ? "not graded" : times.c_str());
                    }
                });
            for (auto& w : workers) w.join();
            if (bar) std::fprintf(stderr, "\r\033[K");
            fs::create_directories(out);
            std::vector<Report> finished;
            std::vector<std::string> missing, refused;
            for (std::size_t k = 0; k < entries.size(); ++k)
                if (!reports[k]) missing.push_back(entries[k].path.filename().string());
                else {
                    finished.push_back(*reports[k]);
                    if (!reports[k]->refused.empty()) refused.push_back(reports[k]->refused);
                }
            const std::string summary =
                batch_summary(entries.size(), finished.size() - refused.size(), resumed_count.load(), refused);
            if (part.empty()) {
                const BatchBook book = write_gradebook(finished, out, roster ? &*roster : nullptr, o.lms_assignment);
                std::fputs(book.summary.c_str(), stdout);
                for (const std::string& w : book.warnings) std::fprintf(stderr, "scan-grade: warning: %s\n", w.c_str());
                const std::string files = book.files + class_report_after_batch(out, {ctx.kit, ctx.rubric.similarity});
                std::printf("%s: %s and one folder per student in %s/\n", summary.c_str(), files.c_str(), out.c_str());
            } else {
                std::printf("%s: one folder per student in %s/; scan-grade merge %s writes the gradebook\n", summary.c_str(),
                            out.c_str(), out.c_str());
            }
            if (!missing.empty()) {
                std::string list;
                for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
                std::printf("%zu submissions incomplete%s: %s; run the same command again to grade only these\n",
                            missing.size(), g_signal ? (" (stopped by " + signal_name(g_signal) + ")").c_str() : "",
                            list.c_str());
            }
            if (g_signal) return 128 + g_signal;
            return under_threshold(finished, o.fail_under) ? 3 : 0;
        }
        ctx.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
        Slot slot = make_slot(ctx, 0);
        Report report;
        try {
            Submission sub = open_submission(submission, work + "/unpack0", ctx.kit, ctx.rubric.intake);
            report = grade(ctx, slot, sub);
        } catch (const SubmissionError& e) {
            report = ungradable(ctx, submission_name(fs::path(submission).filename().string()), e.kind, e.what());
        } catch (const std::exception& e) {
            if (!stopping()) throw;
        }
        if (stopping()) {
            std::fprintf(stderr, "scan-grade: stopped by %s before the grading finished: nothing written\n",
                         signal_name(g_signal).c_str());
            return 128 + g_signal;
        }
        report.submitted_at = !o.submitted_at.empty() ? o.submitted_at : git_commit_instant(submission);
        if (report.submitted_at.empty())
            std::fprintf(stderr, "scan-grade: warning: the submission's instant is not known (--submitted-at, or a git "
                                 "checkout): result.json's datetime is the grading time\n");
        write_all(report, out);
        std::fputs(terminal_table(report, o.colour).c_str(), stdout);
        if (const std::string times = phases_text(report); !times.empty()) std::printf("%s\n", times.c_str());
        std::printf("results: %s/ (report.html, results.json for Gradescope, result.json for Classroom 50, prairielearn.json, junit.xml, summary.md, feedback.txt)\n",
                    out.c_str());
        if (under_threshold({report}, o.fail_under)) return 3;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scan-grade: cannot grade: %s\n", e.what());
        return 1;
    }
    return 0;
}
