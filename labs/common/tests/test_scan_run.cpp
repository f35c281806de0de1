// scan-run, the grader's runner across labs (common/scan_run.cpp), on this
// build's backend: every lab's module in one process, each run's observation
// written (and, for the reference, right) and its marks in order; a bad plan
// refused with exit 2 and its reason. SCAN_RUN, OBSERVE_MODULES (;-separated)
// and REFERENCE come from labs/meson.build.
#include <doctest/doctest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "generator.hpp"
#include "observation.hpp"

namespace fs = std::filesystem;

namespace {

struct Ran {
    int code = -1;
    std::string output;
};

Ran scan_run(const std::string& args) {
    Ran r;
    FILE* p = popen((std::string(SCAN_RUN) + " " + args + " 2>&1").c_str(), "r");
    REQUIRE(p != nullptr);
    char buffer[4096];
    for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, p)) > 0;) r.output.append(buffer, got);
    const int status = pclose(p);
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

std::vector<std::string> modules() {
    std::vector<std::string> out;
    const std::string all = OBSERVE_MODULES;
    for (std::size_t at = 0; at <= all.size();) {
        const std::size_t end = std::min(all.find(';', at), all.size());
        out.push_back(all.substr(at, end - at));
        at = end + 1;
    }
    return out;
}

struct Scratch {
    fs::path dir = fs::temp_directory_path() / ("scan-run-test-" + std::to_string(::getpid()));
    Scratch() { fs::create_directories(dir); }
    ~Scratch() { fs::remove_all(dir); }
    std::string file(const std::string& name, const std::string& text) const {
        std::ofstream(dir / name) << text;
        return (dir / name).string();
    }
};

}  // namespace

TEST_CASE("every lab's functions in one process: each observation written, the marks in order") {
    const Scratch s;
    const datasets::Spec spec{datasets::Distribution::Walk4, 5000, 17};
    const std::vector<float> input = datasets::generate(spec);
    const std::string in = (s.dir / "input").string();
    std::ofstream(in, std::ios::binary).write(reinterpret_cast<const char*>(input.data()),
                                              static_cast<std::streamsize>(input.size() * sizeof(float)));
    struct Line {
        const catalog::Function* fn;
        std::string output;
    };
    std::vector<Line> lines;
    std::string plan, marks;
    for (const std::string& module : modules()) {
        const std::string suite = fs::path(module).filename().string().substr(0, 5);  // lab01-observe.so
        const catalog::Lab* lab = catalog::find(suite);
        REQUIRE_MESSAGE(lab != nullptr, module);
        for (const auto& fn : lab->functions) {
            const std::string k = std::to_string(lines.size());
            lines.push_back({&fn, (s.dir / ("r" + k + ".obs")).string()});
            plan += module + "\t" + fn.name + "\t" + in + "\t" + lines.back().output + "\n";
            marks += "scan-run: run " + k + " begins\nscan-run: run " + k + " ended\n";
        }
    }
    REQUIRE(lines.size() == 6);  // the five labs' six functions
    const Ran ran = scan_run("--plan " + s.file("plan.txt", plan) + " --marks");
    CHECK(ran.code == 0);
    CHECK(ran.output == marks);
    for (const Line& line : lines) {
        INFO(line.fn->name);
        const harness::Observation seen = harness::read_observation(line.output);
        CHECK(seen.n == input.size());
        if (REFERENCE)
            for (const auto& c : harness::judge(input, seen, line.fn->spec, true, line.fn->name)) CHECK_MESSAGE(c.ok, c.message);
    }
    // Without --marks it prints nothing of its own.
    CHECK(scan_run("--plan " + s.file("plan.txt", plan)).output.empty());
}

TEST_CASE("a bad plan or option is refused with exit 2, naming why") {
    const Scratch s;
    const std::string module = modules().front();
    const std::string in = s.file("input", std::string(16, '\0'));
    const auto refused = [&](const std::string& args, const std::string& why) {
        const Ran ran = scan_run(args);
        CHECK(ran.code == 2);
        CHECK_MESSAGE(ran.output.find(why) != std::string::npos, ran.output);
    };
    refused("--plan " + s.file("p1", "/nonexistent/lab01-observe.so\tkogge_stone_scan\t" + in + "\tout\n"),
            "cannot load /nonexistent/lab01-observe.so");
    refused("--plan " + s.file("p2", module + "\tkogge_stone_scan\t" + in + "\n"), "is not MODULE<tab>FUNCTION<tab>INPUT<tab>OUTPUT");
    refused("--plan " + s.file("p3", module + "\tno_such_scan\t" + in + "\t" + (s.dir / "o").string() + "\n"),
            "no function no_such_scan in lab");
    refused("--plan " + s.file("p4", module + "\tkogge_stone_scan\t" + (s.dir / "none").string() + "\t" + (s.dir / "o").string() + "\n"),
            "cannot read");
    refused("--plan " + (s.dir / "missing-plan").string(), "cannot read the plan");
    refused("--frobnicate", "unknown or incomplete option --frobnicate");
    refused("", "--plan is needed");
}

TEST_CASE("a finding in a module names its lines, from the module's own debug information") {
    const std::string planted = PLANTED_MODULE;  // lab 02 with a barrier removed; the emulator's reference build only
    if (planted.empty()) return;
    const Scratch s;
    const std::vector<float> input = datasets::generate({datasets::Distribution::Walk4, 4096, 3});
    const std::string in = (s.dir / "input").string(), out = (s.dir / "r0.obs").string();
    std::ofstream(in, std::ios::binary).write(reinterpret_cast<const char*>(input.data()),
                                              static_cast<std::streamsize>(input.size() * sizeof(float)));
    const Ran ran = scan_run("--plan " + s.file("plan.txt", planted + "\tbrent_kung_scan\t" + in + "\t" + out + "\n"));
    CHECK(ran.code == 0);
    const harness::Observation seen = harness::read_observation(out);
    REQUIRE(!seen.findings.empty());
    for (const auto& f : seen.findings) {
        INFO(f.message);
        REQUIRE(!f.lines.empty());
        for (const std::string& line : f.lines) CHECK(std::regex_match(line, std::regex(R"([\w.-]+\.cu:[0-9]+)")));
    }
}
