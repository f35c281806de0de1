#include "harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <optional>

#include "check.hpp"
#include "compare.hpp"
#include "device.hpp"
#include "generator.hpp"
#include "observe.hpp"

namespace harness {
namespace {

std::vector<datasets::Entry> g_selected;
std::optional<std::vector<float>> g_values;  // --input
bool g_device_lost = false;  // a sticky error ended every later device call

// Integer values small enough that every partial sum is exact in float32.
bool exact_values(const std::vector<float>& values) {
    double total = 0;
    for (float x : values) {
        if (x != std::floor(x)) return false;
        total += std::fabs(x);
    }
    return total < (1 << 24);
}

std::string list(const std::vector<float>& v) {
    std::string out;
    for (std::size_t i = 0; i < v.size() && i < 64; ++i) out += " " + compare::format_value(v[i]);
    return v.size() > 64 ? out + " ..." : out;
}

// Runs one dataset; returns false when the device is no longer usable.
bool check_dataset(const LabFunction& fn, const std::string& dataset, const std::vector<float>& in, bool exact) {
    const std::string what = fn.name + " on " + dataset + " (" + datasets::describe(fn.spec) + ")";
    INFO(what);
    const Observation seen = observe(fn, in);
    bool ok = true;
    for (const Check& c : judge(in, seen, fn.spec, exact, fn.name)) {
        // The rule's name is the checked expression, so doctest's line says which one broke.
        const bool& rule_holds = c.ok;
        CHECK_MESSAGE(rule_holds, c.rule << ": " << c.message);
        ok = ok && c.ok;
    }
    std::printf("  %s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (g_values) {
        const std::vector<float> out(seen.out.begin(), seen.out.begin() + static_cast<std::ptrdiff_t>(seen.n));
        std::printf("    in: %s\n   out: %s\n", list(in).c_str(), list(out).c_str());
    }
    for (const auto& d : seen.divergence) std::printf("%s", d.report.c_str());
    std::printf("%s", device::take_shared_trace().c_str());
    if (seen.sticky)
        FAIL_CHECK(std::string("the device context is lost after this error; the remaining datasets of this run are "
                               "not tested"));
    return !seen.sticky;
}

void check_function(const LabFunction& fn) {
    if (g_device_lost) {
        FAIL_CHECK(fn.name << " not tested: the device context was lost by an earlier error in this run");
        return;
    }
    if (g_values) {
        g_device_lost = !check_dataset(fn, "the --input values n=" + std::to_string(g_values->size()), *g_values,
                                       exact_values(*g_values));
        return;
    }
    for (const auto& entry : g_selected)
        if (!check_dataset(fn, entry.cls + " dataset " + datasets::describe(entry.spec), datasets::generate(entry.spec),
                           datasets::is_exact(entry.spec.dist))) {
            g_device_lost = true;
            return;
        }
}

}  // namespace

void select(std::vector<datasets::Entry> entries) { g_selected = std::move(entries); }

void use_values(std::vector<float> values) { g_values = std::move(values); }

TEST_CASE("the lab's functions on the selected datasets") {
    for (const LabFunction& fn : lab_functions()) check_function(fn);
    // Shown, not tested: `meson test` stays a verdict on correctness.
    if (!g_values && !g_device_lost) std::printf("%s", divergence_preview(LAB_TARGETS).c_str());
}

}  // namespace harness
