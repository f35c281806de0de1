#include "grader/cli/slurm.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "grader/cli/resume.hpp"
#include "grader/core/files.hpp"
#include "grader/intake/batch.hpp"
#include "grader/intake/class_report.hpp"
#include "grader/intake/submission.hpp"
#include "grader/outputs/gradebook.hpp"
#include "grader/outputs/outputs.hpp"

namespace fs = std::filesystem;

namespace grader {
namespace {

// A word for the shell, in single quotes.
std::string quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string trim(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
    return s;
}

// Runs a shell command with the grader's own environment (sbatch passes it on
// to the job: SCAN_GRADE_SECRET, PATH, ...); its exit status and its output,
// without the trailing newlines.
std::pair<int, std::string> shell(const std::string& command) {
    std::string output;
    FILE* pipe = popen((command + " 2>&1").c_str(), "r");
    if (!pipe) return {127, "cannot start a shell"};
    char buffer[4096];
    while (std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, got);
    const int status = pclose(pipe);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : 128, trim(output)};
}

// The #SBATCH lines both jobs share.
std::string common_options(const SlurmRequest& r) {
    std::string out;
    if (!r.settings.partition.empty()) out += "#SBATCH --partition=" + r.settings.partition + "\n";
    if (!r.settings.account.empty()) out += "#SBATCH --account=" + r.settings.account + "\n";
    for (const auto& arg : r.sbatch_args) out += "#SBATCH " + arg + "\n";
    return out;
}

std::string array_script(const SlurmRequest& r, const std::string& dir) {
    std::string grade = quote(r.scan_grade) + " --batch " + quote(r.batch) + " --part \"$work/part.txt\" --out " +
                        quote(r.out) + " --work \"$work/work\" --kit " + quote(r.kit) + " --rubric " + quote(r.rubric) +
                        " --backend " + r.backend + " --no-colour";
    for (const auto& lab : r.labs) grade += " --lab " + quote(lab);
    if (!r.sandbox) grade += " --no-sandbox";
    if (r.show_hidden) grade += " --show-hidden";
    return "#!/bin/bash\n"
           "# Written by scan-grade --slurm: array task K grades the submissions on\n"
           "# line K+1 of todo.txt into the results folder, building in a work folder\n"
           "# of its own on the node's local scratch, removed when it ends. The\n"
           "# tasks share one compiler cache (where ccache is installed) in the\n"
           "# results folder, so only the first compiles the kit's unchanged files,\n"
           "# and one result cache (used where the emulator alone grades), so a lab\n"
           "# file that another task graded already (a stub) is not graded again.\n"
           "#SBATCH --job-name=scan-grade\n"
           "#SBATCH --output=" + dir + "/logs/task-%a.log\n"
           "#SBATCH --cpus-per-task=" + std::to_string(r.settings.cpus_per_task) + "\n"
           "#SBATCH --time=" + r.settings.time + "\n" +
           (r.backend == "emu" ? std::string() : std::string("#SBATCH --gres=gpu:1\n")) + common_options(r) +
           "set -u\n"
           "export CCACHE_DIR=\"${CCACHE_DIR:-" + dir + "/ccache}\"\n"
           "export SCAN_GRADE_CACHE=\"${SCAN_GRADE_CACHE:-" + dir + "/result-cache}\"\n"
           "work=$(mktemp -d \"${TMPDIR:-/tmp}/scan-grade-${SLURM_ARRAY_JOB_ID}-${SLURM_ARRAY_TASK_ID}-XXXXXX\") || exit 1\n"
           "trap 'rm -rf \"$work\"' EXIT\n"
           "sed -n \"$((SLURM_ARRAY_TASK_ID + 1))p\" " + quote(dir + "/todo.txt") + " | tr '\\t' '\\n' > \"$work/part.txt\"\n"
           "echo \"task $SLURM_ARRAY_TASK_ID on $(hostname): $(paste -sd' ' \"$work/part.txt\")\"\n" +
           grade + "\n";
}

// The merge's arguments: the results, the batch, the roster where one was given.
std::vector<std::string> merge_args(const SlurmRequest& r) {
    std::vector<std::string> args{r.out, "--batch", r.batch, "--kit", r.kit, "--rubric", r.rubric};
    if (!r.roster.empty()) args.insert(args.end(), {"--roster", r.roster});
    if (!r.lms_assignment.empty()) args.insert(args.end(), {"--lms-assignment", r.lms_assignment});
    return args;
}

std::string merge_script(const SlurmRequest& r, const std::string& dir) {
    std::string merge = quote(r.scan_grade) + " merge";
    for (const std::string& arg : merge_args(r)) merge += " " + (arg.rfind("--", 0) == 0 ? arg : quote(arg));
    return "#!/bin/bash\n"
           "# Written by scan-grade --slurm: the gradebook, once every array task has ended.\n"
           "#SBATCH --job-name=scan-grade-merge\n"
           "#SBATCH --output=" + dir + "/logs/merge.log\n"
           "#SBATCH --cpus-per-task=1\n"
           "#SBATCH --time=00:10:00\n" + common_options(r) +
           merge + "\n";
}

// OUT/slurm/todo.txt: one line per task, its submissions separated by tabs.
std::vector<std::vector<std::string>> read_todo(const std::string& path) {
    std::vector<std::vector<std::string>> tasks;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> names;
        std::stringstream fields(line);
        for (std::string name; std::getline(fields, name, '\t');)
            if (!name.empty()) names.push_back(name);
        tasks.push_back(names);
    }
    return tasks;
}

}  // namespace

int submit_to_slurm(const SlurmRequest& r, const std::vector<std::string>& todo) {
    const std::string dir = r.out + "/slurm";
    if (todo.empty()) {
        std::printf("every submission in %s has a result in %s for this rubric: nothing to submit\n", r.batch.c_str(),
                    r.out.c_str());
        return merge_main(merge_args(r), r.kit);
    }
    for (const auto& name : todo)
        if (name.find_first_of("\t\n") != std::string::npos) {
            std::fprintf(stderr, "scan-grade: a submission's name holds a tab or a newline: rename it: %s\n", name.c_str());
            return 2;
        }
    if (r.submit && shell("command -v sbatch").first != 0) {
        std::fprintf(stderr, "scan-grade: --slurm needs Slurm's sbatch on PATH (or --no-submit to write the scripts only)\n");
        return 1;
    }
    fs::create_directories(dir + "/logs");
    std::string lines;
    const std::size_t chunk = r.settings.chunk, tasks = (todo.size() + chunk - 1) / chunk;
    for (std::size_t t = 0; t < tasks; ++t) {
        for (std::size_t k = t * chunk; k < std::min(todo.size(), (t + 1) * chunk); ++k)
            lines += (k == t * chunk ? "" : "\t") + todo[k];
        lines += "\n";
    }
    write_file(dir + "/todo.txt", lines);
    write_file(dir + "/grade-array.sh", array_script(r, dir));
    write_file(dir + "/merge.sh", merge_script(r, dir));
    const std::string array = "sbatch --parsable --array=0-" + std::to_string(tasks - 1) + " " + quote(dir + "/grade-array.sh");
    const std::string merge_after = "sbatch --parsable --kill-on-invalid-dep=yes --dependency=afterany:";
    std::printf("%zu submissions to grade in %zu array tasks of up to %zu (%s, %u CPUs and %s each), their list in %s/todo.txt\n",
                todo.size(), tasks, chunk, r.backend == "emu" ? "no GPU" : "one GPU", r.settings.cpus_per_task,
                r.settings.time.c_str(), dir.c_str());
    if (!r.submit) {
        std::printf("not submitted (--no-submit); to submit:\n  job=$(%s)\n  %s$job %s\n", array.c_str(),
                    merge_after.c_str(), quote(dir + "/merge.sh").c_str());
        return 0;
    }
    const auto [rc, job] = shell(array);
    if (rc != 0) {
        std::fprintf(stderr, "scan-grade: sbatch refused the array (exit %d): %s\n", rc, job.c_str());
        return 1;
    }
    const std::string job_id = job.substr(0, job.find(';'));  // "ID" or "ID;cluster"
    const auto [mrc, merge] = shell(merge_after + job_id + " " + quote(dir + "/merge.sh"));
    if (mrc != 0) {
        std::fprintf(stderr, "scan-grade: array job %s submitted, but sbatch refused the merge job (exit %d): %s\n"
                     "  run `scan-grade merge %s` once the array has ended\n",
                     job_id.c_str(), mrc, merge.c_str(), r.out.c_str());
        return 1;
    }
    std::printf("submitted: array job %s (logs %s/logs/task-N.log), then merge job %s (%s/logs/merge.log) writes %s/gradebook.csv\n"
                "follow it with: squeue -j %s,%s\n",
                job_id.c_str(), dir.c_str(), merge.c_str(), dir.c_str(), r.out.c_str(), job_id.c_str(),
                merge.c_str());
    return 0;
}

int merge_main(const std::vector<std::string>& args, const std::string& default_kit) {
    std::string out, batch, roster_path, assignment, rubric_path;
    ClassReportSettings settings{default_kit, {}};
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--help" || args[i] == "-h") {
            std::puts("usage: scan-grade merge OUT [--batch FOLDER] [--roster FILE [--lms-assignment NAME]] [--kit DIR] [--rubric FILE]\n"
                      "writes OUT/gradebook.csv from every OUT/<student>/grade.json and names the submissions\n"
                      "without one: those of OUT/slurm/todo.txt (with their Slurm task's log) and of FOLDER.\n"
                      "--roster, --lms-assignment: also OUT/canvas.csv, OUT/moodle.csv and OUT/not-in-roster.txt,\n"
                      "as scan-grade --batch writes them (scan-grade --help); and the class report (scan-grade report\n"
                      "--help), with the kit and rubric of the grading (default: this grader's kit and its rubric).\n"
                      "exit status: 0 every submission graded, 1 some missing, 2 bad usage, roster or rubric");
            return 0;
        } else if (args[i] == "--batch" && i + 1 < args.size()) batch = args[++i];
        else if (args[i] == "--roster" && i + 1 < args.size()) roster_path = args[++i];
        else if (args[i] == "--lms-assignment" && i + 1 < args.size()) assignment = args[++i];
        else if (args[i] == "--kit" && i + 1 < args.size()) settings.kit = args[++i];
        else if (args[i] == "--rubric" && i + 1 < args.size()) rubric_path = args[++i];
        else if (args[i][0] == '-' || !out.empty()) {
            std::fprintf(stderr, "scan-grade merge: unknown argument %s (scan-grade merge --help)\n", args[i].c_str());
            return 2;
        } else out = args[i];
    }
    if (out.empty() || !fs::is_directory(out)) {
        std::fprintf(stderr, "scan-grade merge: %s (scan-grade merge --help)\n",
                     out.empty() ? "give the results folder" : ("no such folder: " + out).c_str());
        return 2;
    }
    if (!batch.empty() && !fs::is_directory(batch)) {
        std::fprintf(stderr, "scan-grade merge: --batch needs a folder: %s\n", batch.c_str());
        return 2;
    }
    if (!assignment.empty() && roster_path.empty()) {
        std::fprintf(stderr, "scan-grade merge: --lms-assignment goes with --roster FILE\n");
        return 2;
    }
    try {
        settings.similarity = load_rubric(rubric_path.empty() ? settings.kit + "/grader/rubric.json" : rubric_path).similarity;
    } catch (const RubricError& e) {
        std::fprintf(stderr, "scan-grade merge: %s\n", e.what());
        return 2;
    }
    std::optional<std::vector<RosterStudent>> roster;
    if (!roster_path.empty()) {
        try {
            roster = read_roster(roster_path);
        } catch (const RosterError& e) {
            std::fprintf(stderr, "scan-grade merge: %s\n", e.what());
            return 2;
        }
    }
    std::vector<Report> reports;
    std::map<std::string, bool> graded;
    for (const auto& entry : fs::directory_iterator(out)) {
        if (!entry.is_directory()) continue;
        if (auto record = read_record(entry.path().string())) {
            graded[entry.path().filename().string()] = true;
            reports.push_back(*record);
        }
    }
    std::sort(reports.begin(), reports.end(), [](const Report& a, const Report& b) { return a.submission < b.submission; });
    // Expected: each todo line's names (their task known) and the batch folder's.
    std::map<std::string, std::string> missing;  // name -> where to look
    const auto tasks = read_todo(out + "/slurm/todo.txt");
    for (std::size_t t = 0; t < tasks.size(); ++t)
        for (const auto& name : tasks[t])
            if (!graded.count(submission_name(name)))
                missing[name] = "Slurm task " + std::to_string(t) + ", its log " + out + "/slurm/logs/task-" + std::to_string(t) + ".log";
    if (!batch.empty())
        for (const BatchEntry& entry : read_batch(batch, false).entries) {
            const std::string name = entry.path.filename().string();
            if (!graded.count(entry.name) && !missing.count(name)) missing[name] = "not in this results folder";
        }
    const BatchBook book = write_gradebook(reports, out, roster ? &*roster : nullptr, assignment);
    std::fputs(book.summary.c_str(), stdout);
    for (const std::string& w : book.warnings) std::fprintf(stderr, "scan-grade merge: warning: %s\n", w.c_str());
    std::printf("%zu submissions in the gradebook: %s%s\n", reports.size(), book.files.c_str(),
                reports.empty() ? "" : class_report_after_batch(out, settings).c_str());
    if (missing.empty()) return 0;
    std::printf("%zu submissions missing (no grade.json): run the same scan-grade --batch ... --slurm again to grade only these\n",
                missing.size());
    for (const auto& [name, where] : missing) std::printf("  %s: %s\n", name.c_str(), where.c_str());
    return 1;
}

}  // namespace grader
