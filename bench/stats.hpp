// Summaries of timing samples, and the rule that says when there are enough.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace bench {

struct Summary {
    std::size_t count = 0;
    double median = 0, p10 = 0, p90 = 0, min = 0, max = 0;
    // A distribution-free 95% confidence interval of the median (order
    // statistics), so no assumption about the shape of timing noise.
    double ci_low = 0, ci_high = 0;
    // Half the interval's width over the median: 0.005 means +-0.5%.
    double rel_halfwidth() const;
};

// Linear interpolation between order statistics; `sorted` ascending, q in [0, 1].
double percentile(const std::vector<double>& sorted, double q);
Summary summarize(std::vector<double> samples);

// The grader's timing score of a ratio (labs/common/score.hpp's timing_part):
// full points up to full_within, none from zero_at, the ratio rounded to step.
struct ScoreSteps {
    double full_within = 0, zero_at = 0, step = 0;
};

// Sampling stops when every tracked median is known to within rel_ci (never
// before min_rounds), at max_rounds, or once max_seconds are spent (after 3
// rounds at least, so a very slow kernel still gets a median). With `decide`
// (grading), it also stops from min_rounds on once both ends of the ratio's
// 95% interval get the same score: more rounds could not change the points.
struct StopRule {
    unsigned min_rounds = 20;
    unsigned max_rounds = 400;
    double rel_ci = 0.005;
    double max_seconds = 10;
    std::optional<ScoreSteps> decide;
};

enum class Stopped { Converged, MaxRounds, TimeBudget, Decided };
std::string describe(Stopped why);

// `tracked`: the summaries to judge convergence by, or nullptr when they were
// not computed this round; `ratio`: the ratio's among them, if one is timed.
std::optional<Stopped> should_stop(const StopRule& rule, unsigned rounds, double seconds,
                                   const std::vector<Summary>* tracked, const Summary* ratio = nullptr);

}  // namespace bench
