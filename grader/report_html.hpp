// report.html: one graded submission as a single self-contained page for a
// student (inline CSS and SVG, no script, nothing fetched): the header and
// score table, each test's feedback (failed first), the emulator's
// warp-by-step divergence maps beside the reference's, the GPU timing against
// the reference and CUB, and each lab's scan.cu with the lines its findings
// name. Everything from the submission is escaped; a hidden dataset's output
// is withheld, as in summary.md.
#pragma once

#include <string>

#include "divergence_svg.hpp"  // active_colour, the maps' colour scale
#include "report.hpp"

namespace grader {

std::string report_html(const Report& report);

}  // namespace grader
