// scan-run, the grader's runner across labs (common/scan_run.cpp), on this
// build's backend: every lab's module in one process, each run's observation
// sent through the result channel (and, for the reference, right) and its
// marks in order; a bad plan refused with exit 2 and its reason. SCAN_RUN, OBSERVE_MODULES (;-separated)
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
#include "result_channel.hpp"

namespace fs = std::filesystem;

namespace {

struct Ran {
    int code = -1;
    std::string output;
};

// Runs scan-run with ARGS; its result channel (descriptor 3) goes to `frames`.
Ran scan_run(const std::string& args, const std::string& frames = "/dev/null") {
    Ran r;
    FILE* p = popen((std::string(SCAN_RUN) + " " + args + " 2>&1 3>'" + frames + "'").c_str(), "r");
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
    };
    std::vector<Line> lines;
    std::string plan, marks;
    for (const std::string& module : modules()) {
        const std::string suite = fs::path(module).filename().string().substr(0, 5);  // lab01-observe.so
        const catalog::Lab* lab = catalog::find(suite);
        REQUIRE_MESSAGE(lab != nullptr, module);
        for (const auto& fn : lab->functions) {
            const std::string k = std::to_string(lines.size());
            lines.push_back({&fn});
            plan += module + "\t" + fn.name + "\t" + in + "\n";
            marks += "scan-run: run " + k + " begins\nscan-run: run " + k + " ended\n";
        }
    }
    REQUIRE(lines.size() == 6);  // the five labs' six functions
    const std::string frames = (s.dir / "frames").string();
    const Ran ran = scan_run("--plan " + s.file("plan.txt", plan) + " --result-fd 3 --marks", frames);
    CHECK(ran.code == 0);
    CHECK(ran.output == marks);
    std::ifstream file(frames, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const harness::channel::Parsed got = harness::channel::parse(bytes);
    REQUIRE(got.frames.size() == lines.size());
    for (std::size_t k = 0; k < lines.size(); ++k) {
        const Line& line = lines[k];
        INFO(line.fn->name);
        CHECK(got.frames[k].kind == harness::channel::Kind::observation);
        CHECK(got.frames[k].index == k);
        const harness::Observation seen = harness::decode_observation(got.frames[k].payload);
        CHECK(seen.n == input.size());
        if (REFERENCE)
            for (const auto& c : harness::judge(input, seen, line.fn->spec, true, line.fn->name)) CHECK_MESSAGE(c.ok, c.message);
    }
    // Without --marks it prints nothing of its own.
    CHECK(scan_run("--plan " + s.file("plan.txt", plan) + " --result-fd 3").output.empty());
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
    const std::string fd = " --result-fd 3";
    refused("--plan " + s.file("p1", "/nonexistent/lab01-observe.so\tkogge_stone_scan\t" + in + "\n") + fd,
            "cannot load /nonexistent/lab01-observe.so");
    refused("--plan " + s.file("p2", module + "\tkogge_stone_scan\n") + fd, "is not MODULE<tab>FUNCTION<tab>INPUT");
    refused("--plan " + s.file("p3", module + "\tno_such_scan\t" + in + "\n") + fd, "no function no_such_scan in lab");
    refused("--plan " + s.file("p4", module + "\tkogge_stone_scan\t" + (s.dir / "none").string() + "\n") + fd, "cannot read");
    refused("--plan " + (s.dir / "missing-plan").string() + fd, "cannot read the plan");
    refused("--plan " + s.file("p5", module + "\tkogge_stone_scan\t" + in + "\n") + " --result-fd 9", "--result-fd 9 is not an open descriptor");
    refused("--frobnicate", "unknown or incomplete option --frobnicate");
    refused("", "--plan and --result-fd are needed");
}

TEST_CASE("a finding in a module names its lines, from the module's own debug information") {
    const std::string planted = PLANTED_MODULE;  // lab 02 with a barrier removed; the emulator's reference build only
    if (planted.empty()) return;
    const Scratch s;
    const std::vector<float> input = datasets::generate({datasets::Distribution::Walk4, 4096, 3});
    const std::string in = (s.dir / "input").string(), frames = (s.dir / "frames").string();
    std::ofstream(in, std::ios::binary).write(reinterpret_cast<const char*>(input.data()),
                                              static_cast<std::streamsize>(input.size() * sizeof(float)));
    const Ran ran = scan_run("--plan " + s.file("plan.txt", planted + "\tbrent_kung_scan\t" + in + "\n") + " --result-fd 3", frames);
    CHECK(ran.code == 0);
    std::ifstream file(frames, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    const harness::channel::Parsed got = harness::channel::parse(bytes);
    REQUIRE(got.frames.size() == 1);
    const harness::Observation seen = harness::decode_observation(got.frames[0].payload);
    REQUIRE(!seen.findings.empty());
    for (const auto& f : seen.findings) {
        INFO(f.message);
        REQUIRE(!f.lines.empty());
        for (const std::string& line : f.lines) CHECK(std::regex_match(line, std::regex(R"([\w.-]+\.cu:[0-9]+)")));
    }
}
