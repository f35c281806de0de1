// The scheduler: a started block's GPU threads (fibers: fiber.hpp) run in
// thread order, each handing on to the next, until each reaches a
// __syncthreads() or exits, then the barrier is checked and released. No
// order depends on timing: reports repeat.
#include <sys/mman.h>

#include <algorithm>
#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "internal.hpp"
#include "scheduler.hpp"

namespace simt {

// "threads 0-31, 64" style list of thread indices.
std::string thread_list(const std::vector<unsigned>& ids) {
    std::string out;
    for (std::size_t i = 0; i < ids.size();) {
        std::size_t j = i;
        while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
        if (!out.empty()) out += ", ";
        out += std::to_string(ids[i]);
        if (j > i) out += "-" + std::to_string(ids[j]);
        i = j + 1;
    }
    return (ids.size() == 1 ? "thread " : "threads ") + out;
}

namespace {

// Stacks no block holds: (mapping, threads).
std::vector<std::pair<unsigned char*, std::size_t>>& free_stacks() {
    static thread_local std::vector<std::pair<unsigned char*, std::size_t>> pool;
    return pool;
}

// Checks a barrier every live thread has arrived at (or exited before) and
// releases it. Returns false when every thread has exited.
bool release_barrier(std::vector<Lane>& lanes, detail::LaunchState& launch) {
    const uint3& block = launch.block_idx;
    // The usual case, checked and released in one pass over the lanes,
    // without allocating: every thread waits at one call site (compared by
    // line, then file name). A lane that does not puts the ones released
    // before it back.
    const Lane& first = lanes.front();
    const int line = first.barrier_line;
    const char* const file = first.barrier_file;
    std::size_t released = 0;
    if (first.status == Status::AtBarrier)
        for (Lane& l : lanes) {
            if (l.status != Status::AtBarrier || l.barrier_line != line ||
                (l.barrier_file != file && std::strcmp(l.barrier_file, file) != 0))
                break;
            l.status = Status::Running;
            ++released;
        }
    if (released == lanes.size()) {
        launch.interval = ++launch.interval_high;
        return true;
    }
    for (std::size_t t = 0; t < released; ++t) lanes[t].status = Status::AtBarrier;
    std::vector<unsigned> exited;
    std::map<std::pair<std::string, int>, std::vector<unsigned>> sites;  // (file, line) -> waiting threads
    for (unsigned t = 0; t < lanes.size(); ++t) {
        if (lanes[t].status == Status::Exited) exited.push_back(t);
        else sites[{lanes[t].barrier_file ? lanes[t].barrier_file : "?", lanes[t].barrier_line}].push_back(t);
    }
    if (sites.empty()) return false;

    const auto& [first_site, first_waiting] = *sites.begin();
    if (!exited.empty())
        launch.reports.add("barrier divergence", Kind::barrier, launch.block_serial,
                    detail::block_name(block) + ": " + thread_list(exited) + " exited while " + thread_list(first_waiting) +
                        " waited at __syncthreads() at " + detail::where(first_site.first.c_str(), first_site.second) +
                        " (a barrier every thread of the block must reach: is it inside a loop or branch whose "
                        "trip count depends on threadIdx?)",
                    detail::ReportDetail{block}.line(detail::where(first_site.first.c_str(), first_site.second)));
    if (sites.size() > 1) {
        std::string detail;
        detail::ReportDetail named{block};
        for (const auto& [site, waiting] : sites) {
            detail += (detail.empty() ? "" : "; ") + thread_list(waiting) + " at " +
                      detail::where(site.first.c_str(), site.second);
            named.line(detail::where(site.first.c_str(), site.second));
        }
        launch.reports.add("barrier divergence", Kind::barrier, launch.block_serial,
                           detail::block_name(block) + ": threads wait at different __syncthreads() call sites: " + detail,
                           std::move(named));
    }
    for (auto& lane : lanes)
        if (lane.status == Status::AtBarrier) lane.status = Status::Running;
    launch.interval = ++launch.interval_high;
    return true;
}

// Completes the warp functions whose lanes have all arrived: the lanes that
// wait with one mask (one call, as CUDA requires of the lanes it names) are
// released when every lane of the mask waits with it; a lane of the mask
// that may still come (running, spinning, at an __activemask(), or waiting
// with another mask, which it may leave) holds them. When no lane of the
// warp can run or come, the lanes of a mask whose other lanes are gone or
// wait elsewhere are released with a finding. Then, in a warp none of whose
// lanes can run on and that released none (whose lanes might still reach
// it), the lanes at an __activemask() call site are released with the group
// that met there (one group per call site): the lanes that reached it before
// waiting anywhere else. Returns whether any lane can run again.
bool release_warp_rounds(std::vector<Lane>& lanes, detail::LaunchState& launch) {
    if (g_block->at_warp_functions == 0) return false;
    bool released = false;
    for (std::size_t first = 0; first < lanes.size(); first += 32) {
        const std::size_t last = std::min(lanes.size(), first + 32);
        bool running = false, at_active_mask = false, waiting_any = false, spinning = false;
        for (std::size_t t = first; t < last; ++t) {
            const Status st = lanes[t].status;
            running = running || st == Status::Running;
            at_active_mask = at_active_mask || st == Status::AtActiveMask;
            waiting_any = waiting_any || st == Status::AtWarpSync;
            spinning = spinning || st == Status::Spinning;
        }
        if (!waiting_any && !at_active_mask) continue;
        Warp& warp = (*g_warps)[first / 32];
        bool released_here = false;
        unsigned synced = 0;
        const bool may_run = running || at_active_mask || spinning;
        for (int lenient = 0; waiting_any && lenient < 2 && !released_here; ++lenient) {
            if (lenient && may_run) break;
            unsigned done = 0;  // lanes whose mask was looked at in this pass
            for (std::size_t s = first; s < last; ++s) {
                if (lanes[s].status != Status::AtWarpSync || (done >> (s - first) & 1u)) continue;
                const unsigned mask = lanes[s].warp_mask;
                unsigned met = 0;
                for (std::size_t t = s; t < last; ++t)
                    if (lanes[t].status == Status::AtWarpSync && lanes[t].warp_mask == mask) met |= 1u << (t - first);
                done |= met;
                // The lanes named in the mask that are not here (as bits: this
                // runs at every warp function of every warp).
                unsigned absent = 0;
                bool may_come = false;
                for (std::size_t t = first; t < last; ++t) {
                    const unsigned bit = 1u << (t - first);
                    if (!(met & bit) && (mask & bit)) {
                        absent |= bit;
                        const Status st = lanes[t].status;
                        may_come = may_come || st == Status::Spinning || st == Status::Running ||  // stopped by the watchdog's sampling
                                   st == Status::AtActiveMask || (!lenient && st == Status::AtWarpSync);
                    }
                }
                if (may_come) continue;
                if (absent != 0) {
                    std::vector<unsigned> missing, waiting;
                    for (std::size_t t = first; t < last; ++t) {
                        const unsigned bit = 1u << (t - first);
                        if (met & bit) waiting.push_back(static_cast<unsigned>(t));
                        else if (absent & bit) missing.push_back(static_cast<unsigned>(t));
                    }
                    launch.reports.add("warp divergence", Kind::barrier, launch.block_serial,
                                       detail::block_name(launch.block_idx) + ": " + thread_list(waiting) +
                                           " waited at a warp function at " +
                                           detail::where(lanes[s].barrier_file, lanes[s].barrier_line) + " while " +
                                           thread_list(missing) +
                                           ", named in its mask, did not arrive (exited, or waiting at another barrier)",
                                       detail::ReportDetail{launch.block_idx}.line(
                                           detail::where(lanes[s].barrier_file, lanes[s].barrier_line)));
                }
                bool orders_memory = false;
                for (std::size_t t = first; t < last; ++t)
                    if (met >> (t - first) & 1u) {
                        warp.results[t - first] = lanes[t].deposit;
                        orders_memory = orders_memory || lanes[t].warp_orders_memory;
                        lanes[t].status = Status::Running;
                        --g_block->at_warp_functions;
                    }
                if (orders_memory) synced |= met;
                released = released_here = true;
            }
        }
        if (synced != 0) {
            warp.syncs = {static_cast<std::uint16_t>(warp.syncs.count + 1), synced};
            detail::g_syncwarp_seen = true;
        }
        if (!at_active_mask || running || released_here) continue;
        // One call site at a time, the earliest in the file first: lanes
        // released from an earlier call site in divergent code may reach a
        // later one (as the warp reconverges on a GPU) before it is released.
        const Lane* at = nullptr;
        for (std::size_t t = first; t < last; ++t) {
            const Lane& l = lanes[t];
            if (l.status != Status::AtActiveMask) continue;
            if (at == nullptr || std::make_pair(std::strcmp(l.barrier_file, at->barrier_file), l.barrier_line) <
                                     std::make_pair(0, at->barrier_line))
                at = &l;
        }
        unsigned group = 0;
        for (std::size_t u = first; u < last; ++u)
            if (lanes[u].status == Status::AtActiveMask && lanes[u].barrier_line == at->barrier_line &&
                (lanes[u].barrier_file == at->barrier_file || std::strcmp(lanes[u].barrier_file, at->barrier_file) == 0))
                group |= 1u << (u - first);
        for (std::size_t u = first; u < last; ++u)
            if (group >> (u - first) & 1u) {
                lanes[u].warp_mask = group;
                lanes[u].status = Status::Running;
                --g_block->at_warp_functions;
            }
        released = true;
    }
    return released;
}

}  // namespace

void LaneStacks::ensure(std::size_t lanes) {
    if (lanes == lanes_) return;
    give_back();
    auto& pool = free_stacks();
    const auto same = std::find_if(pool.begin(), pool.end(), [&](const auto& r) { return r.second == lanes; });
    if (same != pool.end()) {
        base_ = same->first;
        pool.erase(same);
    } else {
        void* m = mmap(nullptr, lanes * kFiberStack, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m == MAP_FAILED) {
            std::perror("simt: the GPU threads' stacks");
            std::abort();
        }
        base_ = static_cast<unsigned char*>(m);
    }
    lanes_ = lanes;
}

void LaneStacks::give_back() {
    if (base_ != nullptr) free_stacks().emplace_back(base_, lanes_);
    base_ = nullptr;
    lanes_ = 0;
}

namespace {

// The launching thread while a block's threads run.
thread_local Context g_scheduler;
thread_local bool g_abandoning = false;

// Makes `lane` the running thread, as the hooks and checks read it.
void enter(Lane& lane) {
    g_lane = &lane;
    detail::g_thread = static_cast<unsigned>(&lane - g_lanes);
    detail::g_stack_low = lane.stack_low;
    detail::g_stack_high = lane.stack_high;
    lane.slice = 0;
}

void leave_all() {
    g_lane = nullptr;
    detail::g_thread = detail::kNoThread;
    detail::g_stack_low = detail::g_stack_high = nullptr;
}

// A GPU thread's fiber: the kernel's body, then, for good, the next thread.
[[noreturn]] void lane_main(Transfer t) noexcept {
    adopt(t);
    Lane& lane = *g_lane;
    std::jmp_buf abandoned;
    lane.abandon_to = &abandoned;
    const int how = setjmp(abandoned);
    if (how == 0) {
        g_block->body(g_block->closure);
        lane.status = Status::Exited;
        restart_watch(*g_block);
    } else if (how == kFaulted) {  // from on_fault, off the signal's stack now
        lane.status = Status::Exited;
        detail::report_fault(g_fault.address, g_fault.pc, g_fault.write);
        g_stopped = true;
    }
    lane.abandon_to = nullptr;
    lane.live = false;
    suspend();
    std::abort();  // a thread that returned is never resumed
}

}  // namespace

// Thread to thread, in thread order, as the scheduler's pass would resume
// them, without going through the scheduler in between: half the switches.
void suspend() {
    Lane& me = *g_lane;
    Lane* next = nullptr;
    if (!g_stopped && !g_abandoning) {
        Lane* const end = g_lanes + g_block->lanes.size();
        for (Lane* l = &me + 1; l < end && next == nullptr; ++l)
            if (l->status == Status::Running) next = l;
    }
    if (next != nullptr) {
        // The thread after it is most often the one it hands on to: its
        // lane and the top of its saved stack, which every switch pops, are
        // fetched into the cache while this one runs. The stack top by its
        // address, not by the lane's saved pointer (a load of a line not yet
        // in the cache, which stalled): it most often waits where this
        // thread last waited, at the same depth of its own stack, which lies
        // kFiberStack further per lane.
        if (const Lane* after = next + 1; after < g_lanes + g_block->lanes.size()) {
            __builtin_prefetch(after);
            const char* top = static_cast<const char*>(me.context.sp) + (after - &me) * kFiberStack;
            __builtin_prefetch(top);
            __builtin_prefetch(top + 64);
        }
        enter(*next);
        switch_context(me.context, next->context);
    } else {
        switch_context(me.context, g_scheduler);
    }
    if (me.abandon_now) std::longjmp(*me.abandon_to, 1);
}

void start_block(BlockRun& b, void (*body)(void*), void* closure, detail::LaunchState& launch) {
    b.first_interval = b.interval = launch.block_first_interval = launch.interval = ++launch.interval_high;
    b.interval_in_block = 0;
    b.at_warp_functions = 0;
    b.votes = b.at_grid = b.grid_released = false;
    b.body = body;
    b.closure = closure;
    restart_watch(b);
    b.stacks.ensure(b.lanes.size());
    for (std::size_t t = 0; t < b.lanes.size(); ++t) {
        Lane& lane = b.lanes[t];
        lane.status = Status::Running;
        lane.polls = 0;
        lane.poll_address = nullptr;
        lane.abandon_to = nullptr;
        lane.abandon_now = false;
        lane.live = true;
        lane.stack_low = b.stacks.low(t);
        lane.stack_high = lane.stack_low + kFiberStack;
        lane.context = make_context(b.stacks.low(t), kFiberStack, lane_main);
    }
}

// Ends the threads of a stopped launch (a possible deadlock or endless loop,
// an access to memory that is not there)
// without unwinding their stacks. Each is put aside inside the emulator, often
// in a hook that GCC's instrumentation calls as a function that never throws
// (__tsan_volatile_read8 for a volatile poll, __sanitizer_cov_trace_pc for the
// watchdog), where the kernel's unwind table may have no entry for that call:
// an exception thrown through it ends the process in std::terminate. Instead
// the thread, resumed, jumps back to where its fiber began and returns; the
// kernel's destructors do not run, as on a GPU that stops a kernel.
void abandon(std::vector<std::unique_ptr<BlockRun>>& started) {
    g_abandoning = true;
    for (auto& b : started) {
        g_block = b.get();
        g_lanes = b->lanes.data();
        for (auto& lane : b->lanes) {
            if (!lane.live) continue;  // exited
            if (lane.abandon_to == nullptr) {  // not begun: no frame of the kernel to leave
                lane.live = false;
                continue;
            }
            lane.abandon_now = true;
            enter(lane);
            switch_context(g_scheduler, lane.context);
        }
    }
    leave_all();
    g_abandoning = false;
}

// Runs a started block until every thread has exited, or until its threads
// only spin on values that nothing in the block changes any more (Stalled:
// resumed later, after other blocks ran).
Outcome advance(BlockRun& b, detail::LaunchState& launch) {
    std::vector<Lane>& lanes = b.lanes;
    for (auto& lane : lanes)
        if (lane.status == Status::Spinning) lane.status = Status::Running;
    for (;;) {
        for (;;) {
            const std::uint64_t before = detail::g_progress;
            g_spun = 0;
            do {
                g_preempted = false;
                // A pass: each running thread in thread order (suspend()
                // hands on from one to the next), back here after the last.
                const auto first = std::find_if(lanes.begin(), lanes.end(),
                                                [](const Lane& l) { return l.status == Status::Running; });
                if (first != lanes.end()) {
                    enter(*first);
                    switch_context(g_scheduler, first->context);
                }
                leave_all();
                if (g_stopped) return Outcome::Stopped;
                if (b.sampling && b.sample_left == 0) return Outcome::Runaway;
                if (detail::g_published) {  // resumed here later: warp rounds still pending go on then
                    detail::g_published = false;
                    return Outcome::Yielded;
                }
            } while (release_warp_rounds(lanes, launch) || g_preempted);
            if (g_spun == 0) break;  // no thread is left spinning
            if (detail::g_progress == before) return Outcome::Stalled;  // nothing they could see changed
            for (auto& lane : lanes)
                if (lane.status == Status::Spinning) lane.status = Status::Running;
        }
        // Every thread waits at a barrier or has exited: the block votes'
        // count, and a grid sync waits for the grid.
        bool grid = false;
        if (b.votes) {  // a thread waits at a block vote or a grid sync
            b.votes = false;
            b.vote_true = b.vote_waiting = 0;
            for (const auto& lane : lanes)
                if (lane.status == Status::AtBarrier) {
                    grid = grid || lane.grid_sync;
                    ++b.vote_waiting;
                    b.vote_true += lane.barrier_vote != 0;
                }
            b.votes = grid;  // counted again when the grid releases it
        }
        if (grid && !b.grid_released) {
            b.at_grid = true;
            return Outcome::GridWait;
        }
        b.at_grid = b.grid_released = false;
        const unsigned interval = b.interval_in_block;
        detail::divergence_end_interval(interval);
        const Lane* waiting = nullptr;
        for (const auto& lane : lanes)
            if (lane.status == Status::AtBarrier && waiting == nullptr) waiting = &lane;
        detail::trace_interval_end(waiting ? "at barrier " + std::to_string(interval + 1) + " (" +
                                                 detail::where(waiting->barrier_file, waiting->barrier_line) + ")"
                                           : std::string("at the end"));
        if (!release_barrier(lanes, launch)) return Outcome::Done;
        ++b.interval_in_block;
        ++b.barriers;
        b.barrier_file = waiting->barrier_file;
        b.barrier_line = waiting->barrier_line;
    }
}

// "possible deadlock" for a launch whose started blocks all spin with nothing
// left to change what they wait for.
std::string deadlock_message(const std::vector<BlockRun*>& started, std::size_t not_started,
                             detail::ReportDetail& named) {
    const BlockRun& b = *started.front();
    const Lane* spinner = nullptr;
    for (const auto& lane : b.lanes)
        if (lane.status == Status::Spinning && spinner == nullptr) spinner = &lane;
    std::string where = spinner ? detail::source_line(spinner->poll_pc) : std::string("?");
    const unsigned thread = spinner ? static_cast<unsigned>(spinner - b.lanes.data()) : 0;
    named.line(where);
    if (spinner) named.thread = thread;
    std::string message = detail::block_name(b.idx) + ": thread " + std::to_string(thread) + " waits at " + where +
                          " for a value that no running block changes; " + std::to_string(started.size()) +
                          " started block(s) all wait";
    if (not_started > 0)
        message += " and " + std::to_string(not_started) + " block(s) have not started (the emulator keeps " +
                   std::to_string(kResidentBlocks) +
                   " started at once): a GPU may run blocks in any order and need not start one until a running "
                   "block ends, so a block must not wait for another that may not have started (wait for a block "
                   "that took an earlier ticket from an atomic counter, not for a lower blockIdx)";
    else
        message += " on each other";
    return message;
}

}  // namespace simt
