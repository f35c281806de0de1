#include "grader/cli/options.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "catalog.hpp"
#include "grader/outputs/classroom50.hpp"

namespace grader::cli {

namespace {

using Why = std::string;

// 1 to 100000 (--chunk, --cpus-per-task).
bool count(const std::string& text, unsigned& into) {
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (*end != '\0' || v < 1 || v > 100000) return false;
    into = static_cast<unsigned>(v);
    return true;
}

Why lab(Settings& s, const std::string& v) {
    const catalog::Lab* found = catalog::find(v);
    if (!found) {
        std::string known;
        for (const auto& l : catalog::labs()) known += (known.empty() ? "" : ", ") + l.id;
        return "no lab '" + v + "' (" + known + ")";
    }
    s.labs.push_back(found->id);
    s.lab_args.push_back(v);
    return "";
}

Why fail_under(Settings& s, const std::string& v) {
    char* end = nullptr;
    s.fail_under = std::strtod(v.c_str(), &end);
    if (*end != '\0' || end == v.c_str() || s.fail_under < 0 || s.fail_under > 100)
        return "--fail-under takes a percentage from 0 to 100: " + v;
    return "";
}

Why submitted_at(Settings& s, const std::string& v) {
    s.submitted_at = utc_instant(v);
    if (s.submitted_at.empty())
        return "--submitted-at takes an ISO 8601 instant with its offset (2026-09-01T14:00:05+02:00, ...Z): " + v;
    return "";
}

// Where an option has effect, as --help's prefix: "--batch, merge: "; none
// where that is everywhere, or the option itself (--batch).
std::string modes_prefix(const Option& o) {
    const unsigned modes = o.modes;
    if (modes == kGrading) return "";
    std::string out;
    const auto add = [&](const char* name) {
        if (o.names[0] != name) out += (out.empty() ? "" : ", ") + std::string(name);
    };
    if (modes & kOne) add("SUBMISSION");
    if (modes & kBatch) add("--batch");
    if ((modes & kSlurm) && !(modes & kBatch)) add("--slurm");  // --slurm goes with --batch
    if (modes & kMerge) add("merge");
    return out.empty() ? "" : out + ": ";
}

// `text` in lines of at most `width` columns, each after the first indented by `indent`.
std::string wrap(const std::string& text, std::size_t column, std::size_t indent, std::size_t width = 100) {
    std::istringstream words(text);
    std::string out;
    for (std::string word; words >> word;) {
        if (column + 1 + word.size() > width && column > indent) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
        } else if (!out.empty()) {
            out += ' ';
            ++column;
        }
        out += word;
        column += word.size();
    }
    return out;
}

// The options that do not go together, in the order main() checked them
// before; files are main()'s to check.
Why conflicts(const Settings& s) {
    if (!s.batch.empty() && !s.submission.empty()) return "give a SUBMISSION or --batch FOLDER, not both";
    if (s.backend != "auto" && s.backend != "emu" && s.backend != "cuda") return "--backend takes auto, emu or cuda";
    if ((s.slurm || !s.part.empty()) && s.batch.empty()) return std::string(s.slurm ? "--slurm" : "--part") + " goes with --batch FOLDER";
    if (s.slurm && !s.part.empty()) return "give --slurm or --part, not both";
    if (!s.roster.empty() && (s.batch.empty() || !s.part.empty()))
        return "--roster goes with --batch FOLDER (a Slurm task's --part writes no gradebook)";
    if (!s.lms_assignment.empty() && s.roster.empty()) return "--lms-assignment goes with --roster FILE";
    if (!s.submitted_at.empty() && !s.batch.empty()) return "--submitted-at goes with one SUBMISSION, not --batch";
    // The Slurm request's options (the table's kSlurm alone) without --slurm.
    std::vector<std::string> slurm_only;
    bool given = false;
    for (const Option& o : options())
        if (o.modes == kSlurm) {
            slurm_only.push_back(o.names[0]);
            given = given || std::find(s.given.begin(), s.given.end(), o.names[0]) != s.given.end();
        }
    if (s.slurm || !given) return "";
    std::string list;
    for (std::size_t k = 0; k < slurm_only.size(); ++k)
        list += (k == 0 ? "" : k + 1 == slurm_only.size() ? " and " : ", ") + slurm_only[k];
    return list + " go with --slurm";
}

constexpr const char* kHead = R"(usage: scan-grade [SUBMISSION] [options]       grade one submission (default: the kit's reference)
       scan-grade --batch FOLDER [options]        grade every submission in FOLDER into a gradebook
       scan-grade --batch FOLDER --slurm [options] submit the batch to Slurm as a job array
       scan-grade merge OUT [--batch FOLDER]      the gradebook of a Slurm batch (scan-grade merge --help)
       scan-grade report OUT                      OUT/class.json and class.html, the class at a glance
       scan-grade export DIR [--kit DIR] [--force]  write the student repository into DIR
                                                  (scan-grade export --help)

SUBMISSION: a folder, .zip or .tar.gz holding labs/NN-name/scan.cu files (a copy of the
student tree or just those files); only each lab's scan.cu is graded.
options (a value also as --option=VALUE):
)";

constexpr const char* kTail = R"(Slurm (--batch FOLDER --slurm): OUT must be on a file system the nodes share (course/slurm/README.md).
exit status: 0 graded (whatever the score, without --fail-under), 1 the grader could not grade,
  2 bad usage, 3 a score under --fail-under, 128 + N stopped by signal N (SIGINT, SIGTERM): what
  finished is written, the rest named
)";

}  // namespace

const std::vector<Option>& options() {
    // clang-format off
    static const std::vector<Option> table = {
        {{"--help", "-h"}, nullptr, kGrading, "this text",
         [](Settings& s, const std::string&) { s.help = true; return Why(); }},
        {{"--batch"}, "FOLDER", kBatch | kSlurm, "grade every submission in FOLDER into a gradebook",
         [](Settings& s, const std::string& v) { s.batch = v; return Why(); }},
        {{"--out"}, "DIR", kGrading, "where results go (default scan-grade-results; --batch: DIR/<student>/ and DIR/gradebook.csv)",
         [](Settings& s, const std::string& v) { s.out = v; return Why(); }},
        {{"--work"}, "DIR", kGrading, "builds and scratch files (default scan-grade-work; reused between runs)",
         [](Settings& s, const std::string& v) { s.work = v; return Why(); }},
        {{"--rubric"}, "FILE", kGrading, "points, hidden datasets, targets (default: the kit's grader/rubric.json)",
         [](Settings& s, const std::string& v) { s.rubric = v; return Why(); }},
        {{"--kit"}, "DIR", kGrading, "the kit's source tree (default: the one this scan-grade was built from)",
         [](Settings& s, const std::string& v) { s.kit = v; return Why(); }},
        {{"--lab"}, "N", kGrading, "grade only this lab (01, lab02, 03-exclusive, ...); repeatable", lab},
        {{"--backend"}, "B", kGrading, "auto (default: the emulator, plus CUDA where a GPU is usable), emu, or cuda "
         "(the GPU alone, where the emulator cannot be built: no divergence component)",
         [](Settings& s, const std::string& v) { s.backend = v; return Why(); }},
        {{"--jobs"}, "N", kBatch, "submissions graded at once (default: 2 per GPU, 2 without one); each slot uses one GPU "
         "(CUDA_VISIBLE_DEVICES), timing never shares a GPU; an interrupted batch rerun into the same --out grades only "
         "what is missing",
         [](Settings& s, const std::string& v) {
             s.jobs = static_cast<unsigned>(std::atoi(v.c_str()));
             return s.jobs < 1 || s.jobs > 64 ? Why("--jobs takes 1 to 64") : Why();
         }},
        {{"--part"}, "FILE", kBatch, "grade only the entries of FOLDER named in FILE (one per line) and write no "
         "gradebook (a Slurm task's share; scan-grade merge writes it)",
         [](Settings& s, const std::string& v) { s.part = v; return Why(); }},
        {{"--roster"}, "FILE", kBatch | kSlurm | kMerge, "the class's roster.csv (header submission,lms_id,name): write "
         "DIR/canvas.csv and DIR/moodle.csv, a row per roster student (no submission: 0), and list in "
         "DIR/not-in-roster.txt the submissions it does not name",
         [](Settings& s, const std::string& v) { s.roster = v; return Why(); }},
        {{"--lms-assignment"}, "NAME", kBatch | kSlurm | kMerge, "with --roster, the LMS files' grade column, the "
         "assignment as the LMS names it (Canvas: Lab 2 (40125), with its id; default: the lab graded, 02-brent-kung, "
         "or scan-labs for all); the grade is the percent graded",
         [](Settings& s, const std::string& v) { s.lms_assignment = v; return Why(); }},
        {{"--submitted-at"}, "T", kOne, "the submission's instant (ISO 8601 with its offset: git log -1 --format=%cI): "
         "result.json's datetime, by which Classroom 50 marks it late (default: where SUBMISSION is a git checkout, its "
         "HEAD's committer date, else the grading time, with a warning); the grading time is graded_at. --batch takes "
         "each entry's own", submitted_at},
        {{"--no-sandbox"}, nullptr, kGrading, "run student code without bubblewrap even where it works",
         [](Settings& s, const std::string&) { s.sandbox = false; return Why(); }},
        {{"--show-hidden"}, nullptr, kGrading, "the instructor's copy: name each hidden dataset (kind, size, seed) and "
         "show its failures in full; without it every output names one only \"hidden dataset k of lab NN\", with pass or "
         "fail (a seed is the dataset: students have the generator)",
         [](Settings& s, const std::string&) { s.show_hidden = true; return Why(); }},
        {{"--no-cache"}, nullptr, kOne | kBatch, "grade every lab again: without it, a lab graded on the emulator alone "
         "before, with the same scan.cu, kit, grader and rubric, takes that result (the cache is WORK/result-cache, or "
         "$SCAN_GRADE_CACHE; never used where a GPU grades)",
         [](Settings& s, const std::string&) { s.cache = false; return Why(); }},
        {{"--fail-under"}, "P", kOne | kBatch, "exit 3 when a submission scores under P percent of what was graded "
         "(--batch: any of them), for a workflow that wants a red job; results are written as ever", fail_under},
        {{"--colour", "--color"}, nullptr, kOne, "colour the terminal table (default: when stdout is a terminal)",
         [](Settings& s, const std::string&) { s.colour = true; return Why(); }},
        {{"--no-colour", "--no-color"}, nullptr, kOne, "never colour it",
         [](Settings& s, const std::string&) { s.colour = false; return Why(); }},
        {{"--slurm"}, nullptr, kBatch, "submit the batch to Slurm as a job array and a merge job",
         [](Settings& s, const std::string&) { s.slurm = true; return Why(); }},
        {{"--partition"}, "P", kSlurm, "each array task's partition (default: the rubric's \"slurm\" section, else the "
         "cluster's)",
         [](Settings& s, const std::string& v) { s.partition = v; return Why(); }},
        {{"--account"}, "A", kSlurm, "each array task's account (default: the rubric's, else the cluster's)",
         [](Settings& s, const std::string& v) { s.account = v; return Why(); }},
        {{"--time"}, "HH:MM:SS", kSlurm, "each array task's time limit (default: the rubric's, else 01:00:00)",
         [](Settings& s, const std::string& v) { s.time_limit = v; return Why(); }},
        {{"--chunk"}, "N", kSlurm, "submissions per array task (default: the rubric's, else 1)",
         [](Settings& s, const std::string& v) {
             return count(v, s.chunk) ? Why() : Why("--chunk takes a number of submissions: " + v);
         }},
        {{"--cpus-per-task"}, "N", kSlurm, "each array task's CPUs (default: the rubric's, else 8; one GPU unless "
         "--backend emu)",
         [](Settings& s, const std::string& v) {
             return count(v, s.cpus_per_task) ? Why() : Why("--cpus-per-task takes a number: " + v);
         }},
        {{"--sbatch-arg"}, "ARG", kSlurm, "passed to sbatch as an #SBATCH line, e.g. --sbatch-arg=--qos=short; repeatable",
         [](Settings& s, const std::string& v) { s.sbatch_args.push_back(v); return Why(); }},
        {{"--no-submit"}, nullptr, kSlurm, "write OUT/slurm/ and print the sbatch commands instead of running them",
         [](Settings& s, const std::string&) { s.submit = false; return Why(); }},
    };
    // clang-format on
    return table;
}

std::string help_text() {
    std::string out = kHead;
    for (const Option& o : options()) {
        std::string names;
        for (const auto& n : o.names) names += (names.empty() ? "" : ", ") + n;
        if (o.value) names += std::string(" ") + o.value;
        // The help in a column from 19, or two spaces after a longer name.
        const std::string left = "  " + names + (names.size() <= 16 ? std::string(17 - names.size(), ' ') : "  ");
        out += left + wrap(modes_prefix(o) + o.help, left.size(), 19) + "\n";
    }
    return out + kTail;
}

std::string parse(int argc, const char* const* argv, Settings& s) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.empty() || arg[0] != '-') {
            if (!s.submission.empty()) return "more than one submission given: " + s.submission + ", " + arg;
            s.submission = arg;
            continue;
        }
        const std::size_t equals = arg.rfind("--", 0) == 0 ? arg.find('=') : std::string::npos;
        const std::string name = arg.substr(0, equals);
        const Option* option = nullptr;
        for (const Option& o : options())
            for (const auto& n : o.names)
                if (n == name) option = &o;
        if (!option) return "unknown option " + arg + " (scan-grade --help lists them)";
        std::string value;
        if (equals != std::string::npos) {
            if (!option->value) return name + " takes no value: " + arg;
            value = arg.substr(equals + 1);
        } else if (option->value) {
            if (i + 1 == argc) return name + " needs a value: " + name + " " + option->value;
            value = argv[++i];
        }
        if (const std::string why = option->set(s, value); !why.empty()) return why;
        if (s.help) return "";
        s.given.push_back(option->names[0]);
    }
    return conflicts(s);
}

}  // namespace grader::cli
