#include "report.hpp"

#include <cstdio>

namespace bench {
namespace {

std::string format(const char* fmt, double a, double b = 0, double c = 0) {
    char buf[128];
    std::snprintf(buf, sizeof buf, fmt, a, b, c);
    return buf;
}

nlohmann::json summary_json(const Summary& s) {
    return {{"median", s.median}, {"p10", s.p10}, {"p90", s.p90}, {"min", s.min}, {"max", s.max},
            {"ci95_low", s.ci_low}, {"ci95_high", s.ci_high}, {"count", s.count}};
}

}  // namespace

const Candidate* SizeResult::find(const std::string& role) const {
    for (const auto& c : candidates)
        if (c.role == role) return &c;
    return nullptr;
}

double gbytes_per_s(std::size_t n, double ms) { return ms > 0 ? 8.0 * static_cast<double>(n) / (ms * 1e6) : 0; }

std::string table(const BenchResult& r) {
    std::string out = "scan-bench: " + r.device + ", L2 " + std::to_string(r.l2_bytes >> 20) + " MiB; lab " + r.lab +
                      ", " + r.function + "\n  module:  " + r.module + "\n";
    if (!r.against.empty()) out += "  against: " + r.against + "\n";
    out += "  bandwidth counts n reads + n writes of 4 bytes; % of copy and % of CUB compare times (higher is faster)\n";
    char line[256];
    std::snprintf(line, sizeof line, "%11s  %-40s %10s %19s %9s %7s %7s\n", "n", "candidate", "median ms", "p10-p90 ms",
                  "GB/s", "% copy", "% CUB");
    out += line;
    for (const auto& size : r.sizes) {
        const Candidate* copy = size.find("copy");
        const Candidate* cub = size.find("cub");
        bool first = true;
        for (const auto& c : size.candidates) {
            const std::string pct_copy = copy ? format("%.1f", 100 * copy->ms.median / c.ms.median) : "-";
            const std::string pct_cub = cub ? format("%.1f", 100 * cub->ms.median / c.ms.median) : "-";
            std::snprintf(line, sizeof line, "%11s  %-40s %10.4f %19s %9.1f %7s %7s\n",
                          first ? std::to_string(size.n).c_str() : "", c.name.c_str(), c.ms.median,
                          format("%.4f-%.4f", c.ms.p10, c.ms.p90).c_str(), gbytes_per_s(size.n, c.ms.median),
                          pct_copy.c_str(), pct_cub.c_str());
            out += line;
            first = false;
        }
        if (size.ratio)
            out += "             module / against: " +
                   format("%.3fx (p10-p90 %.3f-%.3f", size.ratio->median, size.ratio->p10, size.ratio->p90) +
                   format(", 95%% CI of the median %.3f-%.3f)", size.ratio->ci_low, size.ratio->ci_high) + "\n";
        if (size.rounds) out += "             " + std::to_string(size.rounds) + " rounds, stopped: " + describe(size.stopped) + "\n";
        if (size.checked_calls)
            out += "             " + std::to_string(size.checked_calls) + " calls of the module, each on a fresh input, every output checked\n";
        if (size.alone) {
            char line[160];
            std::snprintf(line, sizeof line, "             recorded alone first: the copy %.4f ms, the build timed against %.4f ms\n",
                          size.alone->copy_ms, size.alone->against_ms);
            out += line;
        }
        if (!size.problem.empty()) out += "             NOT SCORED: " + size.problem + "\n";
    }
    return out;
}

nlohmann::json to_json(const BenchResult& r) {
    nlohmann::json sizes = nlohmann::json::array();
    for (const auto& size : r.sizes) {
        nlohmann::json cands = nlohmann::json::array();
        const Candidate* copy = size.find("copy");
        const Candidate* cub = size.find("cub");
        for (const auto& c : size.candidates) {
            nlohmann::json j = {{"name", c.name}, {"role", c.role}, {"ms", summary_json(c.ms)},
                                {"gbytes_per_s", gbytes_per_s(size.n, c.ms.median)}};
            if (copy) j["percent_of_copy"] = 100 * copy->ms.median / c.ms.median;
            if (cub) j["percent_of_cub"] = 100 * cub->ms.median / c.ms.median;
            cands.push_back(j);
        }
        nlohmann::json s = {{"n", size.n}, {"candidates", cands}, {"rounds", size.rounds},
                            {"stopped", describe(size.stopped)}};
        if (size.ratio) s["ratio"] = summary_json(*size.ratio);
        if (size.checked_calls) s["checked_calls"] = size.checked_calls;
        if (!size.problem.empty()) s["problem"] = size.problem;
        if (size.alone) s["alone"] = {{"copy_ms", size.alone->copy_ms}, {"against_ms", size.alone->against_ms}};
        sizes.push_back(s);
    }
    return {{"device", r.device},
            {"l2_bytes", r.l2_bytes},
            {"lab", r.lab},
            {"function", r.function},
            {"module", r.module},
            {"against", r.against},
            {"stop_rule",
             {{"min_rounds", r.rule.min_rounds}, {"max_rounds", r.rule.max_rounds}, {"rel_ci", r.rule.rel_ci},
              {"max_seconds", r.rule.max_seconds}}},
            {"sizes", sizes}};
}

nlohmann::json document(const std::string& device, const nlohmann::json& results, const nlohmann::json& counters) {
    return {{"device", device}, {"results", results}, {"counters", counters}};
}

}  // namespace bench
