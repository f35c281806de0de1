#include "theory.hpp"

#include <stdexcept>

namespace bench {
namespace {

std::size_t sections(std::size_t n, std::size_t size) { return (n + size - 1) / size; }

// Kogge-Stone on N = 2^k elements: at stride s, N - s threads add.
double kogge_stone(double N, int log2N) { return N * log2N - (N - 1); }
// Brent-Kung: N - 1 in the reduction tree, N - 1 - log2 N in the distribution tree.
double brent_kung(double N, int log2N) { return 2 * N - 2 - log2N; }

// The kit's three-kernel hierarchy: each section's Brent-Kung scan, the same
// hierarchy over the section totals, and one addition per element past the
// first section to add the totals back.
double hierarchy(std::size_t n) {
    const std::size_t s = sections(n, 2048);
    return static_cast<double>(s) * brent_kung(2048, 11) +
           (s > 1 ? hierarchy(s) + static_cast<double>(n - 2048) : 0.0);
}

}  // namespace

Theory additions(const std::string& function, std::size_t n) {
    Theory t;
    if (function == "kogge_stone_scan" || function == "kogge_stone_exclusive_scan") {
        t.section = 1024;
        t.per_section = kogge_stone(1024, 10);
        t.rule = "N log2 N - (N - 1) per section of N = 1024 (every thread at or past the stride adds, at every stride)";
        t.exercise = "exercise 9.3 asks it for N = 2048: 2048 * 11 - 2047 = 20481";
    } else if (function == "brent_kung_scan") {
        t.section = 2048;
        t.per_section = brent_kung(2048, 11);
        t.rule = "2N - 2 - log2 N per section of N = 2048: N - 1 in the reduction tree, N - 1 - log2 N in the distribution tree";
        t.exercise = "exercise 9.2: 2047 + 2036 = 4083 for 2048 elements";
    } else if (function == "brent_kung_exclusive_scan") {
        t.section = 2048;
        t.per_section = 2.0 * (2048 - 1);
        t.rule = "2(N - 1) per section of N = 2048: N - 1 in the up-sweep, N - 1 in the down-sweep (Harris 2007)";
        t.exercise = "compare exercise 9.2's inclusive count, 4083";
    } else if (function == "hierarchical_scan") {
        t.additions = hierarchy(n);
        t.bound = 4.0 * static_cast<double>(n) - 3;
        t.rule = "Brent-Kung on each 2048-element section, the same hierarchy over the section totals, and one "
                 "addition per element after the first section";
        t.exercise = "exercise 9.6: no more than 4N - 3";
        return t;
    } else if (function == "single_pass_scan") {
        // Merrill and Garland's single pass leaves the tile's scan to the
        // implementer: this is the reference's (labs/05's ITEMS_PER_THREAD 32),
        // per warp chunk of 128 elements, 4 a lane: 3 additions in each lane's 4
        // (96), the 5-step shuffle scan over 32 lanes (31 + 30 + 28 + 24 + 16 =
        // 129), 3 a lane placing the chunk (offset, carry, tile offset: 96) and
        // 4 a lane adding it (128); one a thread for its tile and warp offsets.
        t.additions = (449.0 / 128 + 1.0 / 32) * static_cast<double>(n);
        t.rule = "3.54 per element in the reference's tile scan: per warp chunk of 128 elements, 3 additions in each "
                 "lane's 4, 129 in the shuffle scan over 32 lanes, 96 placing the chunk and 128 adding it, one a "
                 "thread for its offsets (the look-back's additions, a warp's per 32 predecessors, are few)";
        t.exercise = "compare exercise 9.6's 4N - 3 for the three-kernel hierarchy";
        return t;
    } else {
        throw std::invalid_argument("no addition count for function " + function);
    }
    t.additions = t.per_section * static_cast<double>(sections(n, t.section));
    return t;
}

}  // namespace bench
