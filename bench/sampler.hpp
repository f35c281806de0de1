// The measurement loop: every candidate timed once per round, in A B ... B A
// order on odd rounds so slow drift (clocks, temperature) favours none of
// them, until the stopping rule is met.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "stats.hpp"

namespace bench {

// One timed call, in milliseconds; it may throw to abort the measurement.
using Measure = std::function<double()>;

struct Sampling {
    std::vector<std::vector<double>> samples;  // per candidate, in round order
    std::vector<double> ratios;                // per round: candidate ratio.first / ratio.second
    unsigned rounds = 0;
    Stopped stopped = Stopped::MaxRounds;
};

// `ratio` names two candidates whose per-round time ratio is tracked too (and
// must converge with the rest); `seconds` is the clock the time budget reads.
Sampling sample(const std::vector<Measure>& candidates, const StopRule& rule,
                std::optional<std::pair<std::size_t, std::size_t>> ratio, const std::function<double()>& seconds);

}  // namespace bench
