// The sample report the tests of the results formats (test_outputs*.cpp) grade:
// its labs, tests and components, and the text helpers they check it with.
#pragma once

#include <algorithm>
#include <string>

#include "grader/outputs/outputs.hpp"

namespace grader::testing {

inline const std::string kNasty = "got <&\"x\"> at 7 \x1b[31mwrong\x1b[0m\x01";

// Appends a test and adds its points to its component (the build step has none).
inline void add(LabResult& lab, const std::string& component, double score, double max, Status status,
         bool hidden = false, const std::string& output = "") {
    const std::string name = lab.lab.substr(0, 2) + " " + component + (hidden ? ": hidden" : ": public");
    lab.tests.push_back({name, lab.lab, component, score, max, status, hidden, output, 0.25});
    if (component == "build") return;
    auto c = std::find_if(lab.components.begin(), lab.components.end(),
                          [&](const Component& x) { return x.name == component; });
    if (c == lab.components.end()) c = lab.components.insert(c, {component, 0, 0, status != Status::NotGradable, ""});
    c->score += score;
    c->max_score += max;
}

// Full marks; a failed hidden test and partial divergence; a build failure.
// Timing is never gradable (no GPU). Total 145/270; 16 tests, 7 failed, 3 skipped.
inline Report sample(const std::string& student = "Doe, Jane") {
    Report r;
    r.submission = student;
    r.backend = "emu";
    r.device = "CPU emulator";
    r.sandboxed = true;
    r.run_notes = {"sandbox: bubblewrap"};
    std::string long_output;
    for (int i = 0; i < 100; ++i) long_output += "line " + std::to_string(i) + "\n";
    for (const char* id : {"01-kogge-stone", "02-brent-kung", "04-hierarchical"}) {
        LabResult& lab = r.labs.emplace_back();
        lab.lab = id;
        lab.submitted = true;
        lab.built = lab.lab != "04-hierarchical";
        if (!lab.built) {
            lab.note = "build failed: scan.cu:12: expected ';'";
            add(lab, "build", 0, 0, Status::Failed, false, "scan.cu:12: error: expected ';'");
        }
        const bool first = lab.lab == "01-kogge-stone";
        const Status ok = lab.built ? Status::Passed : Status::Failed;
        add(lab, "correctness", lab.built ? 30 : 0, 30, ok);
        add(lab, "correctness", first ? 30 : 0, 30, first ? Status::Passed : Status::Failed, true, kNasty);
        add(lab, "safety", lab.built ? 20 : 0, 20, ok);
        add(lab, "divergence", first ? 10 : lab.built ? 5 : 0, 10, first ? Status::Passed : Status::Failed, false,
            long_output);
        add(lab, "timing", 0, 10, Status::NotGradable, false, "no GPU on this machine");
    }
    r.phases = {{"build emu", 3.25}, {"datasets emu", 8.5}, {"divergence", 0.75}};
    r.seconds = 12.5;
    return r;
}

inline bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

}  // namespace grader::testing
