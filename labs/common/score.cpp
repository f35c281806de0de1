#include "score.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace score {

const char* const kCategories[4] = {"race", "barrier", "memory", "leak"};

std::string emulator_category(const std::string& kind) {
    if (kind == "race" || kind == "barrier" || kind == "memory") return kind;
    if (kind == "uninitialised") return "memory";  // counts against memory, as initcheck's reports do
    throw std::invalid_argument("an emulator finding of no known kind: \"" + kind + "\"");
}

bool emulator_undefined(const std::string& kind) {
    // A GPU would hang, fault or leave the result undefined; a race or a
    // read of unwritten memory leaves the kernel running on values it had.
    return emulator_category(kind) != "race" && kind != "uninitialised";
}

bool safety_rule(const std::string& rule) { return rule == "backend_checks_clean" || rule == "temporaries_freed"; }

datasets::Spec divergence_spec(std::size_t n) { return {datasets::Distribution::Walk4, n, 4343}; }

bool trivial(const std::vector<float>& in, const datasets::ScanSpec& spec) {
    const std::vector<double> expected = datasets::reference_scan(in, spec);
    for (std::size_t i = 0; i < in.size(); ++i)
        if (expected[i] != in[i]) return false;
    return true;
}

double divergence_part(double got, double target, double full_within, double zero_below) {
    return std::clamp((got - (target - zero_below)) / (zero_below - full_within), 0.0, 1.0);
}

std::string divergence_line(double got, double target, const std::string& dataset, double full_within,
                            double zero_below) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "SIMT efficiency %.1f%% against the reference's %.1f%% on %s (full points from %.1f%%, none below %.1f%%)",
                  100 * got, 100 * target, dataset.c_str(), 100 * std::max(0.0, target - full_within),
                  100 * std::max(0.0, target - zero_below));
    return text;
}

double rounded_ratio(double ratio, double step) { return step > 0 ? std::round(ratio / step) * step : ratio; }

double timing_part(double ratio, double full_within, double zero_at, double step) {
    return std::clamp((zero_at - rounded_ratio(ratio, step)) / (zero_at - full_within), 0.0, 1.0);
}

std::string impossible_time(double ms, double copy_ms) {
    if (!(copy_ms > 0) || ms >= copy_ms) return "";
    char text[256];
    std::snprintf(text, sizeof text,
                  "%.4f ms is faster than a device-to-device copy of the same bytes in the same run (%.4f ms): a scan "
                  "reads and writes every element at least once, so that time is not possible",
                  ms, copy_ms);
    return text;
}

}  // namespace score
