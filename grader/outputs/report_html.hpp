// report.html: one graded submission as a single self-contained page for a
// student (inline CSS and SVG, no script, nothing fetched): the header, what
// to fix first in each lab (LabResult::fix_first, the lab suites' list), the
// score table; then per lab its scan.cu with the lines its findings name
// (each bug once, distinct_findings.hpp, with the sizes it showed at), each
// test's feedback folded (failed first; a hint the page shows already left
// out), the emulator's warp-by-step divergence maps beside the reference's,
// and the GPU timing against the reference and CUB. Everything from the
// submission is escaped; a hidden dataset's output is withheld, as in summary.md.
#pragma once

#include <string>

#include "grader/core/report.hpp"
#include "grader/outputs/divergence_svg.hpp"  // active_colour, the maps' colour scale

namespace grader {

std::string report_html(const Report& report);

}  // namespace grader
