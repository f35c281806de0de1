// The device built-ins: threadIdx and the rest, __syncthreads() and the block
// votes, grid syncs, warp functions' rendezvous, polls, fences, dynamic shared
// memory and time in a kernel (clock64, __nanosleep); and reports' helpers.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "internal.hpp"
#include "scheduler.hpp"
#include "simt/cuda.hpp"

namespace simt {

// ---- device built-ins -------------------------------------------------------

namespace {
// The running GPU thread's lane; `pc` stands for the basic block its
// built-in is (detail::basic_block).
__attribute__((always_inline)) inline const Lane& running_lane(const void* pc) {
    detail::basic_block(pc);
    if (g_lane == nullptr) {
        std::fprintf(stderr, "simt: threadIdx/blockIdx used outside a kernel\n");
        std::abort();
    }
    return *g_lane;
}
// One code address per built-in, as its inline body had: its first
// instruction, as a return address into it reads (source_line steps back
// one byte from a return address).
template <typename F>
const void* block_of(F* f) {
    return reinterpret_cast<const char*>(f) + 1;
}
}  // namespace

uint3 thread_idx() { return running_lane(block_of(&thread_idx)).thread_idx; }
uint3 block_idx() {
    running_lane(block_of(&block_idx));
    return detail::current_launch()->block_idx;
}
dim3 block_dim() {
    running_lane(block_of(&block_dim));
    return detail::current_launch()->block;
}
dim3 grid_dim() {
    running_lane(block_of(&grid_dim));
    return detail::current_launch()->grid;
}

namespace {
void wait_at_barrier(const char* file, int line, int vote, bool grid) {
    Lane& lane = *g_lane;
    lane.status = Status::AtBarrier;
    lane.barrier_file = file;
    lane.barrier_line = line;
    lane.barrier_vote = vote;
    lane.grid_sync = grid;
    if (vote || grid) g_block->votes = true;
    suspend();
}
}  // namespace

void syncthreads(const char* file, int line) { wait_at_barrier(file, line, 0, false); }

int syncthreads_vote(BlockVote vote, int predicate, const char* file, int line) {
    g_block->votes = true;  // even when no thread's predicate holds
    wait_at_barrier(file, line, predicate != 0, false);
    const BlockRun& b = *g_block;  // released: the votes of the threads that waited
    if (vote == BlockVote::Count) return static_cast<int>(b.vote_true);
    if (vote == BlockVote::And) return b.vote_true == b.vote_waiting;
    return b.vote_true != 0;
}

bool grid_is_cooperative() { return detail::g_running_launch != nullptr && detail::g_running_launch->cooperative; }

void grid_sync(const char* file, int line) {
    if (!detail::g_running_launch->cooperative) {
        detail::g_running_launch->reports.add("grid sync outside a cooperative launch", Kind::barrier, detail::g_running_launch->block_serial,
                              detail::block_name(detail::g_running_launch->block_idx) + ": thread " +
                                  std::to_string(detail::current_thread()) + " called the grid group's sync() at " +
                                  detail::where(file, line) +
                                  " in a kernel launched with <<<>>> or cudaLaunchKernel: a grid-wide barrier needs every "
                                  "block of the grid running at once, which only cudaLaunchCooperativeKernel guarantees "
                                  "(on a GPU this_grid() is then not valid and its sync() traps or hangs); the launch "
                                  "stopped there",
                              detail::ReportDetail{detail::g_running_launch->block_idx, detail::current_thread()}.line(
                                  detail::where(file, line)));
        detail::stop_launch();
    }
    wait_at_barrier(file, line, 0, true);
}

void group_error(const char* what, const char* file, int line) {
    detail::g_running_launch->reports.add("cooperative groups error", Kind::memory, detail::g_running_launch->block_serial,
                          detail::block_name(detail::g_running_launch->block_idx) + ": thread " +
                              std::to_string(detail::current_thread()) + " called " + what + " at " +
                              detail::where(file, line) +
                              ", which CUDA's cooperative groups trap on (the kernel fails on a GPU): the launch "
                              "stopped there",
                          detail::ReportDetail{detail::g_running_launch->block_idx, detail::current_thread()}.line(
                              detail::where(file, line)));
    detail::stop_launch();
}

unsigned active_mask(const char* file, int line) {
    Lane& lane = *g_lane;
    lane.status = Status::AtActiveMask;
    ++g_block->at_warp_functions;
    lane.barrier_file = file;
    lane.barrier_line = line;
    suspend();
    return lane.warp_mask;
}

void* dynamic_shared() { return simt_dynamic_shared_memory; }

namespace detail {

void stop_launch() {
    g_stopped = true;
    suspend();
    std::abort();  // never resumed: abandon() leaves through where the fiber began
}

void on_publish() {
    if (g_lane == nullptr || g_published) return;
    g_published = true;
    suspend();  // still Running: resumed here in the block's next pass
}

void poll(const void* address, unsigned long long value, const void* pc) {
    if (g_lane == nullptr) return;
    Lane& lane = *g_lane;
    if (address != lane.poll_address || value != lane.poll_value) {
        lane.poll_address = address;
        lane.poll_value = value;
        lane.polls = 0;
        return;
    }
    if (++lane.polls < kSpinPolls) return;
    lane.polls = 0;
    lane.poll_pc = pc;
    lane.status = Status::Spinning;
    ++g_spun;
    suspend();
}

}  // namespace detail

namespace detail {
// The counter clock() and clock64() read in a kernel (device_clock.cpp).
thread_local long long g_device_clock = 0;
long long device_clock() { return g_device_clock += 8; }
}  // namespace detail

// A call the compiler cannot move memory accesses across.
void threadfence(bool device_wide) {
    if (device_wide && detail::in_kernel()) detail::device_fence();
}

unsigned lane_id() { return static_cast<unsigned>(g_lane - g_lanes) % 32; }

const unsigned long long* warp_exchange(unsigned mask, unsigned long long deposit, const char* file, int line,
                                        bool orders_memory) {
    Lane& lane = *g_lane;
    // A mask must name its caller (CUDA leaves the result undefined;
    // compute-sanitizer's synccheck reports invalid arguments). The lane
    // takes part in no round, so none waits for it: it gets its own value.
    if (!(mask >> lane_id() & 1u)) {
        auto& launch = *detail::g_running_launch;
        char hex[16];
        std::snprintf(hex, sizeof hex, "0x%08x", mask);
        launch.reports.add("invalid warp mask", Kind::barrier, launch.block_serial,
                           detail::block_name(launch.block_idx) + ": thread " + std::to_string(detail::current_thread()) +
                               " called a warp function at " + detail::where(file, line) + " with mask " + hex +
                               ", which leaves it out: a thread must name itself in the mask (the result is undefined "
                               "on a GPU)",
                           detail::ReportDetail{launch.block_idx, detail::current_thread()}.line(detail::where(file, line)));
        static thread_local unsigned long long own[32];
        std::fill(own, own + 32, deposit);
        return own;
    }
    Warp& warp = (*g_warps)[static_cast<std::size_t>(g_lane - g_lanes) / 32];
    lane.deposit = deposit;
    lane.status = Status::AtWarpSync;
    ++g_block->at_warp_functions;
    lane.warp_mask = mask;
    lane.warp_orders_memory = orders_memory;
    lane.barrier_file = file;
    lane.barrier_line = line;
    suspend();
    return warp.results;
}

namespace detail {

ReportDetail& ReportDetail::line(const std::string& at, const void* pc) {
    if (at != "?" && std::find(lines.begin(), lines.end(), at) == lines.end()) {
        lines.push_back(at);
        pcs.push_back(pc);
    }
    return *this;
}

void LaunchReports::add(const std::string& check, Kind kind, unsigned long long block_serial, const std::string& message,
                        ReportDetail detail) {
    auto [it, inserted] = by_check.try_emplace(check);
    if (inserted) {
        it->second.kind = kind;
        it->second.first_message = message;
        it->second.detail = std::move(detail);
        order.push_back(check);
    }
    if (it->second.last_block_serial != block_serial) {
        it->second.last_block_serial = block_serial;
        ++it->second.blocks;
    }
}

WarpSyncs current_warp_syncs() { return (*g_warps)[current_thread() / 32].syncs; }
std::size_t dynamic_shared_size() { return g_dynamic_shared_size; }

std::string where(const char* file, int line) {
    std::string f = file ? file : "?";  // never null from the rewriter; a string cannot be made from null
    const auto slash = f.find_last_of('/');
    return (slash == std::string::npos ? f : f.substr(slash + 1)) + ":" + std::to_string(line);
}

std::string block_name(const uint3& b) {
    return "block (" + std::to_string(b.x) + "," + std::to_string(b.y) + "," + std::to_string(b.z) + ")";
}

}  // namespace detail

}  // namespace simt

// ---- time in a kernel ---------------------------------------------------------

namespace {
const int g_nanosleep_word = 0;  // what a back-off polls when its thread polled nothing before
}

// A look-back's back-off: a poll of the word the thread last polled (the flag
// it waits for) that saw it unchanged, so a waiting thread yields after as
// many polls and back-offs as a polling one; a thread that polled nothing
// polls a word of its own, which nothing changes.
__attribute__((noinline)) void __nanosleep(unsigned) {
    using namespace simt;
    if (!detail::in_kernel()) return;
    const void* pc = __builtin_return_address(0);
    const Lane& lane = *g_lane;
    if (lane.poll_address != nullptr) detail::poll(lane.poll_address, lane.poll_value, pc);
    else detail::poll(&g_nanosleep_word, 0, pc);
}

long long clock64() { return simt::detail::device_clock(); }
