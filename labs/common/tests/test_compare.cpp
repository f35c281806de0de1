// Host tests of the comparison rule, its diagnostics and hints, and the serial
// CPU scan held to the rule against float64.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "compare.hpp"
#include "generator.hpp"

using datasets::Distribution;
using datasets::ScanKind;
using datasets::ScanSpec;

namespace {

const ScanSpec kLab01{ScanKind::Inclusive, 1024, 1024};
const ScanSpec kLab02{ScanKind::Inclusive, 2048, 2048};
const ScanSpec kLab03BK{ScanKind::Exclusive, 2048, 2048};
const ScanSpec kLab04{ScanKind::Inclusive, 0, 2048};

std::vector<float> expected_f32(const std::vector<float>& in, const ScanSpec& spec) {
    const auto e = datasets::reference_scan(in, spec);
    return std::vector<float>(e.begin(), e.end());
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("the serial float32 CPU scan passes the rule against float64") {
    for (const ScanSpec& spec : {kLab01, kLab02, kLab03BK, kLab04}) {
        for (auto dist : {Distribution::Walk1, Distribution::Walk4, Distribution::Uniform}) {
            const auto in = datasets::generate({dist, 1 << 20, 17});
            const auto r = compare::compare(in, datasets::serial_scan(in, spec), spec, datasets::is_exact(dist));
            INFO(datasets::describe(spec) << " " << datasets::distribution_name(dist) << "\n" << r.report);
            CHECK(r.ok());
        }
    }
}

TEST_CASE("exact rule: one element off by one is caught and located") {
    const auto in = datasets::generate({Distribution::Walk4, 5000, 3});
    auto got = expected_f32(in, kLab02);
    got[4100] += 1.0f;
    const auto r = compare::compare(in, got, kLab02, true);
    REQUIRE_FALSE(r.ok());
    CHECK(r.wrong == 1);
    CHECK(r.unwritten == 0);
    CHECK(*r.first_wrong == 4100);
    INFO(r.report);
    CHECK(has(r.report, "1 of 5000 outputs wrong"));
    CHECK(has(r.report, "first wrong: out[4100]"));
    CHECK(has(r.report, "(section 2 offset 4, block 2)"));
    CHECK(has(r.report, "exact (integer dataset)"));
    // Neighbours: three before, three after, the wrong one marked.
    CHECK(has(r.report, "      4097 "));
    CHECK(has(r.report, "  >       4100 "));
    CHECK(has(r.report, "      4103 "));
    CHECK_FALSE(has(r.report, "      4104 "));
    CHECK(has(r.report, "hint: "));
}

TEST_CASE("float rule: within 1e-5 * sum|x| passes, beyond fails; NaN and infinity never pass") {
    const auto in = datasets::generate({Distribution::Uniform, 3000, 5});
    const auto expected = datasets::reference_scan(in, kLab04);
    const auto magnitude = datasets::magnitude_scan(in, kLab04);
    const std::size_t i = 2500;
    const double tol = compare::kFloatRelTol * magnitude[i];
    REQUIRE(tol > 1e-4);  // the test is meaningful at float32 precision

    auto got = expected_f32(in, kLab04);
    got[i] = static_cast<float>(expected[i] + 0.5 * tol);
    CHECK(compare::compare(in, got, kLab04, false).ok());
    got[i] = static_cast<float>(expected[i] + 2.0 * tol);
    CHECK(compare::compare(in, got, kLab04, false).first_wrong == i);
    CHECK(has(compare::compare(in, got, kLab04, false).report, "tolerance 1e-5 * sum|x|"));
    got[i] = std::numeric_limits<float>::quiet_NaN();
    CHECK_FALSE(compare::compare(in, got, kLab04, false).ok());
    got[i] = std::numeric_limits<float>::infinity();
    CHECK_FALSE(compare::compare(in, got, kLab04, false).ok());
    // The exact rule rejects what the float rule accepts.
    got[i] = static_cast<float>(expected[i] + 0.5 * tol);
    CHECK_FALSE(compare::compare(in, got, kLab04, true).ok());
}

TEST_CASE("poisoned outputs are reported as never written") {
    CHECK(compare::is_poison(compare::poison()));
    CHECK(std::isnan(compare::poison()));
    CHECK_FALSE(compare::is_poison(std::numeric_limits<float>::quiet_NaN()));

    const auto in = datasets::generate({Distribution::Walk4, 5000, 3});
    auto got = expected_f32(in, kLab02);
    for (std::size_t i = 4096; i < got.size(); ++i) got[i] = compare::poison();  // tail section skipped
    auto r = compare::compare(in, got, kLab02, true);
    CHECK(r.unwritten == 5000 - 4096);
    CHECK(has(r.report, "got (unwritten)"));
    CHECK(has(r.report, "last, partial section"));

    got = expected_f32(in, kLab02);
    for (std::size_t i = 1024; i < 2048; ++i) got[i] = compare::poison();  // second element per thread
    r = compare::compare(in, got, kLab02, true);
    CHECK(has(r.report, "second half of the section is never written"));
}

TEST_CASE("hints name the likely mistake") {
    const auto in = datasets::generate({Distribution::Walk4, 6000, 8});

    SUBCASE("exclusive scan with a non-zero section start") {
        auto got = expected_f32(in, kLab03BK);
        got[2048] = in[2047];
        CHECK(has(compare::compare(in, got, kLab03BK, true).report, "identity 0"));
    }
    SUBCASE("a Brent-Kung down-sweep without its root step: the first half off by its total, the second half by minus it") {
        auto got = expected_f32(in, kLab03BK);
        const auto e = datasets::reference_scan(in, kLab03BK);
        for (std::size_t start = 0; start < got.size(); start += 2048) {
            const std::size_t end = std::min(got.size(), start + 2048);
            const double total = start + 1024 < got.size() ? e[start + 1024] : e[end - 1] + in[end - 1];
            for (std::size_t j = start; j < end; ++j)
                got[j] = static_cast<float>(e[j] + (j - start < 1024 ? total : -total));
        }
        const auto r = compare::compare(in, got, kLab03BK, true);
        INFO(r.report);
        CHECK(*r.first_wrong == 0);
        CHECK(has(r.report, "the down-sweep's first step (stride 1024, at the root) never ran"));
        CHECK_FALSE(has(r.report, "identity 0"));
    }
    SUBCASE("inclusive values where exclusive ones belong") {
        auto got = expected_f32(in, kLab03BK);
        for (std::size_t j = 0; j < got.size(); ++j)
            if (j % 2048 != 0) got[j] += in[j];  // section starts right, so the swap shows inside
        std::size_t i = 1;
        while (in[i] == 0) ++i;
        const auto r = compare::compare(in, got, kLab03BK, true);
        CHECK(*r.first_wrong == i);
        CHECK(has(r.report, "these are the inclusive values"));
    }
    SUBCASE("exclusive values where inclusive ones belong") {
        auto got = expected_f32(in, kLab01);
        for (std::size_t j = 0; j < got.size(); ++j) got[j] -= in[j];
        CHECK(has(compare::compare(in, got, kLab01, true).report, "these are the exclusive values"));
    }
    SUBCASE("one coincidence does not make an inclusive/exclusive swap") {
        auto got = expected_f32(in, kLab01);
        std::size_t i = 100;
        while (in[i] == 0) ++i;
        got[i] -= in[i];  // only this element looks exclusive
        CHECK_FALSE(has(compare::compare(in, got, kLab01, true).report, "exclusive values"));
    }
    SUBCASE("a stub that stores its input unscanned") {
        const auto r = compare::compare(in, in, kLab02, true);
        CHECK(has(r.report, "the outputs equal the inputs"));
    }
    SUBCASE("block sums not propagated in the hierarchy") {
        auto got = expected_f32(in, kLab02);  // per-section scans only
        const auto r = compare::compare(in, got, kLab04, true);
        REQUIRE(r.first_wrong.has_value());
        CHECK(*r.first_wrong >= 2048);
        CHECK(has(r.report, "block sums are not propagated"));
    }
    SUBCASE("a block whose added prefix is wrong: an AGGREGATE taken for an INCLUSIVE prefix") {
        const ScanSpec lab05{ScanKind::Inclusive, 0, 32768};
        const auto data = datasets::generate({Distribution::Walk4, 5 * 32768 + 7, 9});
        auto got = expected_f32(data, lab05);
        // Tile 3 added tile 2's aggregate alone: it lacks tiles 0 and 1.
        const std::vector<double> exact = datasets::reference_scan(data, lab05);
        const float missing = static_cast<float>(exact[2 * 32768 - 1]);
        for (std::size_t j = 3 * 32768; j < 4 * 32768; ++j) got[j] -= missing;
        const auto r = compare::compare(data, got, lab05, true);
        REQUIRE(r.first_wrong.has_value());
        CHECK(*r.first_wrong == 3 * 32768);
        CHECK(has(r.report, "block 3 is off by " + compare::format_value(-missing) + " from its first output on"));
        CHECK(has(r.report, "must not take an AGGREGATE"));
    }
    SUBCASE("first error at a warp boundary points at a race") {
        auto got = expected_f32(in, kLab01);
        got[1024 + 512] += 37.0f;  // as lab 01's stub failed on an H100
        CHECK(has(compare::compare(in, got, kLab01, true).report, "starts a warp (offset 512"));
    }
    SUBCASE("the loop's last step missing: each output sums only its last 512 inputs") {
        // Integer and float datasets; with x[0] == 0 the first wrong output is past offset 512.
        for (const auto& [dist, exact] : {std::pair{Distribution::Walk4, true}, std::pair{Distribution::Uniform, false}}) {
            for (const float first : {1.0f, 0.0f}) {
                auto data = datasets::generate({dist, 6000, 8});
                data[0] = first;
                const auto e = datasets::reference_scan(data, kLab01);
                auto got = expected_f32(data, kLab01);
                for (std::size_t j = 0; j < got.size(); ++j)
                    if (j % 1024 >= 512) got[j] = static_cast<float>(e[j] - e[j - 512]);
                const auto r = compare::compare(data, got, kLab01, exact);
                INFO(r.report);
                REQUIRE(r.first_wrong.has_value());
                CHECK(*r.first_wrong % 1024 >= (first == 0.0f ? 513 : 512));
                CHECK(has(r.report, "the step with stride 512 never ran"));
            }
        }
    }
    SUBCASE("block sums scanned by one block only: right to block 2048, wrong from 2049") {
        const auto big = datasets::generate({Distribution::Walk4, 2050 * 2048 + 5, 9});
        auto got = expected_f32(big, kLab04);
        for (std::size_t j = 2049 * 2048; j < got.size(); ++j) got[j] += 1.0f;
        const auto r = compare::compare(big, got, kLab04, true);
        REQUIRE(*r.first_wrong == 2049 * 2048);
        CHECK(has(r.report, "only the first 2048 block sums are scanned"));
    }
    SUBCASE("sections that start at blockIdx.x * blockDim.x: a new scan from the section's middle") {
        for (const ScanSpec& spec : {kLab02, kLab03BK}) {
            auto got = expected_f32(in, spec);
            const auto e = datasets::reference_scan(in, spec);
            const double restart = spec.kind == ScanKind::Exclusive ? e[1024] : e[1023];
            for (std::size_t j = 1024; j < 2048; ++j) got[j] = static_cast<float>(e[j] - restart);
            const auto r = compare::compare(in, got, spec, true);
            INFO(r.report);
            CHECK(*r.first_wrong >= 1024);
            CHECK(has(r.report, "as if a section began mid-way: a section of 2048 elements starts at blockIdx.x * 2048"));
        }
    }
    SUBCASE("one wrong last output fits no pattern: not taken for a section restarting mid-way") {
        // n = 1025, only out[1024] wrong (a store not waiting for the last
        // step): the restart and missing-step hints need two outputs to show them.
        const auto small = datasets::generate({Distribution::Walk4, 1025, 3});
        auto got = expected_f32(small, kLab02);
        got[1024] = small[1024];
        const auto r = compare::compare(small, got, kLab02, true);
        INFO(r.report);
        REQUIRE(*r.first_wrong == 1024);
        CHECK_FALSE(has(r.report, "as if a section began mid-way"));
        CHECK_FALSE(has(r.report, "never ran"));
    }
    SUBCASE("other errors inside a section get the general hint") {
        auto got = expected_f32(in, kLab01);
        got[700] += 37.0f;
        CHECK(has(compare::compare(in, got, kLab01, true).report, "values differ inside the section"));
    }
}

TEST_CASE("n = 0 compares as empty and passes") {
    CHECK(compare::compare({}, {}, kLab04, true).ok());
}
