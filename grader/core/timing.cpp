#include "grader/core/timing.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "grader/core/files.hpp"
#include "score.hpp"

namespace grader {

double rounded_ratio(const Rubric& rubric, double ratio) { return score::rounded_ratio(ratio, rubric.timing_ratio_step); }

double timing_part(const Rubric& rubric, double ratio) {
    return score::timing_part(ratio, rubric.timing_full_within, rubric.timing_zero_at, rubric.timing_ratio_step);
}

Timed read_timing(const std::string& path) { return parse_timing(read_file(path)); }

Timed parse_timing(std::string_view json) {
    const nlohmann::json doc = nlohmann::json::parse(json);
    const nlohmann::json& size = doc.at("results").at(0).at("sizes").at(0);
    Timed t;
    t.checked_calls = size.value("checked_calls", std::size_t{0});
    t.problem = size.value("problem", std::string());
    if (!t.problem.empty()) return t;
    const nlohmann::json& ratio = size.at("ratio");
    t.median = ratio.at("median").get<double>();
    t.p10 = ratio.at("p10").get<double>();
    t.p90 = ratio.at("p90").get<double>();
    t.ci_low = ratio.at("ci95_low").get<double>();
    t.ci_high = ratio.at("ci95_high").get<double>();
    t.rounds = ratio.at("count").get<std::size_t>();
    const std::map<std::string, double*> roles = {
        {"module", &t.mine_ms}, {"against", &t.ref_ms}, {"cub", &t.cub_ms}, {"copy", &t.copy_ms}};
    for (const auto& c : size.at("candidates")) {
        const auto role = roles.find(c.at("role").get<std::string>());
        if (role == roles.end()) throw std::runtime_error("a candidate of unknown role " + c.at("role").dump());
        *role->second = c.at("ms").at("median").get<double>();
        if (!std::isfinite(*role->second) || *role->second <= 0)
            throw std::runtime_error("a time that is not a positive number");
    }
    for (double v : {t.median, t.mine_ms, t.ref_ms})
        if (!std::isfinite(v) || v <= 0) throw std::runtime_error("a time or ratio that is not a positive number");
    t.problem = score::impossible_time(t.mine_ms, t.copy_ms);
    return t;
}

std::optional<std::size_t> plan_stopped_at(std::size_t lines, const std::function<bool(std::size_t, bool)>& has) {
    for (const bool json : {false, true})
        for (std::size_t k = 0; k < lines; ++k)
            if (!has(k, json)) return k;
    return std::nullopt;
}

}  // namespace grader
