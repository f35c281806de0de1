#include "sampler.hpp"

namespace bench {

Sampling sample(const std::vector<Measure>& candidates, const StopRule& rule,
                std::optional<std::pair<std::size_t, std::size_t>> ratio, const std::function<double()>& seconds) {
    Sampling s;
    s.samples.resize(candidates.size());
    const double start = seconds();
    for (;;) {
        const bool reverse = s.rounds % 2 == 1;
        for (std::size_t k = 0; k < candidates.size(); ++k) {
            const std::size_t c = reverse ? candidates.size() - 1 - k : k;
            s.samples[c].push_back(candidates[c]());
        }
        if (ratio) s.ratios.push_back(s.samples[ratio->first].back() / s.samples[ratio->second].back());
        ++s.rounds;
        // Summaries sort every series: they are looked at every fifth round from the minimum on.
        std::vector<Summary> tracked;
        const bool look = s.rounds >= rule.min_rounds && (s.rounds - rule.min_rounds) % 5 == 0;
        if (look) {
            for (const auto& series : s.samples) tracked.push_back(summarize(series));
            if (ratio) tracked.push_back(summarize(s.ratios));
        }
        const Summary* ratio_summary = look && ratio ? &tracked.back() : nullptr;
        if (const auto why = should_stop(rule, s.rounds, seconds() - start, look ? &tracked : nullptr, ratio_summary)) {
            s.stopped = *why;
            return s;
        }
    }
}

}  // namespace bench
