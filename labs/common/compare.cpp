#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace compare {
namespace {

bool within(double expected, double magnitude, float got, bool exact) {
    if (!std::isfinite(got)) return false;
    if (exact) return double{got} == expected;
    return std::fabs(double{got} - expected) <= kFloatRelTol * magnitude;
}

std::string format_got(float v) { return is_poison(v) ? "(unwritten)" : format_value(v); }

std::string neighbours(const std::vector<float>& input, const std::vector<double>& expected,
                       const std::vector<float>& got, std::size_t at) {
    std::string out = "        index        input     expected          got\n";
    const std::size_t lo = at >= 3 ? at - 3 : 0;
    const std::size_t hi = std::min(got.size(), at + 4);
    for (std::size_t i = lo; i < hi; ++i) {
        char line[160];
        std::snprintf(line, sizeof line, "  %s %10zu %12s %12s %12s\n", i == at ? ">" : " ", i,
                      format_value(input[i]).c_str(), format_value(expected[i]).c_str(),
                      format_got(got[i]).c_str());
        out += line;
    }
    return out;
}

}  // namespace

std::string format_value(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

float poison() {
    float f;
    std::memcpy(&f, &kPoisonBits, sizeof f);
    return f;
}

bool is_poison(float x) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    return bits == kPoisonBits;
}

std::string hint(const std::vector<float>& input, const std::vector<double>& expected, const std::vector<double>& magnitude,
                 const std::vector<float>& got, const datasets::ScanSpec& spec, bool exact, std::size_t i) {
    const std::size_t n = got.size();
    const std::size_t section = spec.section ? spec.section : n;
    const std::size_t offset = i % section;
    const bool exclusive = spec.kind == datasets::ScanKind::Exclusive;
    const double g = got[i];

    // True when pred(j) holds for every j of i's section within 3 of i: one
    // coincidence at a single index must not pick the hint.
    const auto around = [&](auto pred) {
        const std::size_t lo = std::max(i - offset, i >= 3 ? i - 3 : 0);
        const std::size_t hi = std::min({n, i - offset + section, i + 4});
        for (std::size_t j = lo; j < hi; ++j)
            if (!pred(j)) return false;
        return true;
    };

    if (is_poison(got[i])) {
        const std::size_t tail_start = n - (n % section == 0 ? section : n % section);
        if (i >= tail_start && i > 0)
            return "never written from the last, partial section on: launch ceil(n / section) blocks and "
                   "guard loads and stores with the index < n test, not skip the tail";
        if (spec.section == 2048 && offset >= 1024)
            return "the second half of the section is never written: each of the 1024 threads stores "
                   "two elements, at t and t + 1024";
        return "outputs never written: is the kernel launched, over enough blocks, and does every "
               "thread store its result?";
    }
    if (std::isnan(g)) return "NaN: a read of memory nothing wrote (shared memory, or past the end of the input)";
    if (around([&](std::size_t j) { return got[j] == input[j]; }))
        return "the outputs equal the inputs: the section is loaded and stored but never scanned";
    if (exclusive && offset == 0) {
        // A Brent-Kung down-sweep whose first step (the root's, stride
        // section / 2) never ran: the first half's total stays in its middle
        // and the cleared 0 at the end, so each output of the first half is
        // too large by that total T and each of the second half too small.
        const std::size_t half = section / 2, end = std::min(n, i + section);
        const double total = i + half < n ? expected[i + half] : expected[end - 1] + input[end - 1];
        const auto off_by = [&](std::size_t from, double by) {
            for (std::size_t j = from; j < std::min(end, from + 4); ++j)
                if (!within(expected[j] + by, magnitude[j], got[j], exact)) return false;
            return true;
        };
        if (half >= 4 && total != 0 && off_by(i, total) && (i + half >= end || off_by(i + half, -total)))
            return "each output of the section's first half is too large by that half's total, and of the "
                   "second half too small by it: the down-sweep's first step (stride " + std::to_string(half) +
                   ", at the root) never ran (does its loop start at stride = section / 2?)";
        return "an exclusive scan starts every section with the identity 0 (load 0, not x[i - 1], at "
               "the section start)";
    }
    // (Section starts are judged by the identity hint above, not here.)
    if (exclusive && around([&](std::size_t j) { return j % section == 0 || got[j] == expected[j] + input[j]; }))
        return "these are the inclusive values: an exclusive scan sums only the elements before i (shift "
               "the load right by one)";
    if (!exclusive && around([&](std::size_t j) { return got[j] == expected[j] - input[j]; }))
        return "these are the exclusive values: an inclusive scan includes x[i] itself";
    if (spec.section == 0 && spec.block && i >= spec.block) {
        // Within-block scan only: the sum of all earlier blocks is missing.
        const std::size_t block_start = i - i % spec.block;
        if (g == expected[i] - expected[block_start - 1])
            return "first error in block " + std::to_string(i / spec.block) +
                   " equals that block's own scan: block sums are not propagated (the add-back of the "
                   "scanned block sums is missing or skips this block)";
    }
    if (spec.section == 0 && spec.block && i / spec.block > spec.block)
        return "correct up to block " + std::to_string(spec.block) + ", wrong from block " + std::to_string(i / spec.block) +
               " on: only the first " + std::to_string(spec.block) + " block sums are scanned; more block sums "
               "need the hierarchy again one level up (recurse until one block holds them all)";
    if (spec.section == 0 && spec.block && i % spec.block == 0) {
        // The block's outputs all off by one amount from its first on: the
        // prefix the block added (lab 04's scanned block sum, lab 05's
        // look-back) is wrong, not its own scan.
        const double off = g - expected[i];
        bool constant = true;
        for (std::size_t j = i; j < std::min(n, i + 4); ++j)
            constant = constant && within(expected[j] + off, magnitude[j], got[j], exact);
        if (constant)
            return "block " + std::to_string(i / spec.block) + " is off by " + format_value(off) +
                   " from its first output on, its own scan right: the prefix added to it is wrong (lab 04: the "
                   "scanned block sum added back; lab 05: the look-back, which must not take an AGGREGATE, a tile's "
                   "own sum, for an INCLUSIVE prefix, nor read a value before its flag says it is there)";
    }
    // A step missing from the end of the loop: from offset P = 2^k on (P the
    // largest power of two not above the first wrong offset), each output
    // holds the sum of only its last P inputs.
    std::size_t window = 1;
    while (window * 2 <= offset) window *= 2;
    // These two hold trivially before i: the outputs from i on must show them,
    // at least two (a single wrong last output fits either by coincidence).
    const bool two_wrong_side = i + 1 < std::min(n, i - offset + section);
    if (offset >= 2 && two_wrong_side && around([&](std::size_t j) {
            return j % section < window || within(expected[j] - expected[j - window], magnitude[j], got[j], exact);
        }))
        return "from offset " + std::to_string(window) + " on each output sums only its last " + std::to_string(window) +
               " inputs: the step with stride " + std::to_string(window) +
               " never ran (does the loop run while stride < the section size?)";
    // A section that restarts at its middle: blocks of blockDim.x threads,
    // each loading two elements, whose sections start at blockIdx.x * blockDim.x.
    if (section >= 4 && offset == section / 2 && two_wrong_side) {
        const double restart = exclusive ? expected[i] : expected[i - 1];
        if (around([&](std::size_t j) {
                return j % section < offset || within(expected[j] - restart, magnitude[j], got[j], exact);
            }))
            return "from offset " + std::to_string(offset) + " on, the outputs are a new scan starting there, as if a "
                   "section began mid-way: a section of " + std::to_string(section) + " elements starts at blockIdx.x * " +
                   std::to_string(section) + " (each thread loads two), not blockIdx.x * blockDim.x";
    }
    if (offset > 0 && offset % 32 == 0)
        return "the first wrong output starts a warp (offset " + std::to_string(offset) +
               " is a multiple of 32): threads of different warps raced; a read/write race on one shared "
               "buffer (double-buffer it) or a missing __syncthreads() between steps";
    return "values differ inside the section: check each step's index arithmetic and loop bounds, and "
           "look for a read/write race on shared memory or a missing __syncthreads()";
}

Result compare(const std::vector<float>& input, const std::vector<float>& got,
               const datasets::ScanSpec& spec, bool exact) {
    const std::vector<double> expected = datasets::reference_scan(input, spec);
    const std::vector<double> magnitude = datasets::magnitude_scan(input, spec);
    Result r;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (within(expected[i], magnitude[i], got[i], exact)) continue;
        ++r.wrong;
        if (is_poison(got[i])) ++r.unwritten;
        if (!r.first_wrong) r.first_wrong = i;
    }
    if (r.ok()) return r;

    const std::size_t i = *r.first_wrong;
    const std::size_t section = spec.section ? spec.section : got.size();
    const std::size_t block = spec.block ? spec.block : section;
    char head[512];
    std::snprintf(head, sizeof head,
                  "%zu of %zu outputs wrong (%zu never written); %s comparison\n"
                  "  first wrong: out[%zu] expected %s, got %s (section %zu offset %zu, block %zu)\n",
                  r.wrong, got.size(), r.unwritten,
                  exact ? "exact (integer dataset)" : "tolerance 1e-5 * sum|x| (float dataset)", i,
                  format_value(expected[i]).c_str(), format_got(got[i]).c_str(), i / section,
                  i % section, i / block);
    r.report = head + neighbours(input, expected, got, i) + "  hint: " + hint(input, expected, magnitude, got, spec, exact, i);
    return r;
}

}  // namespace compare
