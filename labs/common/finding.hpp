// One finding of a safety check, as data, from where it is made (the
// emulator's checks, the harness's leak count, compute-sanitizer's reports)
// through the runner's observation file to the grader's scores. Readers key
// on its fields; sentence() makes the words a person reads (the terminal,
// feedback.txt, report.html, the platforms' files) and nothing takes those
// words apart again, so rewording a message cannot change a verdict.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace finding {

// Who made it, which picks the sentence it is read as.
enum class Source : unsigned char {
    Emulator,   // one of the emulator's checks, in one launch
    Harness,    // the harness's count of device memory left allocated
    Sanitizer,  // a compute-sanitizer run: its reports, or the run failing
    Withheld,   // one on a hidden dataset before grades are published: its kind, and the dataset as message
};

struct Finding {
    Source source = Source::Emulator;
    std::string kind;        // the safety check it counts against: race, barrier, memory or leak (score::kCategories)
    bool undefined = false;  // undefined behaviour: the run's values prove nothing (a GPU may hang or compute others)
    std::string tool;        // compute-sanitizer's tool ("racecheck"); empty for the others
    std::string check;       // what it found, as its check names it: "data race on shared memory", "possible deadlock"
    std::string kernel;      // as launched, or as the tool names it; empty where none is named
    std::string function;    // the lab function that ran, where the finding names it (a leak, a failed run)
    std::vector<std::string> lines;  // the source lines it names ("scan.cu:24"), in the order named
    // Each line's column (1-based; 0 or absent: not known), where the emulator read one.
    std::vector<unsigned> columns;
    std::string launch;              // where the kernel was launched ("scan.cu:80"), where known
    std::string block, thread;       // the first block and thread that showed it ("(3,0,0)", "5"), where known
    std::string allocation;          // the allocation or array an access missed, where known
    unsigned long long blocks = 0;   // the launch's blocks that showed it (the emulator's count); 0: not counted
    unsigned long long bytes = 0, allocations = 0;  // a leak's
    // compute-sanitizer's: its reports folded into this one, and a race's access pairs and hazards
    unsigned long long reports = 0, pairs = 0, hazards = 0;
    std::string message;  // the detail, in its tool's words, for a person
};

// The sentence a person reads: the emulator's "CHECK in kernel K: MESSAGE
// (and N more blocks); launched at FILE:LINE", the harness's leak, the
// sanitizer's "CHECK in kernel K: MESSAGE ... (compute-sanitizer TOOL)", a
// withheld finding's "KIND finding on WHAT (details shown ...)".
std::string sentence(const Finding& f);

// Whether two findings are one but for how many blocks showed it, which
// changes with the dataset's length and the block order, not with the bug.
bool same_but_blocks(const Finding& a, const Finding& b);
bool operator==(const Finding& a, const Finding& b);  // every field

// The source lines a finding names, each once, by file then line number.
std::vector<std::string> sorted_lines(const Finding& f);
// What makes findings of different datasets one problem: the check, the
// kernel, the source lines (as a set: a race seen from its reader's side
// names the writer's line first) and the launch. Blocks, threads, indices,
// addresses and counts are left out: they change with the dataset's length
// and the block order, not with the bug; a withheld finding is one problem
// per dataset. A plain string, the same on every run and machine.
std::string problem_key(const Finding& f);
// One line naming that problem: "CHECK in kernel K at scan.cu:24, scan.cu:25".
std::string title(const Finding& f);

// Adds `f` to `list`, the first `most` findings of one kind, unless the
// list holds it already but for how many blocks showed it: not news.
void note(std::vector<Finding>& list, const Finding& f, std::size_t most);

// The harness's leak: `bytes` in `allocations` still live after `function` returned.
Finding leak(unsigned long long bytes, unsigned long long allocations, const std::string& function);

// `f` on a hidden dataset (`what` names it by number), with its kind alone.
Finding withheld(const Finding& f, const std::string& what);

// For the test that rewords every template (tests/test_finding.cpp): each
// fixed part of a sentence passes through `reword` (nullptr: as written).
// Verdicts, de-duplication and triage must not change with it.
void set_rewording(std::string (*reword)(const std::string& part));

}  // namespace finding
