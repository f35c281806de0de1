// The correctness rule and its diagnostics, shared by the lab suites (and,
// later, the grader) so a student sees the verdict the grader gives.
//
// Rule: on the integer walks every output must equal the float64 scan exactly
// (every partial sum is an integer below 2^24, so any summation order is
// exact). On uniform floats |got - expected| <= kFloatRelTol * S, where S is
// the sum of |x| over the terms of that output: the bound on a summation's
// rounding error, with room for the ~log2(n) rounding steps of a tree scan.
// NaN and infinity never pass; an output still holding the poison pattern was
// never written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "scan_spec.hpp"

namespace compare {

constexpr double kFloatRelTol = 1e-5;

// A quiet NaN with a recognisable payload, written to every output (and to
// guard elements past the end) before the lab function runs.
constexpr std::uint32_t kPoisonBits = 0x7fc0dead;
float poison();
bool is_poison(float x);

struct Result {
    std::size_t wrong = 0;      // outputs outside the rule (unwritten included)
    std::size_t unwritten = 0;  // outputs still holding the poison
    std::optional<std::size_t> first_wrong;
    std::string report;         // empty when every output passes
    bool ok() const { return wrong == 0; }
};

// Compares got[0..n) with the float64 expected scan of `input`.
Result compare(const std::vector<float>& input, const std::vector<float>& got,
               const datasets::ScanSpec& spec, bool exact);

// A value as the reports print it (9 significant digits).
std::string format_value(double v);

// The likeliest cause of a failure, for the report's last line; `magnitude`
// and `exact` as the comparison rule uses them.
std::string hint(const std::vector<float>& input, const std::vector<double>& expected, const std::vector<double>& magnitude,
                 const std::vector<float>& got, const datasets::ScanSpec& spec, bool exact, std::size_t first_wrong);

}  // namespace compare
