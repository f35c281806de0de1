// The emulator's warp-by-step divergence map as an SVG picture: one drawing
// for report.html (inline, with a tooltip per cell) and for the results files
// that carry pictures (PrairieLearn's images, as a data URI), so both show
// the same map.
#pragma once

#include <string>
#include <vector>

#include "observation.hpp"

namespace grader {

// A lab function may launch one kernel several times (lab 04's levels): its
// launches summed cell by cell, one map per kernel, in order of first launch.
std::vector<harness::KernelDivergence> by_kernel(const std::vector<harness::KernelDivergence>& launches);

// One kernel's map: rows the barrier intervals (steps), columns the warps of
// a block, each cell coloured by its active-lane fraction, a dot where a warp
// diverged. A kernel with a barrier in a long loop has thousands of steps:
// past kMaxSteps and kMaxWarps it is cut (map_cut_note says so).
constexpr std::size_t kMaxSteps = 128, kMaxWarps = 32;
// standalone false: for inline SVG in report.html, each cell's counts as a
// <title> tooltip and data- attributes. standalone true: an SVG document of
// its own (an <img>, a data URI: the namespace declared), without what an
// <img> does not show, about a sixth of the bytes.
std::string divergence_map_svg(const harness::KernelDivergence& kernel, bool standalone);
// "" when the whole map was drawn, else "Drawn: the first 128 of 1000 steps, 32 of 32 warps."
std::string map_cut_note(const harness::KernelDivergence& kernel);

// "SIMT efficiency 87.5%", or "SIMT efficiency n/a (NOT_SCORED)" where the
// grader did not score the run (a kernel that computed nothing has 100%).
std::string efficiency_label(double fraction, const std::string& not_scored);

// The colour scale in 10% swatches, the not-run grey and the divergence dot.
std::string legend_svg(bool standalone);

// The colour scale: a warp's active-lane fraction (0 to 1, clamped) as
// "#rrggbb", from dark red at 0 through orange (50%), yellow (75%) and light
// green (90%) to green at 1.
std::string active_colour(double fraction);

// "data:image/svg+xml;base64,..." of an SVG document.
std::string svg_data_uri(const std::string& svg);

}  // namespace grader
