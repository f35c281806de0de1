// The sample report with safety findings, for the findings' formats (SARIF,
// and through it the workflow annotations): more errors than GitHub
// annotates in a step, undefined behaviour among them, a leak's warning, a
// finding that names no line, one on a header, one on a hidden dataset, a
// race found again at its line in other blocks, a leak found again on larger
// datasets, and words that need escaping.
#pragma once

#include <string>
#include <vector>

#include "grader/tests/outputs_sample.hpp"

namespace grader::testing {

inline finding::Finding emulator_finding(const std::string& kind, bool undefined, const std::string& check,
                                         const std::string& kernel, std::vector<std::string> lines,
                                         const std::string& message) {
    finding::Finding f;
    f.kind = kind;
    f.undefined = undefined;
    f.check = check;
    f.kernel = kernel;
    f.lines = std::move(lines);
    f.launch = "scan.cu:40";
    f.message = message;
    f.blocks = 1;
    return f;
}

// sample() with findings in labs 01 and 02: 11 errors (6 undefined
// behaviour), 1 warning, and a race again at the same line. Lab 02's race is the corpus entry
// lab02-missing-barrier's, as the emulator reports it.
inline Report findings_sample() {
    Report r = sample();
    auto& lab01 = r.labs[0].findings;
    for (int i = 0; i < 3; ++i) {
        lab01.push_back(emulator_finding("barrier", true, "barrier divergence", "kogge_stone_kernel",
                                         {"scan.cu:" + std::to_string(30 + i)},
                                         "block (1,0,0): threads 0-511 wait at a __syncthreads() that threads "
                                         "512-1023 never reach"));
        lab01.push_back(emulator_finding("memory", true, "out-of-bounds access", "kogge_stone_kernel",
                                         {"scan.cu:" + std::to_string(14 + i)},
                                         "in[1024] read by thread 0 of block (1,0,0): past the end of in (1024 elements)"));
    }
    for (int i = 0; i < 2; ++i) {
        const std::string line = "scan.cu:" + std::to_string(20 + i);
        lab01.push_back(emulator_finding("race", false, "data race on shared memory", "kogge_stone_kernel", {line},
                                         "block (0,0,0): section[" + std::to_string(i + 1) + "] written by thread " +
                                             std::to_string(i) + " at " + line + " and read by thread " +
                                             std::to_string(i + 1) + " at " + line + " between the same two barriers"));
    }
    lab01.push_back(lab01.back());  // the same race on a larger dataset, in other blocks: one result
    lab01.back().message = "block (3,0,0): section[2] written by thread 1 at scan.cu:21 and read by thread 2 at "
                           "scan.cu:21 between the same two barriers";
    lab01.back().blocks = 5;
    lab01[5].lines = {"scan_helpers.cuh:7", "scan.cu:16"};  // a header the student put beside scan.cu

    auto& lab02 = r.labs[1].findings;
    lab02.push_back(finding::leak(4096, 1, "brent_kung_scan"));  // a warning, and no line
    lab02.push_back(emulator_finding("race", false, "data race on shared memory", "brent_kung_kernel", {"scan.cu:25"},
                                     "block (0,0,0): section[1535] written by thread 0 at scan.cu:25 and read by "
                                     "thread 2 at scan.cu:25 between the same two barriers"));
    lab02.back().launch = "scan.cu:35";
    // Lab 02's scan.cu, its race's line 25 as in lab02-missing-barrier: results.sarif quotes it.
    for (int line = 1; line <= 40; ++line)
        r.labs[1].source += line == 25 ? "            section[index] += section[index - stride];\n" : "// line " + std::to_string(line) + "\n";
    finding::Finding sanitizer;
    sanitizer.source = finding::Source::Sanitizer;
    sanitizer.kind = "memory";
    sanitizer.tool = "memcheck";
    sanitizer.check = "uninitialized global memory read of 4 bytes";
    sanitizer.kernel = "brent_kung_kernel";
    sanitizer.lines = {"scan.cu:12"};
    sanitizer.reports = 3;
    // A message to escape: a percent sign, a line break, ANSI colour.
    sanitizer.message = "by thread (0) in block (0), 100% of\r\nthe reads \x1b[31munset\x1b[0m";
    lab02.push_back(sanitizer);
    lab02.push_back(finding::withheld(lab02[1], "hidden dataset 2 of lab 02"));
    // The leak again on two larger datasets, and the race on another hidden one: one bug each.
    lab02.push_back(finding::leak(8192, 1, "brent_kung_scan"));
    lab02.push_back(finding::leak(16384, 1, "brent_kung_scan"));
    lab02.push_back(finding::withheld(lab02[1], "hidden dataset 3 of lab 02"));
    return r;
}

}  // namespace grader::testing
