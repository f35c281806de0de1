#include "stats.hpp"

#include <algorithm>
#include <cmath>

#include "score.hpp"

namespace bench {

double Summary::rel_halfwidth() const { return median > 0 ? (ci_high - ci_low) / 2 / median : 0; }

double percentile(const std::vector<double>& sorted, double q) {
    if (sorted.empty()) return 0;
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(at));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

Summary summarize(std::vector<double> samples) {
    Summary s;
    s.count = samples.size();
    if (samples.empty()) return s;
    std::sort(samples.begin(), samples.end());
    s.median = percentile(samples, 0.5);
    s.p10 = percentile(samples, 0.1);
    s.p90 = percentile(samples, 0.9);
    s.min = samples.front();
    s.max = samples.back();
    // Ranks n/2 -+ 1.96 sqrt(n)/2 (1-based) bound the median with 95%
    // confidence, whatever the distribution (normal approximation to the binomial).
    const double n = static_cast<double>(samples.size());
    const double half = 1.96 * std::sqrt(n) / 2;
    const auto rank = [&](double r) {
        return static_cast<std::size_t>(std::clamp(r, 1.0, n)) - 1;
    };
    s.ci_low = samples[rank(std::floor(n / 2 - half))];
    s.ci_high = samples[rank(std::ceil(n / 2 + half + 1))];
    return s;
}

std::string describe(Stopped why) {
    switch (why) {
        case Stopped::Converged: return "converged";
        case Stopped::MaxRounds: return "round limit";
        case Stopped::TimeBudget: return "time budget";
        case Stopped::Decided: return "score decided";
    }
    return "";
}

std::optional<Stopped> should_stop(const StopRule& rule, unsigned rounds, double seconds,
                                   const std::vector<Summary>* tracked, const Summary* ratio) {
    if (rounds >= rule.max_rounds) return Stopped::MaxRounds;
    if (tracked && rounds >= rule.min_rounds &&
        std::all_of(tracked->begin(), tracked->end(), [&](const Summary& s) { return s.rel_halfwidth() <= rule.rel_ci; }))
        return Stopped::Converged;
    if (tracked && ratio && rule.decide && rounds >= rule.min_rounds) {
        const ScoreSteps& d = *rule.decide;
        if (score::timing_part(ratio->ci_low, d.full_within, d.zero_at, d.step) ==
            score::timing_part(ratio->ci_high, d.full_within, d.zero_at, d.step))
            return Stopped::Decided;
    }
    if (seconds >= rule.max_seconds && rounds >= 3) return Stopped::TimeBudget;
    return std::nullopt;
}

}  // namespace bench
