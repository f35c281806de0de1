#include "timing.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "files.hpp"

namespace grader {

double rounded_ratio(const Rubric& rubric, double ratio) {
    return rubric.timing_ratio_step > 0 ? std::round(ratio / rubric.timing_ratio_step) * rubric.timing_ratio_step : ratio;
}

double timing_part(const Rubric& rubric, double ratio) {
    return std::clamp((rubric.timing_zero_at - rounded_ratio(rubric, ratio)) /
                          (rubric.timing_zero_at - rubric.timing_full_within),
                      0.0, 1.0);
}

Timed read_timing(const std::string& path) {
    const nlohmann::json doc = nlohmann::json::parse(read_file(path));
    const nlohmann::json& size = doc.at("results").at(0).at("sizes").at(0);
    const nlohmann::json& ratio = size.at("ratio");
    Timed t{ratio.at("median").get<double>(), ratio.at("p10").get<double>(), ratio.at("p90").get<double>(),
            ratio.at("ci95_low").get<double>(), ratio.at("ci95_high").get<double>(), 0, 0,
            ratio.at("count").get<std::size_t>()};
    for (const auto& c : size.at("candidates"))
        (c.at("role").get<std::string>() == "module" ? t.mine_ms : t.ref_ms) = c.at("ms").at("median").get<double>();
    for (double v : {t.median, t.mine_ms, t.ref_ms})
        if (!std::isfinite(v) || v <= 0) throw std::runtime_error("a time or ratio that is not a positive number");
    return t;
}

}  // namespace grader
