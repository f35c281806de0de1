// scan-grade: grades one submission, or a folder of them, with the kit's
// rubric. See grader/README.md.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "catalog.hpp"
#include "export.hpp"
#include "grade.hpp"
#include "outputs.hpp"

namespace fs = std::filesystem;
using namespace grader;

namespace {

constexpr const char* kUsage = R"(usage: scan-grade [SUBMISSION] [options]       grade one submission (default: the kit's reference)
       scan-grade --batch FOLDER [options]        grade every submission in FOLDER into a gradebook
       scan-grade export DIR [--kit DIR] [--force]  write the student repository into DIR
                                                  (scan-grade export --help)

SUBMISSION: a folder, .zip or .tar.gz holding labs/NN-name/scan.cu files (a copy of the
student tree or just those files); only each lab's scan.cu is graded.
options:
  --out DIR        where results go (default scan-grade-results; --batch: DIR/<student>/ and
                   DIR/gradebook.csv)
  --work DIR       builds and scratch files (default scan-grade-work; reused between runs)
  --rubric FILE    points, hidden datasets, targets (default: the kit's grader/rubric.json)
  --kit DIR        the kit's source tree (default: the one this scan-grade was built from)
  --lab N          grade only this lab (01, lab02, 03-exclusive, ...); repeatable
  --backend B      auto (default: the emulator, plus CUDA where a GPU is usable), emu, or cuda
                   (the GPU alone, where the emulator cannot be built: no divergence component)
  --jobs N         --batch: submissions built and run at once (default 2); GPU work never overlaps
  --no-sandbox     run student code without bubblewrap even where it works
  --colour/--no-colour  colour the terminal table (default: when stdout is a terminal)
exit status: 0 graded (whatever the score), 1 the grader could not grade, 2 bad usage
)";

int usage(const std::string& why) {
    std::fprintf(stderr, "scan-grade: %s\n%s", why.c_str(), kUsage);
    return 2;
}

bool gpu_usable(std::string& device) {
    const Outcome nvcc = run_contained({"nvcc", "--version"}, "/", {}, Limits{30}, Sandbox{});
    if (!nvcc.ok()) {
        device = "no GPU backend: nvcc is not on PATH";
        return false;
    }
    const Outcome smi = run_contained({"nvidia-smi", "-L"}, "/", {}, Limits{30}, Sandbox{});
    if (!smi.ok() || smi.output.find("GPU") == std::string::npos) {
        device = "no GPU: nvidia-smi -L " + (smi.ok() ? std::string("lists none") : smi.describe());
        return false;
    }
    device = smi.output.substr(0, smi.output.find('\n'));
    return true;
}

std::vector<fs::path> batch_entries(const fs::path& folder) {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(folder)) {
        const std::string name = e.path().filename().string();
        const auto ends = [&](const std::string& ext) {
            return name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0;
        };
        if (name[0] != '.' && (e.is_directory() || ends(".zip") || ends(".tar.gz") || ends(".tgz"))) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

// A submission that cannot be graded still gets a report, with every lab zero.
Report ungradable(Context& ctx, const std::string& name, const std::string& why) {
    Report r;
    r.submission = name;
    r.backend = backend_names(ctx);
    r.device = ctx.device;
    r.notes.push_back("not graded: " + why);
    for (const auto& id : ctx.labs) r.labs.push_back(zero_lab(ctx, *catalog::find(id), "submission", why, "Not graded: " + why));
    return r;
}

Report grade_path(Context& ctx, Slot& slot, const fs::path& path, const std::string& unpack_dir) {
    Submission sub;
    try {
        sub = open_submission(path.string(), unpack_dir, ctx.kit);
    } catch (const SubmissionError& e) {
        return ungradable(ctx, path.filename().string(), e.what());
    }
    return grade(ctx, slot, sub);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "export") == 0)
        return export_main(std::vector<std::string>(argv + 2, argv + argc), SCAN_KIT_SOURCE);
    Context ctx;
    std::string submission, batch, out = "scan-grade-results", work = "scan-grade-work", rubric_path, backend = "auto";
    ctx.kit = SCAN_KIT_SOURCE;
    unsigned jobs = 2;
    bool sandbox = true, colour = isatty(1);
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool value = i + 1 < argc;
        if (arg == "--help" || arg == "-h") {
            std::fputs(kUsage, stdout);
            return 0;
        } else if (arg == "--out" && value) out = argv[++i];
        else if (arg == "--work" && value) work = argv[++i];
        else if (arg == "--rubric" && value) rubric_path = argv[++i];
        else if (arg == "--kit" && value) ctx.kit = argv[++i];
        else if (arg == "--batch" && value) batch = argv[++i];
        else if (arg == "--backend" && value) backend = argv[++i];
        else if (arg == "--lab" && value) {
            const catalog::Lab* lab = catalog::find(argv[++i]);
            if (!lab) return usage(std::string("no lab '") + argv[i] + "' (01-kogge-stone, 02-brent-kung, 03-exclusive, 04-hierarchical)");
            ctx.labs.push_back(lab->id);
        } else if (arg == "--jobs" && value) {
            jobs = static_cast<unsigned>(std::atoi(argv[++i]));
            if (jobs < 1 || jobs > 64) return usage("--jobs takes 1 to 64");
        } else if (arg == "--no-sandbox") sandbox = false;
        else if (arg == "--colour" || arg == "--color") colour = true;
        else if (arg == "--no-colour" || arg == "--no-color") colour = false;
        else if (arg[0] == '-') return usage("unknown option or missing value: " + arg);
        else if (submission.empty()) submission = arg;
        else return usage("more than one submission given: " + submission + ", " + arg);
    }
    if (!batch.empty() && !submission.empty()) return usage("give a SUBMISSION or --batch FOLDER, not both");
    if (backend != "auto" && backend != "emu" && backend != "cuda") return usage("--backend takes auto, emu or cuda");
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

    fs::create_directories(work);
    work = fs::canonical(work).string();
    ctx.kit = fs::canonical(ctx.kit).string();
    ctx.work = work;
    ctx.backends = {"emu"};
    if (backend == "emu") ctx.device = "no GPU backend: --backend emu";
    else if (gpu_usable(ctx.device)) ctx.backends.push_back("cuda");
    else if (backend == "cuda") return usage("--backend cuda needs a usable GPU: " + ctx.device);
    if (backend == "cuda") ctx.backends = {"cuda"};  // no emulator: no divergence, no emulator checks
    ctx.sandbox = Sandbox::probe(sandbox);
    ctx.sandbox.hide = {ctx.kit + "/reference", ctx.kit + "/grader", fs::absolute(rubric_path).string(), work};

    try {
        if (!batch.empty()) {
            const std::vector<fs::path> entries = batch_entries(batch);
            std::vector<Report> reports(entries.size());
            std::atomic<std::size_t> next{0}, done{0};
            std::mutex print;
            const bool bar = isatty(2);  // a live progress line on a terminal, one line per student in a log
            if (bar)
                ctx.progress = [&](const std::string& line) {
                    std::lock_guard<std::mutex> lock(print);
                    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done.load(), entries.size(), line.substr(0, 100).c_str());
                };
            std::vector<std::thread> workers;
            std::vector<std::string> errors(entries.size());
            for (unsigned j = 0; j < std::min<std::size_t>(jobs, entries.size()); ++j)
                workers.emplace_back([&, j] {
                    Slot slot = make_slot(ctx, j);
                    for (std::size_t k; (k = next++) < entries.size();) {
                        try {
                            reports[k] = grade_path(ctx, slot, entries[k], work + "/unpack" + std::to_string(j));
                        } catch (const std::exception& e) {  // the grader's trouble on this one: the batch goes on
                            reports[k] = ungradable(ctx, entries[k].filename().string(), e.what());
                        }
                        write_all(reports[k], out + "/" + reports[k].submission);
                        ++done;
                        if (!bar) {
                            std::lock_guard<std::mutex> lock(print);
                            std::fprintf(stderr, "[%zu/%zu] %s graded\n", done.load(), entries.size(), reports[k].submission.c_str());
                        }
                    }
                });
            for (auto& w : workers) w.join();
            if (bar) std::fprintf(stderr, "\r\033[K");
            fs::create_directories(out);
            std::ofstream(out + "/gradebook.csv") << gradebook_csv(reports);
            for (const auto& r : reports)
                std::printf("%-32s %7.2f / %.2f\n", r.submission.c_str(), r.score(), r.max_score());
            std::printf("%zu submissions graded: %s/gradebook.csv and one folder per student in %s/\n", reports.size(),
                        out.c_str(), out.c_str());
            return 0;
        }
        ctx.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
        Slot slot = make_slot(ctx, 0);
        Report report = grade_path(ctx, slot, submission, work + "/unpack0");
        write_all(report, out);
        std::fputs(terminal_table(report, colour).c_str(), stdout);
        std::printf("results: %s/ (report.html, results.json for Gradescope, prairielearn.json, junit.xml, summary.md, feedback.txt)\n",
                    out.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "scan-grade: cannot grade: %s\n", e.what());
        return 1;
    }
    return 0;
}
