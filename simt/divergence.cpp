// SIMT divergence from basic-block traces. The kernel file is compiled with
// -fsanitize-coverage=trace-pc, so GCC calls __sanitizer_cov_trace_pc() at
// the start of every basic block; while tracing is on, the emulator appends
// the block's address to the running lane's trace. When a barrier interval
// ends, each warp's 32 traces are compared and folded into the launch's
// cells[interval][warp].
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "internal.hpp"
#include "simt/runtime.hpp"

namespace simt {
namespace detail {

std::vector<LaneTrace> g_traces;  // per lane of the running block

namespace {

LaunchDivergence g_launch;
std::vector<LaunchDivergence> g_done;

void fold_warp(unsigned warp, unsigned interval, unsigned threads) {
    const unsigned first = warp * 32, last = std::min(threads, first + 32);
    std::vector<const std::vector<std::uintptr_t>*> live;
    for (unsigned t = first; t < last; ++t)
        if (!g_traces[t].pcs.empty()) live.push_back(&g_traces[t].pcs);
    if (live.empty()) return;

    if (g_launch.cells.size() <= interval) g_launch.cells.resize(interval + 1, std::vector<DivergenceCell>(g_launch.warps_per_block));
    DivergenceCell& cell = g_launch.cells[interval][warp];
    const bool uniform = std::all_of(live.begin(), live.end(), [&](const auto* trace) { return *trace == *live[0]; });
    if (uniform) {  // the common case: every live lane ran the same blocks
        cell.warp_visits += live[0]->size();
        cell.lane_visits += live[0]->size() * live.size();
        g_launch.active_lanes[live.size()] += live[0]->size();
        return;
    }
    ++cell.divergent_blocks;
    if (g_launch.divergent_pcs.size() <= interval) g_launch.divergent_pcs.resize(interval + 1);
    // Per block address: how often each lane ran it. The warp runs it as often
    // as its busiest lane; its k-th run has the lanes that ran it k times active.
    std::map<std::uintptr_t, std::vector<unsigned>> counts;  // pc -> visits per live lane
    for (std::size_t l = 0; l < live.size(); ++l)
        for (std::uintptr_t pc : *live[l]) {
            auto& c = counts[pc];
            c.resize(live.size());
            ++c[l];
        }
    for (const auto& entry : counts) {
        const unsigned most = *std::max_element(entry.second.begin(), entry.second.end());
        if (*std::min_element(entry.second.begin(), entry.second.end()) != most)
            g_launch.divergent_pcs[interval].insert(entry.first);
        cell.warp_visits += most;
        for (unsigned k = 1; k <= most; ++k) {
            const auto active = static_cast<std::size_t>(
                std::count_if(entry.second.begin(), entry.second.end(), [k](unsigned v) { return v >= k; }));
            g_launch.active_lanes[active] += 1;
            cell.lane_visits += active;
        }
    }
}

// The distance between the two nearest distinct elements of one shared
// array a lane read (0: it read fewer than two).
std::size_t nearest_reads(std::vector<std::pair<const void*, std::size_t>>& reads) {
    std::sort(reads.begin(), reads.end());
    std::size_t best = 0;
    for (std::size_t i = 1; i < reads.size(); ++i)
        if (reads[i].first == reads[i - 1].first && reads[i].second != reads[i - 1].second) {
            const std::size_t gap = reads[i].second - reads[i - 1].second;
            if (best == 0 || gap < best) best = gap;
        }
    return best;
}

}  // namespace

void divergence_begin_launch(unsigned threads_per_block) {
    if (!g_tracing) return;
    g_launch = LaunchDivergence{};
    g_launch.kernel = current_launch()->site.kernel;
    g_launch.warps_per_block = (threads_per_block + 31) / 32;
    g_traces.assign(threads_per_block, {});
}

void divergence_shared_read(const void* array, std::size_t index) {
    if (!g_tracing) return;  // (called from a kernel's shared access only)
    auto& reads = g_traces[current_thread()].reads;
    if (reads.size() < 16) reads.emplace_back(array, index);  // a step's reads come first; a loop's need not all count
}

void divergence_end_interval(unsigned interval_in_block) {
    if (!g_tracing) return;
    const auto threads = static_cast<unsigned>(g_traces.size());
    for (unsigned w = 0; w * 32 < threads; ++w) fold_warp(w, interval_in_block, threads);
    for (auto& trace : g_traces) {
        if (const std::size_t s = nearest_reads(trace.reads)) {
            if (g_launch.strides.size() <= interval_in_block) g_launch.strides.resize(interval_in_block + 1);
            ++g_launch.strides[interval_in_block][s];
        }
        trace.pcs.clear();
        trace.reads.clear();
    }
}

void divergence_save(std::vector<LaneTrace>& into) {
    if (!g_tracing) return;
    into.swap(g_traces);
    g_traces.assign(into.size(), {});
}

void divergence_restore(std::vector<LaneTrace>& from) {
    if (!g_tracing) return;
    g_traces.swap(from);
    from.clear();
}

void divergence_end_launch() {
    if (!g_tracing) return;
    const LaunchState& launch = *current_launch();
    g_launch.blocks = static_cast<unsigned>(launch.block_serial);
    g_done.push_back(std::move(g_launch));
}

}  // namespace detail

double LaunchDivergence::efficiency() const {
    unsigned long long lanes = 0, warps = 0;
    for (const auto& row : cells)
        for (const auto& c : row) {
            lanes += c.lane_visits;
            warps += c.warp_visits;
        }
    return warps ? static_cast<double>(lanes) / (32.0 * static_cast<double>(warps)) : 1.0;
}

void set_divergence_tracing(bool on) { detail::g_tracing = on; }

std::vector<LaunchDivergence> take_divergence() {
    std::vector<LaunchDivergence> out;
    out.swap(detail::g_done);
    return out;
}

namespace {

// "0-15, 17, 20-31"
std::string ranges(const std::vector<unsigned>& sorted) {
    std::string out;
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j + 1 < sorted.size() && sorted[j + 1] == sorted[j] + 1) ++j;
        out += (out.empty() ? "" : ", ") + std::to_string(sorted[i]) + (j > i ? "-" + std::to_string(sorted[j]) : "");
        i = j + 1;
    }
    return out;
}

// The stride most lanes had (the smaller of a tie); 0 for none.
std::size_t most_common(const std::map<std::size_t, unsigned long long>& strides) {
    std::size_t best = 0;
    unsigned long long lanes = 0;
    for (const auto& [s, count] : strides)
        if (count > lanes) {
            best = s;
            lanes = count;
        }
    return best;
}

// The source lines of basic blocks, in line order: "scan.cu:21, scan.cu:22".
std::string lines_of(const std::set<std::uintptr_t>& pcs) {
    std::map<std::pair<std::string, long>, bool> lines;  // (file, line): in order of file, then line number
    for (std::uintptr_t pc : pcs) {
        const std::string at = detail::source_line(reinterpret_cast<const void*>(pc));
        const auto colon = at.rfind(':');
        const std::string file = at.substr(0, colon);
        // Only the student's .cu: a branch the rewriter added (scan.emu.cpp) is nothing they can change.
        if (file.size() < 3 || file.compare(file.size() - 3, 3, ".cu") != 0) continue;
        lines[{file, colon == std::string::npos ? 0 : std::atol(at.c_str() + colon + 1)}] = true;
    }
    std::string out;
    for (const auto& [at, _] : lines)
        out += (out.empty() ? "" : ", ") + at.first + (at.second ? ":" + std::to_string(at.second) : "");
    return out;
}

}  // namespace

DivergenceReport report_parts(const LaunchDivergence& d) {
    char head[160];
    std::snprintf(head, sizeof head, "%s: %u block(s) of %u warp(s), SIMT efficiency %.1f%%\n", d.kernel.c_str(),
                  d.blocks, d.warps_per_block, 100.0 * d.efficiency());
    DivergenceReport out{head, {}, ""};
    // One line per barrier interval in which a warp diverged (1946 lines of
    // single (warp, interval) pairs told a student nothing).
    for (std::size_t i = 0; i < d.cells.size(); ++i) {
        std::map<unsigned, std::vector<unsigned>> warps;  // blocks diverged in -> warps
        for (unsigned w = 0; w < d.cells[i].size(); ++w)
            if (d.cells[i][w].divergent_blocks) warps[d.cells[i][w].divergent_blocks].push_back(w);
        if (warps.empty()) continue;
        std::string which;
        for (const auto& [blocks, ws] : warps)
            which += std::string(which.empty() ? "" : "; ") + (ws.size() == 1 ? "warp " : "warps ") + ranges(ws) +
                     " in " + std::to_string(blocks) + " of " + std::to_string(d.blocks) + " block(s)";
        const std::string at = i < d.divergent_pcs.size() ? lines_of(d.divergent_pcs[i]) : "";
        const std::size_t s = i < d.strides.size() ? most_common(d.strides[i]) : 0;
        out.intervals.push_back({i, "  interval " + std::to_string(i) + (i == 0 ? " (before the first __syncthreads())" : "") +
                                        (s ? ", stride " + std::to_string(s) : "") + ": " + which +
                                        (at.empty() ? "" : "; the lanes split at " + at) + "\n"});
    }
    out.head += out.intervals.empty()
                    ? "  no warp diverged\n"
                    : "  diverged (interval k runs from the k-th __syncthreads() to the next; stride: the distance "
                      "between the nearest two shared elements a thread read in it):\n";
    out.lanes = "  active lanes (how many of a warp's 32 lanes ran a basic block: times it happened; below 32, lanes idle):";
    for (unsigned k = 32; k > 0; --k)
        if (d.active_lanes[k]) out.lanes += " " + std::to_string(k) + ":" + std::to_string(d.active_lanes[k]);
    out.lanes += "\n";
    return out;
}

std::string format(const LaunchDivergence& d) {
    const DivergenceReport parts = report_parts(d);
    std::string out = parts.head;
    for (const auto& [i, line] : parts.intervals) out += line;
    return out + parts.lanes;
}

}  // namespace simt

namespace simt::detail {
// basic_block's rest: the count spent (it was decremented there), or tracing.
void basic_block_noted(const void* pc) {
    if (g_steps_left == 0) steps_spent(pc);
    if (g_tracing && in_kernel()) g_traces[current_thread()].pcs.push_back(reinterpret_cast<std::uintptr_t>(pc));
}
}  // namespace simt::detail

extern "C" void __sanitizer_cov_trace_pc() { simt::detail::basic_block(__builtin_return_address(0)); }
