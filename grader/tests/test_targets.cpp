// labs/targets.json, what `./scan-labs check` scores a student's lab with,
// against the grader: the default rubric's weights and rules, and one entry
// per lab function of the catalog.
#include <doctest/doctest.h>

#include <fstream>

#include <nlohmann/json.hpp>

#include "catalog.hpp"
#include "grader/core/rubric.hpp"

namespace {

nlohmann::json targets() {
    std::ifstream in(KIT "/labs/targets.json");
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("targets.json carries the default rubric's weights and rules") {
    const grader::Rubric rubric = grader::load_rubric(KIT "/grader/rubric.json");
    const nlohmann::json t = targets();
    for (const auto& lab : catalog::labs()) {
        const grader::Weights& w = rubric.weights_of(lab.id);
        CHECK(t.at("weights").at("correctness").get<double>() == w.correctness);
        CHECK(t.at("weights").at("safety").get<double>() == w.safety);
        CHECK(t.at("weights").at("divergence").get<double>() == w.divergence);
        CHECK(t.at("weights").at("timing").get<double>() == w.timing);
    }
    CHECK(t.at("divergence").at("n").get<std::size_t>() == rubric.divergence_n);
    CHECK(t.at("divergence").at("full_within").get<double>() == rubric.divergence_full_within);
    CHECK(t.at("divergence").at("zero_below").get<double>() == rubric.divergence_zero_below);
    CHECK(t.at("timing").at("n").get<std::size_t>() == rubric.timing_n);
    CHECK(t.at("timing").at("full_within").get<double>() == rubric.timing_full_within);
    CHECK(t.at("timing").at("zero_at").get<double>() == rubric.timing_zero_at);
    CHECK(t.at("timing").at("ratio_step").get<double>() == rubric.timing_ratio_step);
}

TEST_CASE("targets.json has the reference's figures for every lab function, and nothing else") {
    const nlohmann::json reference = targets().at("reference");
    std::size_t functions = 0;
    for (const auto& lab : catalog::labs()) {
        REQUIRE_MESSAGE(reference.contains(lab.id), lab.id);
        CHECK(reference.at(lab.id).size() == lab.functions.size());
        for (const auto& fn : lab.functions) {
            const nlohmann::json& f = reference.at(lab.id).at(fn.name);
            const double efficiency = f.at("simt_efficiency").get<double>();
            CHECK_MESSAGE((efficiency > 0.25 && efficiency <= 1.0), fn.name);
            CHECK_MESSAGE(f.at("time_over_copy").get<double>() >= 1.0, fn.name);  // no scan beats a copy of its bytes
            // per launch, per barrier interval: at most a block's 32 warps (the kit's kernels run 1024 threads)
            for (const auto& launch : f.at("divergent_warps").get<std::vector<std::vector<unsigned>>>()) {
                CHECK_MESSAGE(!launch.empty(), fn.name);
                for (unsigned warps : launch) CHECK_MESSAGE(warps <= 32, fn.name);
            }
            CHECK_MESSAGE(!f.at("divergent_warps").empty(), fn.name);
            ++functions;
        }
    }
    CHECK(reference.size() == catalog::labs().size());
    CHECK(functions == 6);
}
