// Each safety bug once, however many datasets or blocks showed it: the one
// de-duplication that report.html, results.sarif and (through that file)
// the workflows' annotations list findings by.
#pragma once

#include <string>
#include <vector>

#include "grader/core/report.hpp"

namespace grader {

// One bug: the findings of one kind, file and line and of one message but
// for what the dataset changes (finding::problem_key: the check, kernel,
// source lines and launch, not blocks, threads, indices or counts); a leak,
// which names no line, by the function that left it; a hidden dataset's,
// by its kind alone.
struct DistinctFinding {
    Finding finding;                 // the first found, which speaks for the rest
    std::vector<std::string> sizes;  // each finding's size, in order: "5 blocks", "8192 bytes", "hidden dataset 2 of lab 02"
};

// `findings` grouped, in the order each bug was first found.
std::vector<DistinctFinding> distinct_findings(const std::vector<Finding>& findings);

// The sizes it showed at, each once, where there are several: "seen at: 1
// block, 2 blocks, 5 blocks"; "" otherwise. The grader notes the first few
// findings of a kind (lab_state.hpp): the sizes of those.
std::string sizes_text(const DistinctFinding& d);

}  // namespace grader
