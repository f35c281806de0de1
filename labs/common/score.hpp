// The grader's arithmetic that a student's own check needs too (the grader
// and `./scan-labs check` both call these): which findings belong to which
// safety check, which datasets carry points, and what a divergence level or
// a time earns.
#pragma once

#include <string>
#include <vector>

#include "generator.hpp"
#include "scan_spec.hpp"

namespace score {

// The safety checks, each worth a quarter of the safety points.
extern const char* const kCategories[4];  // race, barrier, memory, leak

// The safety check that an emulator finding of kind `kind` (the kind its
// check set, simt::kind_name) counts against: race, barrier or memory (an
// uninitialised read counts against memory). Throws std::invalid_argument
// for any other kind: a check without a kind is a defect, never "memory".
std::string emulator_category(const std::string& kind);

// Whether an emulator finding of kind `kind` leaves a run's values proving
// nothing: undefined behaviour the hardware may turn into a hang, a fault or
// other values (barrier and memory kinds; not a race or an uninitialised read).
bool emulator_undefined(const std::string& kind);

// Rules of judge() that are scored under safety, not correctness: a run
// that breaks only these still has right values.
bool safety_rule(const std::string& rule);

// The input the divergence component measures on (walk4: never all zeros,
// every sum exact), at the rubric's size. (Timing's seed is the course's
// secret's: grader/core/rubric.hpp, Rubric::timing_spec.)
datasets::Spec divergence_spec(std::size_t n);

// Expected output equal to the input (n <= 1 for inclusive scans): a copy of
// the input passes, so it carries no points.
bool trivial(const std::vector<float>& in, const datasets::ScanSpec& spec);

// Divergence: full points (1) within full_within of the reference's SIMT
// efficiency, none zero_below under it, linear between.
double divergence_part(double got, double target, double full_within, double zero_below);
// "SIMT efficiency 93.4% against the reference's 99.8% on DATASET (full
// points from 97.8%, none below 74.8%)": one function's line, for the
// grader's feedback and ./scan-labs check alike.
std::string divergence_line(double got, double target, const std::string& dataset, double full_within,
                            double zero_below);

// Timing: the ratio to the reference's time rounded to `step` (noise well
// inside a step cannot move the points), then full points within
// full_within, none from zero_at, linear between.
double rounded_ratio(double ratio, double step);
double timing_part(double ratio, double full_within, double zero_at, double step);

// The roofline floor: a scan reads and writes every element at least once,
// so no scan beats a device-to-device copy of the same bytes timed in the
// same run. Why `ms` is not a possible time, or "" (also when no copy was
// timed: copy_ms 0).
std::string impossible_time(double ms, double copy_ms);

}  // namespace score
