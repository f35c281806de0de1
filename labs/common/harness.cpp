#include "harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>

#include "compare.hpp"
#include "device.hpp"
#include "generator.hpp"

namespace harness {
namespace {

std::vector<datasets::Entry> g_selected;
std::optional<std::vector<float>> g_values;  // --input
bool g_device_lost = false;  // a sticky error ended every later device call

// What the input's guard elements hold: huge, so a kernel that reads past n and
// lets it into a real output fails loudly.
constexpr float kInputGuard = 1.0e30f;

std::string first_change(const std::vector<float>& before, const std::vector<float>& after, std::size_t n) {
    for (std::size_t i = 0; i < before.size(); ++i)
        if (std::memcmp(&before[i], &after[i], sizeof(float)) != 0)
            return (i < n ? "in[" + std::to_string(i) + "]" : "guard element in[n + " + std::to_string(i - n) + "]") +
                   " changed";
    return "";
}

struct Buffers {
    float* in = nullptr;
    float* out = nullptr;
    ~Buffers() {
        try {
            device::release(in);
            device::release(out);
        } catch (const device::Error&) {
            // The context is already broken; the error was reported where it happened.
        }
    }
};

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
bool check_dataset(const LabFunction& fn, const std::string& dataset, std::vector<float> in, bool exact) {
    const std::size_t n = in.size();
    const std::string what = fn.name + " on " + dataset + " (" + datasets::describe(fn.spec) + ")";
    INFO(what);

    in.resize(n + kGuard, kInputGuard);
    std::vector<float> out(n + kGuard, compare::poison());
    std::vector<float> in_after(n + kGuard);

    device::Usage before, after;
    std::vector<std::string> findings;
    try {
        Buffers buf;
        buf.in = device::alloc(n + kGuard);
        buf.out = device::alloc(n + kGuard);
        device::upload(buf.in, in.data(), in.size());
        device::upload(buf.out, out.data(), out.size());
        before = device::in_use();
        device::take_findings();  // only what this call causes counts
        fn.run(buf.in, buf.out, n);
        device::check_after(fn.name.c_str());
        findings = device::take_findings();
        after = device::in_use();
        device::download(in_after.data(), buf.in, in.size());
        device::download(out.data(), buf.out, out.size());
    } catch (const device::Error& e) {
        FAIL_CHECK(std::string(e.what()));  // a char* would print as a pointer
        std::printf("  FAIL  %s: %s\n", what.c_str(), e.what());
        if (e.sticky()) {
            FAIL_CHECK(std::string("the device context is lost after this error; the remaining datasets of "
                                   "this run are not tested"));
            return false;
        }
        return true;
    }

    // Each rule is a named bool, so doctest's failure line says which one broke.
    const std::string changed = first_change(in, in_after, n);
    const bool input_unchanged = changed.empty();
    CHECK_MESSAGE(input_unchanged, "the input must not be modified: " << changed);

    std::string overrun;
    for (std::size_t i = n; i < out.size() && overrun.empty(); ++i)
        if (!compare::is_poison(out[i])) overrun = "out[n + " + std::to_string(i - n) + "] written";
    const bool nothing_written_past_n = overrun.empty();
    CHECK_MESSAGE(nothing_written_past_n, "wrote past the end of the output (n = " << n << "): " << overrun);

    std::string found;
    for (const auto& f : findings) found += "\n  " + f;
    const bool backend_checks_clean = findings.empty();
    CHECK_MESSAGE(backend_checks_clean, "the emulator's checks failed (even where the values came out right):" << found);

    const bool temporaries_freed = after.bytes <= before.bytes;
    CHECK_MESSAGE(temporaries_freed, "device memory leaked: "
                                         << (after.bytes - before.bytes) << " bytes in "
                                         << (after.allocations - before.allocations)
                                         << " allocation(s) still live after " << fn.name
                                         << " returned; cudaFree every temporary");

    in.resize(n);
    out.resize(n);
    const compare::Result r = compare::compare(in, out, fn.spec, exact);
    const bool outputs_match = r.ok();
    CHECK_MESSAGE(outputs_match, r.report);

    const bool ok = outputs_match && input_unchanged && nothing_written_past_n && temporaries_freed &&
                    backend_checks_clean;
    std::printf("  %s  %s\n", ok ? "ok  " : "FAIL", what.c_str());
    if (g_values) std::printf("    in: %s\n   out: %s\n", list(in).c_str(), list(out).c_str());
    for (const auto& report : device::take_divergence_reports()) std::printf("%s", report.c_str());
    std::printf("%s", device::take_shared_trace().c_str());
    return true;
}

}  // namespace

const std::vector<datasets::Entry>& selected() { return g_selected; }

void select(std::vector<datasets::Entry> entries) { g_selected = std::move(entries); }

void use_values(std::vector<float> values) { g_values = std::move(values); }

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

}  // namespace harness
