// grade() on canned runs (canned_executor.hpp): the scores and messages of a
// right, wrong, racy, hung, crashed and leaking lab, one the emulator cannot
// run, and timing that cannot be scored, on the emulator alone and with a
// GPU; nothing is built or run.
#include <doctest/doctest.h>

#include <filesystem>
#include <set>
#include <fstream>

#include "grader/core/files.hpp"
#include "grader/grading/grade.hpp"
#include "grader/outputs/outputs.hpp"
#include "grader/tests/canned_executor.hpp"

namespace fs = std::filesystem;
using namespace grader;
using canned::Kind;

namespace {

const std::string kLab02 = "02-brent-kung", kLab03 = "03-exclusive";

struct Grading {
    Context ctx;
    Slot slot;
    canned::Executor* exec;
    explicit Grading(std::vector<std::string> backends) {
        ctx.rubric = load_rubric(KIT "/grader/rubric.json");
        ctx.rubric.timing_n = 4096;  // canned runs: the sizes only cost the test time
        ctx.kit = KIT;
        ctx.work = (fs::temp_directory_path() / "scan-grade-canned").string();
        ctx.backends = std::move(backends);
        ctx.device = ctx.backends.back() == "cuda" ? "a canned GPU" : "no GPU: canned";
        if (ctx.backends.back() == "cuda") {
            ctx.gpus = {"0"};
            ctx.gpu_locks.push_back(ctx.work + "/gpu-locks/gpu0");
            gpu_lock::create(ctx.gpu_locks.back());
            slot.gpu = 0;
            slot.gpu_id = "0";
        }
        ctx.cpu.reset(4);
        auto e = std::make_unique<canned::Executor>();
        e->backends = ctx.backends;
        exec = e.get();
        slot.exec = std::move(e);
    }
    // Grades `path` as lab `lab`'s scan.cu, that lab alone.
    Report grade_file(const std::string& lab, const std::string& path) {
        ctx.labs = {lab};
        Submission sub;
        sub.name = "student";
        sub.files[lab] = LabFile{path, "labs/" + lab + "/scan.cu", {}, {}, "", ""};
        Report report = grade(ctx, slot, sub);
        REQUIRE(report.labs.size() == 1);
        return report;
    }
    LabResult grade_lab(const std::string& lab, const std::string& path) { return grade_file(lab, path).labs.front(); }
    LabResult grade_reference(const std::string& lab) { return grade_lab(lab, KIT "/reference/" + lab + "/scan.cu"); }
};

const Component& component(const LabResult& lab, const std::string& name) {
    const Component* c = find_component(lab, name);
    REQUIRE(c != nullptr);
    return *c;
}

std::string all_output(const LabResult& lab) {
    std::string text;
    for (const auto& t : lab.tests) text += t.output;
    return text;
}

// The output of the lab's test of `component` (safety, ...: one test).
std::string output_of(const LabResult& lab, const std::string& component) {
    std::string text;
    for (const auto& t : lab.tests)
        if (t.component == component) text += t.output;
    return text;
}

// The reference's lab 02 with inline PTX, which the emulator does not run.
std::string with_inline_ptx() {
    const std::string path = (fs::temp_directory_path() / "scan-grade-canned-ptx.cu").string();
    write_file(path, read_file(KIT "/reference/02-brent-kung/scan.cu") +
                         "\n__device__ unsigned lane_id() { unsigned l; asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(l)); return l; }\n");
    return path;
}

// The reference's lab 02 with an #include of CUB that it never uses.
std::string with_unused_cub() {
    const std::string path = (fs::temp_directory_path() / "scan-grade-canned-cub.cu").string();
    write_file(path, "#include <cub/cub.cuh>\n" + read_file(KIT "/reference/02-brent-kung/scan.cu"));
    return path;
}

bool noted(const Report& report, const std::string& note) {
    return std::find(report.notes.begin(), report.notes.end(), note) != report.notes.end();
}

}  // namespace

TEST_CASE("right on the emulator: full correctness, safety and divergence; timing as the rubric says") {
    Grading g({"emu"});
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "correctness").score == doctest::Approx(60));
    CHECK(component(lab, "correctness").note == "21 of 21 datasets right");
    CHECK(component(lab, "safety").score == doctest::Approx(20));
    CHECK(component(lab, "divergence").score == doctest::Approx(10));
    CHECK_FALSE(component(lab, "timing").gradable);  // rubric.json: no_gpu = exclude
    CHECK(lab.findings.empty());
    CHECK(g.exec->planned == 0);
    CHECK(g.exec->timed == 0);
}

TEST_CASE("wrong: no correctness, and the later components are not scored") {
    Grading g({"emu"});
    g.exec->emu = Kind::wrong;
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "correctness").score == 0);
    CHECK(component(lab, "correctness").note == "0 of 21 datasets right");
    CHECK(component(lab, "safety").score == 0);
    CHECK(component(lab, "safety").note.find("no dataset came out right") != std::string::npos);
    CHECK(component(lab, "divergence").score == 0);
    CHECK(all_output(lab).find("outputs_match") != std::string::npos);
}

TEST_CASE("racy: right values, the race costs a quarter of safety and is named once") {
    Grading g({"emu"});
    g.exec->emu = Kind::racy;
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "correctness").score == doctest::Approx(60));
    CHECK(component(lab, "safety").score == doctest::Approx(15));
    CHECK(component(lab, "safety").note.rfind("3 of 4 checks clean", 0) == 0);
    // Every dataset showed it: once in full, then as each of the first hidden
    // datasets that showed it, withheld until grades are published.
    REQUIRE(lab.findings.size() == 3);
    CHECK(lab.findings[0].kind == "race");
    CHECK(finding::sentence(lab.findings[0]) ==
          "data race on shared memory in kernel scan_kernel: canned (and 3 more blocks); launched at scan.cu:40");
    CHECK(finding::sentence(lab.findings[1]) ==
          "race finding on hidden dataset 1 of lab 02 (details shown after grades are published)");
}

TEST_CASE("the findings in the feedback: each problem once, as an editor's diagnostic lines") {
    Grading racy({"emu"});
    racy.exec->emu = Kind::racy;
    const LabResult raced = racy.grade_reference(kLab02);
    const std::string safety = output_of(raced, "safety");
    REQUIRE(safety.find("FAIL  race findings:\n") != std::string::npos);
    // The race at its line, the launch a note; a hidden dataset's without a line.
    CHECK(safety.find("\n  labs/02-brent-kung/scan.cu:24: error: data race on shared memory in kernel scan_kernel: "
                      "canned (and 3 more blocks); launched at scan.cu:40\n"
                      "  labs/02-brent-kung/scan.cu:40: note: the kernel was launched here\n") != std::string::npos);
    CHECK(safety.find("\n  labs/02-brent-kung/scan.cu: error: race finding on hidden dataset 1 of lab 02 (details shown "
                      "after grades are published)\n") != std::string::npos);

    // A barrier divergence on every dataset, in another block as the length changes.
    Grading g({"emu"});
    g.exec->emu = Kind::undefined;
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "correctness").score == 0);
    std::string correctness, hidden;
    for (const TestResult& t : lab.tests)
        if (t.component == "correctness") (t.hidden ? hidden : correctness) += t.output;
    const auto count = [](const std::string& text, const std::string& part) {
        std::size_t n = 0;
        for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
        return n;
    };
    // In full at the first dataset that showed it, then by its title on each later one.
    const std::string full = "undefined behaviour, so these values prove nothing:\n"
                             "  labs/02-brent-kung/scan.cu:23: error: barrier divergence in kernel scan_kernel: block (1,0,0): "
                             "canned; launched at scan.cu:40\n"
                             "  labs/02-brent-kung/scan.cu:40: note: the kernel was launched here\n";
    CHECK(count(correctness, "scan.cu:23: error:") == 1);
    CHECK(correctness.find("FAIL  walk1 n=1 seed=202 (no points: the answer equals the input)\n" + full) != std::string::npos);
    const std::size_t failed = count(correctness, "FAIL  ");
    CHECK(failed > 10);
    CHECK(count(correctness, "undefined behaviour, so these values prove nothing: barrier divergence in kernel scan_kernel "
                             "at scan.cu:23 (shown in full above)\n") == failed - 1);
    // Hidden datasets are withheld: named by number, no finding.
    CHECK(count(hidden, "FAIL  hidden dataset ") > 0);
    CHECK(hidden.find("scan.cu") == std::string::npos);
    // The safety test's list: the problem once, though each dataset showed it in another block.
    const std::string safety_list = output_of(lab, "safety");
    CHECK(count(safety_list, "labs/02-brent-kung/scan.cu:23: error: barrier divergence") == 1);
}

TEST_CASE("leaking: right values, the leak costs a quarter of safety") {
    Grading g({"emu"});
    g.exec->emu = Kind::leaking;
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "correctness").score == doctest::Approx(60));
    CHECK(component(lab, "safety").score == doctest::Approx(15));
    REQUIRE(lab.findings.size() == 3);  // once in full, then withheld (see above)
    CHECK(lab.findings[0].kind == "leak");
    CHECK(finding::sentence(lab.findings[0]) ==
          "4096 bytes in 1 allocation(s) still live after brent_kung_scan returned (cudaFree every temporary)");
}

TEST_CASE("hung on the emulator: it gives up after the rubric's timeouts, probing the smallest first") {
    Grading g({"emu"});
    g.exec->emu = Kind::hung;
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "correctness").score == 0);
    CHECK(g.exec->emulated == g.ctx.rubric.give_up_after);  // not one run per dataset
    const std::string out = all_output(lab);
    CHECK(out.find("canned: timed out") != std::string::npos);
    CHECK(out.find("not run, after 2 timeouts in this lab") != std::string::npos);
}

TEST_CASE("crashed: every dataset fails with the process's problem") {
    Grading g({"emu"});
    g.exec->emu = Kind::crashed;
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "correctness").score == 0);
    CHECK(all_output(lab).find("canned: killed by signal 11") != std::string::npos);
}

TEST_CASE("a dataset above 2^31 elements on the GPU alone: counted, its failure alone hinted, never on the emulator") {
    const std::string lab04 = "04-hierarchical";
    // Right there: all datasets right, the rubric's size asked once per function.
    Grading right({"emu", "cuda"});
    const LabResult ok = right.grade_reference(lab04);
    CHECK(right.exec->device_only_asked == std::vector<std::string>{"hierarchical_scan 2147484673"});
    CHECK(component(ok, "correctness").score == doctest::Approx(60));
    CHECK(component(ok, "correctness").note == "24 of 24 datasets right");
    // Wrong there alone (an index in 32 bits): one dataset's points lost, withheld as hidden ones are, the hint shown.
    Grading wraps({"emu", "cuda"});
    wraps.exec->device_only_check.wrong = 1073742337;
    wraps.exec->device_only_check.first = 2147483648;
    const LabResult lab = wraps.grade_reference(lab04);
    CHECK(component(lab, "correctness").note == "23 of 24 datasets right");
    const std::string out = all_output(lab);
    CHECK(out.find("FAIL  hidden dataset 4 of lab 04 [cuda]\n") != std::string::npos);
    CHECK(out.find("hint: only this dataset, above 2^31 elements, failed: an index or offset held in 32 bits") !=
          std::string::npos);
    CHECK(out.find("2147483648") == std::string::npos);  // withheld: not where it failed
    // A crash there (an index past the allocation): failed, with no detail.
    Grading crash({"emu", "cuda"});
    crash.exec->device_only_check.problem = "hierarchical_scan (execution): cudaErrorIllegalAddress";
    CHECK(component(crash.grade_reference(lab04), "correctness").note == "23 of 24 datasets right");
    // Too little device memory: left out of the score, no fault of the code.
    Grading small({"emu", "cuda"});
    small.exec->device_only_check.skipped = "n = 2147484673 needs 16640 MiB of device memory, 9000 MiB free";
    CHECK(component(small.grade_reference(lab04), "correctness").note == "23 of 23 datasets right");
    // The emulator alone never has it.
    Grading emu({"emu"});
    CHECK(component(emu.grade_reference(lab04), "correctness").note == "23 of 23 datasets right");
    CHECK(emu.exec->device_only_asked.empty());
    // Labs without it in the rubric: not asked.
    Grading lab02({"emu", "cuda"});
    lab02.grade_reference(kLab02);
    CHECK(lab02.exec->device_only_asked.empty());
}

TEST_CASE("one verdict: a read of memory nothing wrote costs the same on the emulator alone and with initcheck") {
    // The rule (simt/docs/checks.md, uninitialized global memory read): an atomic's
    // read-modify-write of unwritten bytes reads them, as initcheck says, so
    // the emulator reports what initcheck reports, and both count once,
    // against memory, the values still compared.
    const std::string lab04 = "04-hierarchical";
    Grading emu({"emu"});
    emu.exec->emu = Kind::uninitialised;
    const LabResult alone = emu.grade_reference(lab04);
    Grading both({"emu", "cuda"});
    both.exec->emu = Kind::uninitialised;
    both.exec->sanitizer_logs["initcheck"] = read_file(KIT "/grader/tests/sanitizer/initcheck-lab04-sums-never-written.log");
    const LabResult gpu = both.grade_reference(lab04);
    CHECK(component(alone, "correctness").score == doctest::Approx(60));  // not undefined: the values count
    CHECK(component(gpu, "correctness").score == doctest::Approx(60));
    CHECK(component(alone, "safety").score == doctest::Approx(15));  // memory's quarter
    CHECK(component(gpu, "safety").score == doctest::Approx(15));    // the same quarter, once
    // initcheck's report alone (an emulator that missed it) costs that same quarter.
    Grading sanitizer({"emu", "cuda"});
    sanitizer.exec->sanitizer_logs["initcheck"] = both.exec->sanitizer_logs["initcheck"];
    const LabResult only = sanitizer.grade_reference(lab04);
    CHECK(component(only, "safety").score == doctest::Approx(15));
    CHECK(all_output(only).find("(compute-sanitizer initcheck)") != std::string::npos);
}

TEST_CASE("beyond the emulator, no GPU: needs a GPU to grade, never zero") {
    Grading g({"emu"});
    const LabResult lab = g.grade_lab(kLab02, with_inline_ptx());
    CHECK_FALSE(lab.gradable());
    CHECK(lab.note.rfind("needs a GPU to grade", 0) == 0);
    CHECK(lab.note.find("inline PTX") != std::string::npos);
    CHECK(g.exec->emulated == 0);
}

TEST_CASE("beyond the emulator, with a GPU: the GPU's verdicts alone count, divergence by its counters") {
    Grading g({"emu", "cuda"});
    g.exec->emu = Kind::wrong;  // what the emulator would say does not count
    const LabResult lab = g.grade_lab(kLab02, with_inline_ptx());
    CHECK(component(lab, "correctness").score == doctest::Approx(60));
    CHECK(component(lab, "timing").score == doctest::Approx(10));
    CHECK(g.exec->emulated == 0);
    // Divergence is not dropped from the total: Nsight Compute's lanes per
    // warp instruction, the submission's against the reference's.
    CHECK(g.exec->gpu_divergence_asked == std::vector<std::string>{"brent_kung_scan"});
    CHECK(component(lab, "divergence").gradable);
    CHECK(component(lab, "divergence").score == doctest::Approx(10));
    CHECK(all_output(lab).find("measured on the GPU by Nsight Compute: ") != std::string::npos);
    CHECK(all_output(lab).find("; the emulator cannot run `asm`") != std::string::npos);
}

TEST_CASE("beyond the emulator, divergence on the GPU: scored by the emulator's rule, or not scored with why") {
    Grading g({"emu", "cuda"});
    // Lab 02's modulo mapping on an H100 has about half the reference's lanes busy.
    g.exec->gpu_lanes = {"", 0.45, 0.93, 2.5e6, 1.9e5};
    const LabResult divergent = g.grade_lab(kLab02, with_inline_ptx());
    CHECK(all_output(divergent).find("2.50 million lane slots left idle against the reference's 190000") !=
          std::string::npos);
    const double expected = 10 * score::divergence_part(0.45, 0.93, g.ctx.rubric.divergence_full_within,
                                                        g.ctx.rubric.divergence_zero_below);
    CHECK(component(divergent, "divergence").score == doctest::Approx(expected));
    CHECK(component(divergent, "divergence").score < 10);
    // No counters (the driver refuses them, ncu is missing): 0 of its points, the reason shown.
    Grading denied({"emu", "cuda"});
    denied.exec->gpu_lanes = {"Nsight Compute measured no kernel of the submission's build (hardware counters are not permitted)", 0, 0};
    const LabResult lab = denied.grade_lab(kLab02, with_inline_ptx());
    CHECK(component(lab, "divergence").gradable);
    CHECK(component(lab, "divergence").score == 0);
    CHECK(all_output(lab).find("not scored: Nsight Compute measured no kernel") != std::string::npos);
    // --backend cuda alone: divergence is the emulator's measure, not asked of the GPU.
    Grading cuda({"cuda"});
    const LabResult alone = cuda.grade_lab(kLab02, with_inline_ptx());
    CHECK(cuda.exec->gpu_divergence_asked.empty());
    CHECK_FALSE(component(alone, "divergence").gradable);
}

TEST_CASE("an unused #include of a header the emulator lacks: the emulator grades the lab without it, noted") {
    const std::string note = "02-brent-kung: unused #include <cub/cub.cuh> left out on the emulator (scan.cu:1)";
    for (const std::vector<std::string>& backends : {std::vector<std::string>{"emu"}, {"emu", "cuda"}}) {
        Grading g(backends);
        const Report report = g.grade_file(kLab02, with_unused_cub());
        const LabResult& lab = report.labs.front();
        CHECK(lab.note.empty());
        CHECK(lab.emulator_limits.empty());
        CHECK(component(lab, "divergence").gradable);
        CHECK(component(lab, "divergence").score == doctest::Approx(10));
        CHECK(g.exec->emulated > 0);
        CHECK(noted(report, note));
    }
}

TEST_CASE("an #include left out whose names the code needed after all: graded as the emulator's limit, never zero") {
    // The emulator's build fails without it; nvcc compiles the file: as before it was left out.
    Grading g({"emu"});
    g.exec->failing_build = 0;
    const Report report = g.grade_file(kLab02, with_unused_cub());
    const LabResult& lab = report.labs.front();
    CHECK_FALSE(lab.gradable());
    CHECK(lab.note == "needs a GPU to grade: `#include <cub/cub.cuh>` (CUB) at scan.cu:1 is beyond the CPU emulator");
    CHECK_FALSE(noted(report, "02-brent-kung: unused #include <cub/cub.cuh> left out on the emulator (scan.cu:1)"));
    Grading gpu({"emu", "cuda"});
    gpu.exec->failing_build = 0;
    const LabResult on_gpu = gpu.grade_lab(kLab02, with_unused_cub());
    CHECK(on_gpu.note.rfind("graded on the GPU only: `#include <cub/cub.cuh>` (CUB)", 0) == 0);
    CHECK(component(on_gpu, "correctness").score == doctest::Approx(60));
    CHECK(component(on_gpu, "divergence").gradable);  // on the GPU's counters
    // nvcc rejects it too: the student's compile error, nvcc's alone.
    Grading both({"emu"});
    both.exec->failing_build = 0;
    both.exec->nvcc_rejects = true;
    const LabResult broken = both.grade_lab(kLab02, with_unused_cub());
    CHECK(broken.note == "does not compile (cuda)");
    CHECK(component(broken, "correctness").score == 0);
}

TEST_CASE("--backend cuda, beyond the emulator: wrong GPU outputs score nothing") {
    Grading g({"cuda"});
    g.exec->gpu = Kind::wrong;
    const LabResult lab = g.grade_lab(kLab02, with_inline_ptx());
    CHECK(component(lab, "correctness").score == 0);
}

// A copy of the reference's lab 02 in a folder of its own, `extra` added to
// scan.cu, with a header beside it.
std::string reference_with(const std::string& extra, const std::string& header = "") {
    const fs::path dir = fs::temp_directory_path() / "scan-grade-canned-library";
    fs::create_directories(dir);
    write_file((dir / "helpers.cuh").string(), header);
    write_file((dir / "scan.cu").string(), extra + read_file(KIT "/reference/02-brent-kung/scan.cu"));
    return (dir / "scan.cu").string();
}

TEST_CASE("a library scan in what nvcc built, no GPU: refused by the rubric, its symbol named") {
    Grading g({"emu"});
    g.exec->nvcc_scans = {{"CUB", "cub::DeviceScan::InclusiveSum", true, 0}};
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(g.exec->nvcc_checked == std::vector<std::string>{kLab02});
    CHECK(lab.note == "rejected by the rubric: scan.cu, as nvcc compiled it, calls CUB's scan "
                      "(`cub::DeviceScan::InclusiveSum` among its symbols), which lab 02 does not allow: the lab asks "
                      "for scan kernels of your own (the rubric's forbid list)");
    CHECK(component(lab, "correctness").score == 0);
    CHECK(component(lab, "correctness").gradable);
    // A library the lab does not forbid: graded, and without a forbid list nvcc is not asked.
    g.ctx.rubric.forbid[kLab02] = {"Thrust"};
    CHECK(component(g.grade_reference(kLab02), "correctness").score == doctest::Approx(60));
    g.ctx.rubric.forbid.erase(kLab02);
    g.exec->nvcc_checked.clear();
    CHECK(component(g.grade_reference(kLab02), "correctness").score == doctest::Approx(60));
    CHECK(g.exec->nvcc_checked.empty());
}

TEST_CASE("a library scan in the GPU's build: refused, and not run on the GPU") {
    Grading g({"emu", "cuda"});
    g.exec->built_scans["cuda"] = {{"Thrust", "thrust::cuda_cub::inclusive_scan_n", true, 0}};
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(lab.note.find("as nvcc compiled it, calls Thrust's scan (`thrust::cuda_cub::inclusive_scan_n`") != std::string::npos);
    CHECK(g.exec->planned == 0);
    CHECK(g.exec->timed == 0);
    CHECK(g.exec->nvcc_checked.empty());  // the GPU's build is nvcc's
}

TEST_CASE("a library scan in the emulator's build: refused") {
    Grading g({"emu"});
    g.exec->built_scans["emu"] = {{"CUB", "cub::BlockScan::InclusiveSum", true, 0}};
    const LabResult lab = g.grade_reference(kLab02);
    CHECK(lab.note.find("as the emulator's compiler compiled it, calls CUB's scan (`cub::BlockScan::InclusiveSum`") !=
          std::string::npos);
    CHECK(g.exec->emulated == 0);
}

TEST_CASE("the source's look: a header's library scan and a renamed library are refused before the build") {
    Grading g({"emu"});
    g.ctx.labs = {kLab02};
    Submission sub;
    sub.name = "student";
    sub.files[kLab02] = LabFile{reference_with("#include \"helpers.cuh\"\n",
                                               "namespace q = thrust;\nvoid f() { thrust::inclusive_scan(a, b, c); }\n"),
                                "labs/02-brent-kung/scan.cu", {"helpers.cuh"}, {}, "", ""};
    LabResult lab = grade(g.ctx, g.slot, sub).labs.front();
    CHECK(lab.note == "rejected by the rubric: helpers.cuh:2 calls Thrust's scan (`thrust::inclusive_scan`), which lab 02 "
                      "does not allow: the lab asks for scan kernels of your own (the rubric's forbid list)");
    lab = g.grade_lab(kLab02, reference_with("#define cub hidden\n"));
    CHECK(lab.note.rfind("rejected by the rubric: scan.cu:1 renames or configures CUB (`#define cub`)", 0) == 0);
    CHECK(g.exec->nvcc_checked.empty());  // nothing built
}

TEST_CASE("with a GPU: right everywhere scores everything; racecheck's failure is a race finding") {
    Grading g({"emu", "cuda"});
    LabResult lab = g.grade_reference(kLab02);
    CHECK(lab.score() == doctest::Approx(100));
    CHECK(g.exec->timed == 1);
    CHECK(g.exec->sanitized == g.ctx.rubric.sanitizer_tools.size());

    Grading racy({"emu", "cuda"});
    racy.exec->gpu = Kind::racy;
    lab = racy.grade_reference(kLab02);
    CHECK(component(lab, "safety").score == doctest::Approx(15));
    REQUIRE(lab.findings.size() == 1);
    CHECK(finding::sentence(lab.findings[0])
              .rfind("the run failed: canned: killed by signal 11 (compute-sanitizer racecheck on ", 0) == 0);
}

TEST_CASE("a tool's process that gets nowhere fails its first run, once, and grading goes on") {
    Grading g({"emu", "cuda"});
    g.exec->sanitizer_gets_nowhere = true;
    const LabResult lab = g.grade_reference(kLab03);  // two functions: a restart would loop on the first
    CHECK(g.exec->sanitized == 2 * g.ctx.rubric.sanitizer_tools.size());
    REQUIRE(!lab.findings.empty());
    std::string all;
    for (const auto& f : lab.findings) {
        CHECK(finding::sentence(f).rfind("the run failed: canned: the tool stopped before its first run", 0) == 0);
        all += finding::sentence(f);
    }
    for (const auto& fn : catalog::find(kLab03)->functions) CHECK(all.find("racecheck on " + fn.name) != std::string::npos);
}

TEST_CASE("timing: scan-bench's own verdict is not scored; a slow ratio scores less") {
    Grading g({"emu", "cuda"});
    g.exec->timing_problem = "a time under the copy's";
    LabResult lab = g.grade_reference(kLab02);
    CHECK(component(lab, "timing").score == 0);
    CHECK(all_output(lab).find("brent_kung_scan: not scored: a time under the copy's") != std::string::npos);

    Grading slow({"emu", "cuda"});
    slow.exec->timing_ratio = 100;
    lab = slow.grade_reference(kLab02);
    CHECK(component(lab, "timing").score == 0);
    CHECK(component(lab, "timing").note.rfind("brent_kung_scan: 100.000x the reference's time", 0) == 0);
}

TEST_CASE("timing: the dataset's seed comes from the secret and is never printed") {
    std::vector<std::uint64_t> seeds;
    for (std::uint64_t secret : {1, 2}) {
        Grading g({"emu", "cuda"});
        g.ctx.rubric.hidden_seed = secret;
        const LabResult lab = g.grade_reference(kLab02);
        REQUIRE(g.exec->timed == 1);
        seeds.push_back(g.exec->timing_seed);
        INFO(output_of(lab, "timing"));
        CHECK(output_of(lab, "timing").find("its seed drawn from the course's secret") != std::string::npos);
        CHECK(all_output(lab).find(std::to_string(g.exec->timing_seed)) == std::string::npos);
    }
    CHECK(seeds[0] != seeds[1]);
    CHECK(seeds[0] != 4444);  // scan-bench's public default
}

TEST_CASE("a function that hangs on the GPU costs its own later GPU work, not the other's") {
    Grading g({"emu", "cuda"});
    g.exec->hangs_on_gpu = catalog::find(kLab03)->functions.front().name;
    const LabResult lab = g.grade_reference(kLab03);
    CHECK(component(lab, "correctness").score < 60);
    CHECK(component(lab, "correctness").score > 0);
    const std::string timing = lab.tests.back().output;
    CHECK(timing.find(g.exec->hangs_on_gpu + ": not scored: not run: its GPU run on") != std::string::npos);
    CHECK(g.exec->timed == 1);  // the other function's only
    CHECK(g.exec->sanitized == g.ctx.rubric.sanitizer_tools.size());
}

namespace {

std::string backwards(const std::string& part) { return "[" + std::string(part.rbegin(), part.rend()) + "]"; }

}  // namespace

TEST_CASE("every sentence template reworded: the same scores, statuses, notes and findings") {
    // Racy and leaking on the emulator; racecheck failing on a GPU.
    for (const auto& [emu, gpu] : {std::pair{Kind::racy, Kind::right}, {Kind::leaking, Kind::right}, {Kind::right, Kind::racy}}) {
        CAPTURE(static_cast<int>(emu));
        CAPTURE(static_cast<int>(gpu));
        const auto graded = [&, emu = emu, gpu = gpu] {
            Grading g({"emu", "cuda"});
            g.exec->emu = emu;
            g.exec->gpu = gpu;
            return g.grade_reference(kLab02);
        };
        const LabResult before = graded();
        finding::set_rewording(backwards);
        const LabResult after = graded();
        finding::set_rewording(nullptr);
        REQUIRE(before.components.size() == after.components.size());
        for (std::size_t i = 0; i < before.components.size(); ++i) {
            CHECK(before.components[i].score == after.components[i].score);
            CHECK(before.components[i].gradable == after.components[i].gradable);
            CHECK(before.components[i].note == after.components[i].note);
        }
        REQUIRE(before.tests.size() == after.tests.size());
        for (std::size_t i = 0; i < before.tests.size(); ++i) {
            CHECK(before.tests[i].score == after.tests[i].score);
            CHECK(before.tests[i].status == after.tests[i].status);
        }
        CHECK(before.findings == after.findings);  // the same records, kept and de-duplicated alike
        REQUIRE_FALSE(before.findings.empty());
        CHECK(all_output(before) != all_output(after));  // only the words changed
    }
}

TEST_CASE("with a GPU, the emulator runs a lab's large datasets only where a smaller one found something") {
    // lab 02 has three datasets above 2^17 elements (two of 2^20, one of 2^22 + 1), 21 in all.
    Grading clean({"emu", "cuda"});
    clean.ctx.rubric.emulator_with_gpu_max_n[kLab02] = 131072;
    const LabResult right = clean.grade_reference(kLab02);
    CHECK(component(right, "correctness").note == "21 of 21 datasets right");
    CHECK(all_output(right).find("emulator: the datasets of up to 131072 elements, which found nothing, and one larger one, "
                                 "chosen by the course's secret; the GPU ran every larger one") != std::string::npos);
    const unsigned skipped_two = clean.exec->emulated;  // all but one of the three (the secret's: the next test case)

    Grading every({"emu", "cuda"});  // no limit for the lab: the emulator runs all
    every.ctx.rubric.emulator_with_gpu_max_n.clear();
    CHECK(component(every.grade_reference(kLab02), "correctness").note == "21 of 21 datasets right");
    CHECK(every.exec->emulated == skipped_two + 2);

    Grading wrong({"emu", "cuda"});  // the small ones fail: the large ones run too, and fail
    wrong.ctx.rubric.emulator_with_gpu_max_n[kLab02] = 131072;
    wrong.exec->emu = Kind::wrong;
    const LabResult failed = wrong.grade_reference(kLab02);
    CHECK(component(failed, "correctness").note == "0 of 21 datasets right");
    CHECK(all_output(failed).find("which found nothing") == std::string::npos);

    Grading racy({"emu", "cuda"});  // right outputs with a finding: the large ones run too
    racy.ctx.rubric.emulator_with_gpu_max_n[kLab02] = 131072;
    racy.exec->emu = Kind::racy;
    racy.grade_reference(kLab02);
    CHECK(racy.exec->emulated == every.exec->emulated);

    Grading alone({"emu"});  // without a GPU the limit does not apply
    alone.ctx.rubric.emulator_with_gpu_max_n[kLab02] = 131072;
    alone.grade_reference(kLab02);
    CHECK(alone.exec->emulated == every.exec->emulated);
}

TEST_CASE("with a GPU, one large dataset chosen by the secret runs on the emulator all the same") {
    // lab 02's three datasets above 2^17 elements, as above. A bug written to
    // show above emulator_with_gpu_max_n alone (the feedback names that size)
    // no longer keeps its safety points.
    const auto grading = [](std::uint64_t secret) {
        auto g = std::make_unique<Grading>(std::vector<std::string>{"emu", "cuda"});
        g->ctx.rubric.emulator_with_gpu_max_n[kLab02] = 131072;
        g->ctx.rubric.hidden_seed = secret;
        return g;
    };
    auto gated = grading(1);
    gated->exec->emu_racy_above = 131072;
    const LabResult caught = gated->grade_reference(kLab02);
    REQUIRE_FALSE(caught.findings.empty());
    CHECK(caught.findings[0].kind == "race");
    CHECK(component(caught, "safety").score < component(caught, "safety").max_score);

    // A clean lab: one large dataset runs on the emulator, which one depends
    // on the secret, and the feedback does not tell.
    std::set<std::pair<std::size_t, float>> chosen;
    std::string output;
    for (std::uint64_t secret = 1; secret <= 4; ++secret) {
        auto g = grading(secret);
        const LabResult r = g->grade_reference(kLab02);
        std::vector<std::pair<std::size_t, float>> large;
        for (const auto& run : g->exec->emulated_inputs)
            if (run.first > 131072) large.push_back(run);
        REQUIRE(large.size() == 1);
        chosen.insert(large[0]);
        if (secret == 1) output = all_output(r);
        CHECK(all_output(r) == output);
    }
    CHECK(chosen.size() > 1);
}

TEST_CASE("with a GPU, a large dataset the GPU failed is not run again on the emulator") {
    // lab 02's three datasets above 2^17 elements, as in the test above.
    const auto grading = [](Kind emu, Kind gpu) {
        auto g = std::make_unique<Grading>(std::vector<std::string>{"emu", "cuda"});
        g->ctx.rubric.emulator_with_gpu_max_n[kLab02] = 131072;
        g->exec->emu = emu;
        g->exec->gpu = gpu;
        return g;
    };
    // The GPU right, the emulator not: the large ones run on both, and fail.
    auto hidden = grading(Kind::wrong, Kind::right);
    const LabResult emu_only = hidden->grade_reference(kLab02);
    CHECK(component(emu_only, "correctness").note == "0 of 21 datasets right");
    CHECK(all_output(emu_only).find("that the GPU failed") == std::string::npos);

    // Wrong everywhere: the large ones fail on the GPU, and the emulator is spared them.
    auto both = grading(Kind::wrong, Kind::wrong);
    const LabResult failed = both->grade_reference(kLab02);
    CHECK(component(failed, "correctness").note == "0 of 21 datasets right");
    CHECK(both->exec->emulated.load() == hidden->exec->emulated.load() - 3);
    CHECK(all_output(failed).find("emulator: the datasets above 131072 elements that the GPU failed were not run again "
                                  "on it") != std::string::npos);

    // A race the hardware hides: where the GPU's outputs are right the large
    // ones run on the emulator too; where they are wrong they do not, and
    // the race the small ones showed is still found.
    auto racy_right = grading(Kind::racy, Kind::right);
    racy_right->grade_reference(kLab02);
    auto racy_wrong = grading(Kind::racy, Kind::wrong);
    const LabResult raced = racy_wrong->grade_reference(kLab02);
    CHECK(racy_wrong->exec->emulated.load() == racy_right->exec->emulated.load() - 3);
    CHECK(component(raced, "correctness").note == "0 of 21 datasets right");
    REQUIRE_FALSE(raced.findings.empty());
    CHECK(raced.findings[0].kind == "race");
}
