// grader/README.md's table of the rubric's keys against the grader: every
// number its default column gives (`key` NUMBER, and the weights) is what an
// empty rubric reads as, and every numeric default is in the table, so the
// table cannot drift from rubric.hpp.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "grader/core/rubric.hpp"

namespace {

std::string read(const std::string& path) {
    std::ifstream in(path);
    REQUIRE_MESSAGE(in.good(), path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// The table's default column per top-level key: "| `timeouts` | DEFAULT | meaning |".
std::map<std::string, std::string> defaults_column(const std::string& readme) {
    std::map<std::string, std::string> out;
    const std::regex row(R"(^\| `([a-z_]+)` \| ([^|]*) \|)");
    std::istringstream lines(readme);
    for (std::string line; std::getline(lines, line);) {
        std::smatch m;
        if (std::regex_search(line, m, row)) out[m[1]] = m[2];
    }
    return out;
}

// "2^24" or "0.005".
double number(const std::string& text) {
    const auto caret = text.find('^');
    if (caret == std::string::npos) return std::stod(text);
    return std::pow(std::stod(text.substr(0, caret)), std::stod(text.substr(caret + 1)));
}

}  // namespace

TEST_CASE("grader/README.md gives the rubric's defaults") {
    const auto empty = std::filesystem::temp_directory_path() / "scan-grade-readme-rubric.json";
    std::ofstream(empty) << "{}\n";
    const grader::Rubric r = grader::load_rubric(empty.string());
    std::filesystem::remove(empty);
    const std::map<std::string, double> want = {
        {"hidden_seed", static_cast<double>(grader::Rubric{}.hidden_seed)},  // r's: SCAN_GRADE_SECRET's where set
        {"timeouts.build_s", r.build_timeout_s},
        {"timeouts.run_base_s", r.run_base_s},
        {"timeouts.run_per_million_s", r.run_per_million_s},
        {"timeouts.gpu_per_million_s", r.gpu_per_million_s},
        {"timeouts.gpu_step_s", r.gpu_step_s},
        {"timeouts.give_up_after", static_cast<double>(r.give_up_after)},
        {"divergence.n", static_cast<double>(r.divergence_n)},
        {"divergence.full_within", r.divergence_full_within},
        {"divergence.zero_below", r.divergence_zero_below},
        {"timing.n", static_cast<double>(r.timing_n)},
        {"timing.min_rounds", static_cast<double>(r.timing_min_rounds)},
        {"timing.max_rounds", static_cast<double>(r.timing_max_rounds)},
        {"timing.rel_ci", r.timing_rel_ci},
        {"timing.max_seconds", r.timing_max_seconds},
        {"timing.ratio_step", r.timing_ratio_step},
        {"timing.full_within", r.timing_full_within},
        {"timing.zero_at", r.timing_zero_at},
        {"sanitizer.n", static_cast<double>(r.sanitizer_n)},
        {"sanitizer.timeout_s", r.sanitizer_timeout_s},
        {"intake.header_max_bytes", static_cast<double>(r.intake.header_max_bytes)},
        {"slurm.chunk", static_cast<double>(r.slurm.chunk)},
        {"slurm.cpus_per_task", static_cast<double>(r.slurm.cpus_per_task)},
        {"similarity.threshold", r.similarity.threshold},
        {"similarity.min_tokens", static_cast<double>(r.similarity.min_tokens)},
        {"similarity.pairs", static_cast<double>(r.similarity.pairs)},
    };
    const auto column = defaults_column(read(KIT "/grader/README.md"));
    std::map<std::string, double> given;
    for (const auto& [key, text] : column) {
        if (key == "hidden_seed") given[key] = number(text);
        const std::regex pair(R"(`([a-z_]+)` ([0-9][0-9.^]*))");
        for (auto it = std::sregex_iterator(text.begin(), text.end(), pair); it != std::sregex_iterator(); ++it)
            given[key + "." + (*it)[1].str()] = number((*it)[2]);
    }
    for (const auto& [key, value] : want) {
        CHECK_MESSAGE(given.count(key) == 1, key, " is not in the README's table");
        if (given.count(key)) CHECK_MESSAGE(given[key] == doctest::Approx(value), key);
    }
    for (const auto& [key, value] : given) CHECK_MESSAGE(want.count(key) == 1, key, " in the README is no numeric default checked here");

    // The weights: "60, 20, 10, 10", in correctness, safety, divergence, timing order.
    const grader::Weights w;
    char expected[64];
    std::snprintf(expected, sizeof expected, "%g, %g, %g, %g", w.correctness, w.safety, w.divergence, w.timing);
    CHECK(column.at("weights") == expected);
    CHECK(column.at("slurm").find("`time` `\"" + r.slurm.time + "\"`") != std::string::npos);
    CHECK(column.at("no_gpu") == (r.no_gpu_full_timing ? "`\"full\"`" : "`\"exclude\"`"));
}
