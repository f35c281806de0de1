// The watchdog: a block whose threads run on without one of them finishing
// is sampled to say where it loops, then its launch stops with a finding.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "internal.hpp"
#include "scheduler.hpp"

namespace simt {

// ---- the watchdog -----------------------------------------------------------
//
// A block whose threads run spin_budget() basic blocks (the trace-pc hook
// counts them) without one of them finishing loops without end, as far as
// the emulator can tell: a barrier inside the loop does not make it end.
// Then the block runs kSampleSlice more basic blocks per thread, each thread
// at most kSampleSlice at a time, so the report can say where each one is and
// which lines the loop spans, and the launch stops with a finding (a thread
// that finishes meanwhile starts the count again).

namespace {

constexpr unsigned kSampleSlice = 1024;
constexpr std::size_t kSampledBlocks = 64;  // distinct basic blocks kept per thread
// The default: labs/common/catalog.cpp says why (SIMT_SPIN_BUDGET overrides it).
constexpr unsigned long long kDefaultSpinBudget = 100'000'000;

}  // namespace

unsigned long long& spin_budget_setting() {
    static unsigned long long budget = [] {
        const char* spec = std::getenv("SIMT_SPIN_BUDGET");
        if (spec == nullptr || *spec == '\0') return kDefaultSpinBudget;
        if (std::string(spec).find_first_not_of("0123456789") != std::string::npos) {
            std::fprintf(stderr, "simt: SIMT_SPIN_BUDGET must be a number of basic blocks (digits; 0: no limit)\n");
            std::exit(2);
        }
        return std::strtoull(spec, nullptr, 10);
    }();
    return budget;
}

namespace {

std::uint64_t fresh_budget() {
    const unsigned long long b = spin_budget_setting();
    return b == 0 ? kNever : b;
}

// Where a sampled thread is: its newest basic block in `file` (the launch's),
// else its newest of all.
std::string where_now(const Sampled& lane, const std::string& file) {
    std::string newest;
    for (unsigned k = 0; k < 8 && k < lane.recent_at; ++k) {
        const std::string at = detail::source_line(lane.recent[(lane.recent_at - 1 - k) % 8]);
        if (newest.empty()) newest = at;
        if (at.rfind(file + ":", 0) == 0) return at;
    }
    return newest.empty() ? "?" : newest;
}

}  // namespace

// A thread of the running block finished (or the block starts): the count starts again.
void restart_watch(BlockRun& b) {
    b.sampling = false;
    b.barriers = 0;
    detail::g_steps_left = fresh_budget();
}

// "possible endless loop" for a block that spent the watchdog's budget and
// then its sampling: the threads that have not finished, the lines the loop
// spans and where each thread is.
std::string runaway_message(const BlockRun& b, const detail::LaunchState& launch, detail::ReportDetail& named) {
    // The loop: the basic blocks a thread ran more than once while sampled
    // (all it ran if none), by line, in the launch's file where it has any.
    std::map<std::string, std::set<int>> lines;  // file -> lines
    for (int repeated = 1; repeated >= 0 && lines.empty(); --repeated)
        for (const auto& lane : b.sampled)
            for (const auto& [pc, count] : lane.visits) {
                if (repeated && count < 2) continue;
                const std::string at = detail::source_line(pc);
                const auto colon = at.rfind(':');
                if (colon == std::string::npos) continue;
                lines[at.substr(0, colon)].insert(std::atoi(at.c_str() + colon + 1));
            }
    std::string file = detail::where(launch.site.file, 0);
    file.resize(file.rfind(':'));
    auto chosen = lines.find(file);
    if (chosen == lines.end())
        chosen = std::max_element(lines.begin(), lines.end(),
                                  [](const auto& x, const auto& y) { return x.second.size() < y.second.size(); });
    std::string loop = "?";
    if (chosen != lines.end()) {
        const int first = *chosen->second.begin(), last = *chosen->second.rbegin();
        loop = chosen->first + ":" + std::to_string(first) + (last > first ? "-" + std::to_string(last) : "");
        named.line(chosen->first + ":" + std::to_string(first));
    }
    // Where the threads that have not finished are: (verb, place) -> threads.
    std::vector<unsigned> unfinished;
    std::map<std::pair<int, std::string>, std::vector<unsigned>> at;
    std::map<std::pair<int, std::string>, std::string> place_line;  // place -> its source line
    for (unsigned t = 0; t < b.lanes.size(); ++t) {
        const Lane& lane = b.lanes[t];
        if (lane.status == Status::Exited) continue;
        unfinished.push_back(t);
        std::pair<int, std::string> place;
        std::string line;
        if (lane.status == Status::Running) {
            line = t < b.sampled.size() ? where_now(b.sampled[t], file) : std::string("?");
            place = {0, line};
        } else if (lane.status == Status::AtBarrier || lane.status == Status::AtWarpSync ||
                   lane.status == Status::AtActiveMask) {
            line = detail::where(lane.barrier_file, lane.barrier_line);
            place = {1, (lane.status == Status::AtBarrier ? "the __syncthreads() at " : "a warp function at ") + line};
        } else {
            line = detail::source_line(lane.poll_pc);
            place = {2, line};
        }
        at[place].push_back(t);
        place_line[place] = line;
    }
    if (b.barriers_in_budget != 0) named.line(detail::where(b.barrier_file, b.barrier_line));
    std::string now;
    for (const auto& [place, threads] : at) {
        named.line(place_line[place]);
        static const char* const verbs[2][3] = {{"runs at ", "waits at ", "polls a word at "},
                                               {"run at ", "wait at ", "poll a word at "}};
        now += (now.empty() ? "" : "; ") + thread_list(threads) + " " + verbs[threads.size() > 1][place.first] +
               place.second;
    }
    std::string message = detail::block_name(b.idx) + ": " + thread_list(unfinished) +
                          (unfinished.size() > 1 ? " have run " : " has run ") +
                          std::to_string(spin_budget_setting()) + " basic blocks in the loop at " + loop;
    if (b.barriers_in_budget == 0)
        message += " without reaching a barrier or finishing";
    else
        message += " without one finishing, through " + std::to_string(b.barriers_in_budget) + " barriers (the last at " +
                   detail::where(b.barrier_file, b.barrier_line) + ")";
    return message + "; now " + now +
           ": does the loop's condition ever turn false (a typo such as `stride * 2` for `stride *= 2`, or `stride >= 0` with a stride that halves to 0)? "
           "SIMT_SPIN_BUDGET sets the budget";
}

namespace detail {

void steps_spent(const void* pc) {
    if (g_lane == nullptr || g_block == nullptr) {  // host code of the kernel's file
        g_steps_left = kNever;
        return;
    }
    BlockRun& b = *g_block;
    if (!b.sampling) {  // the budget is spent: from now on every basic block comes here
        b.sampling = true;
        b.barriers_in_budget = b.barriers;
        b.sample_left = std::uint64_t{kSampleSlice} * b.lanes.size();
        b.sampled.assign(b.lanes.size(), Sampled{});
        for (auto& lane : b.lanes) lane.slice = 0;
    }
    g_steps_left = 1;
    Lane& lane = *g_lane;
    Sampled& seen_by = b.sampled[static_cast<std::size_t>(g_lane - b.lanes.data())];
    seen_by.recent[seen_by.recent_at++ % 8] = pc;
    auto& visits = seen_by.visits;
    const auto seen = std::find_if(visits.begin(), visits.end(), [pc](const auto& v) { return v.first == pc; });
    if (seen != visits.end()) ++seen->second;
    else if (visits.size() < kSampledBlocks) visits.emplace_back(pc, 1);
    if (b.sample_left > 0) --b.sample_left;
    if (++lane.slice >= kSampleSlice) {  // put aside, still Running: the block's next pass resumes it
        g_preempted = true;
        suspend();
    }
}

}  // namespace detail

}  // namespace simt
