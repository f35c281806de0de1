#include "grader/outputs/divergence_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "grader/outputs/outputs.hpp"

namespace grader {
namespace {

using harness::DivergenceCell;
using harness::KernelDivergence;

std::string pct(double fraction) { return fixed(100 * fraction, 1) + "%"; }

// Colour stops, from no lane active to all: the labs' kernels live mostly
// between 75% and 100%, so the scale spends most of its colours there.
struct Stop {
    double at;
    int r, g, b;
};
constexpr Stop kScale[] = {{0.0, 0xa5, 0x00, 0x26}, {0.5, 0xf4, 0x6d, 0x43}, {0.75, 0xfe, 0xe0, 0x8b},
                           {0.9, 0xa6, 0xd9, 0x6a}, {1.0, 0x1a, 0x98, 0x50}};
const char* const kNotRun = "#d9d9d9";  // a warp none of whose lanes ran in that step
constexpr int kCellW = 14, kCellH = 12;

// The root element. A standalone picture (an <img>, a data URI) needs the
// SVG namespace, which HTML gives inline SVG; the font is set as attributes,
// which report.html's CSS overrides.
std::string svg_open(const std::string& cls, int width, int height, const std::string& label, bool standalone) {
    const std::string w = std::to_string(width), h = std::to_string(height);
    return "<svg class=\"" + cls + "\"" + (standalone ? " xmlns=\"http://www.w3.org/2000/svg\"" : "") + " width=\"" + w +
           "\" height=\"" + h + "\" viewBox=\"0 0 " + w + " " + h +
           "\" font-family=\"system-ui, sans-serif\" font-size=\"10\" role=\"img\" aria-label=\"" + xml_escape(label) +
           "\">\n";
}

int drawn_rows(const KernelDivergence& k) { return static_cast<int>(std::min(k.cells.size(), kMaxSteps)); }
int drawn_cols(const KernelDivergence& k) { return static_cast<int>(std::min<std::size_t>(k.warps_per_block, kMaxWarps)); }

}  // namespace

std::vector<KernelDivergence> by_kernel(const std::vector<KernelDivergence>& launches) {
    std::vector<KernelDivergence> out;
    for (const KernelDivergence& l : launches) {
        auto it = std::find_if(out.begin(), out.end(), [&](const KernelDivergence& k) { return k.kernel == l.kernel; });
        if (it == out.end()) it = out.insert(out.end(), KernelDivergence{l.kernel, 0, 0, {}, {}});
        it->blocks += l.blocks;
        it->warps_per_block = std::max(it->warps_per_block, l.warps_per_block);
        if (it->cells.size() < l.cells.size()) it->cells.resize(l.cells.size());
        for (auto& row : it->cells) row.resize(it->warps_per_block);
        for (std::size_t i = 0; i < l.cells.size(); ++i)
            for (std::size_t w = 0; w < l.cells[i].size(); ++w) it->cells[i][w] += l.cells[i][w];
    }
    return out;
}

std::string divergence_map_svg(const KernelDivergence& k, bool standalone) {
    const int left = 34, top = 30, rows = drawn_rows(k), cols = drawn_cols(k);
    std::string out = svg_open("divmap", left + cols * kCellW + 6, top + rows * kCellH + 6,
                               k.kernel + ": SIMT efficiency " + pct(k.total().active_fraction()), standalone);
    out += "<text class=\"axis\" x=\"" + std::to_string(left) + "\" y=\"10\">warp &#8594;</text>\n";
    out += "<text class=\"axis\" x=\"0\" y=\"10\">step</text>\n";
    for (int w = 0; w < cols; w += cols > 8 ? 4 : 1)
        out += "<text class=\"tick\" x=\"" + std::to_string(left + w * kCellW + kCellW / 2) + "\" y=\"" +
               std::to_string(top - 6) + "\" text-anchor=\"middle\">" + std::to_string(w) + "</text>\n";
    for (int i = 0; i < rows; ++i) {
        const int y = top + i * kCellH;
        out += "<text class=\"tick\" x=\"" + std::to_string(left - 4) + "\" y=\"" + std::to_string(y + kCellH - 2) +
               "\" text-anchor=\"end\">" + std::to_string(i) + "</text>\n";
        for (int w = 0; w < std::min(cols, static_cast<int>(k.cells[i].size())); ++w) {
            const DivergenceCell& c = k.cells[i][w];
            const int x = left + w * kCellW;
            const bool ran = c.warp_visits > 0;
            out += "<rect class=\"cell\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
                   std::to_string(kCellW - 1) + "\" height=\"" + std::to_string(kCellH - 1) + "\" fill=\"" +
                   (ran ? active_colour(c.active_fraction()) : kNotRun) + "\"";
            if (!standalone) {
                const std::string where = "step " + std::to_string(i) + ", warp " + std::to_string(w) + ": ";
                const std::string tip =
                    ran ? where + pct(c.active_fraction()) + " active (" + std::to_string(c.lane_visits) + " / 32 x " +
                              std::to_string(c.warp_visits) + ")" +
                              (c.divergent_blocks ? ", diverged in " + std::to_string(c.divergent_blocks) + " of " +
                                                        std::to_string(k.blocks) + " blocks"
                                                  : "")
                        : where + "no lane ran";
                out += " data-step=\"" + std::to_string(i) + "\" data-warp=\"" + std::to_string(w) +
                       "\" data-fraction=\"" + (ran ? fixed(c.active_fraction(), 4) : "") + "\"><title>" +
                       xml_escape(tip) + "</title></rect>\n";
            } else {
                out += "/>\n";
            }
            if (c.divergent_blocks)
                out += "<circle class=\"diverged\" cx=\"" + std::to_string(x + kCellW / 2) + "\" cy=\"" +
                       std::to_string(y + kCellH / 2) + "\" r=\"1.5\"/>\n";
        }
    }
    return out + "</svg>\n";
}

std::string map_cut_note(const KernelDivergence& k) {
    if (k.cells.size() <= kMaxSteps && k.warps_per_block <= kMaxWarps) return "";
    return "Drawn: the first " + std::to_string(drawn_rows(k)) + " of " + std::to_string(k.cells.size()) + " steps, " +
           std::to_string(drawn_cols(k)) + " of " + std::to_string(k.warps_per_block) + " warps.";
}

std::string efficiency_label(double fraction, const std::string& not_scored) {
    if (!not_scored.empty()) return "SIMT efficiency n/a (" + not_scored + ")";
    return "SIMT efficiency " + fixed(100 * fraction, 1) + "%";
}

std::string legend_svg(bool standalone) {
    std::string out = svg_open("legend", 520, 34, "colour scale of active lanes", standalone);
    for (int k = 0; k <= 10; ++k) {
        const int x = 4 + k * 26;
        out += "<rect x=\"" + std::to_string(x) + "\" y=\"2\" width=\"25\" height=\"14\" fill=\"" +
               active_colour(k / 10.0) + "\"/><text class=\"tick\" x=\"" + std::to_string(x + 12) +
               "\" y=\"28\" text-anchor=\"middle\">" + std::to_string(10 * k) + "%</text>\n";
    }
    out += "<rect x=\"300\" y=\"2\" width=\"25\" height=\"14\" fill=\"" + std::string(kNotRun) +
           "\"/><text class=\"tick\" x=\"330\" y=\"13\">no lane ran</text>\n";
    out += "<rect x=\"400\" y=\"2\" width=\"13\" height=\"11\" fill=\"" + active_colour(1) +
           "\"/><circle class=\"diverged\" cx=\"406.5\" cy=\"7.5\" r=\"1.5\"/><text class=\"tick\" x=\"418\" "
           "y=\"13\">diverged in a block</text>\n";
    return out + "</svg>\n";
}

std::string active_colour(double fraction) {
    const double f = std::clamp(std::isfinite(fraction) ? fraction : 0.0, 0.0, 1.0);
    std::size_t i = 1;
    while (i + 1 < std::size(kScale) && f > kScale[i].at) ++i;
    const Stop& a = kScale[i - 1];
    const Stop& b = kScale[i];
    const double t = (f - a.at) / (b.at - a.at);
    const auto mix = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", mix(a.r, b.r), mix(a.g, b.g), mix(a.b, b.b));
    return buf;
}

std::string svg_data_uri(const std::string& svg) {
    static const char kDigits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out = "data:image/svg+xml;base64,";
    out.reserve(out.size() + (svg.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < svg.size(); i += 3) {
        const std::size_t n = std::min<std::size_t>(3, svg.size() - i);
        unsigned v = 0;
        for (std::size_t k = 0; k < 3; ++k) v = v << 8 | (k < n ? static_cast<unsigned char>(svg[i + k]) : 0u);
        for (std::size_t k = 0; k < 4; ++k) out += k <= n ? kDigits[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

}  // namespace grader
