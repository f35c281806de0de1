// What scan-bench measured, as a table for people and JSON for the grader
// and the results files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bounds.hpp"
#include "stats.hpp"

namespace bench {

struct Candidate {
    std::string name;  // "cudaMemcpy D2D", "CUB DeviceScan::InclusiveSum", "brent_kung_scan [module]"
    std::string role;  // "copy", "cub", "module" or "against"
    Summary ms;
};

struct SizeResult {
    std::size_t n = 0;
    std::vector<Candidate> candidates;
    std::optional<Summary> ratio;  // module / against, per round
    unsigned rounds = 0;
    Stopped stopped = Stopped::MaxRounds;
    // Grading mode (--grading): the module's calls whose whole output was
    // checked, each on a fresh input, and why its time is not scored: a
    // wrong output (sampling stopped there) or a time under the copy's.
    std::uint64_t checked_calls = 0;
    std::string problem;
    // Grading a plan: the copy's and the reference's medians recorded with
    // no process of the submission alive, which the rounds are held against.
    std::optional<Alone> alone;
    const Candidate* find(const std::string& role) const;
};

struct BenchResult {
    std::string device;
    std::size_t l2_bytes = 0;
    std::string lab, function, module, against;  // against: "" when timed alone
    StopRule rule;
    std::vector<SizeResult> sizes;
};

// Effective bandwidth, counting n reads and n writes of 4 bytes.
double gbytes_per_s(std::size_t n, double ms);

std::string table(const BenchResult& r);
nlohmann::json to_json(const BenchResult& r);
// The whole --json file: every function's results and counters (the grader reads it).
nlohmann::json document(const std::string& device, const nlohmann::json& results, const nlohmann::json& counters);

}  // namespace bench
