// The memory checks' state, kept by memcheck.cpp and shared with the files
// that report forbidden accesses (memcheck_reports.cpp), carry it across a
// launch (memcheck_launch.cpp) and hook the instrumentation
// (memcheck_hooks.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "internal.hpp"

namespace simt::detail {

// Thread numbers are stored plus one, so an all-zero word means "never
// touched" and a global shadow can come from calloc's lazily zeroed pages.
constexpr std::uint32_t kNone = 0;
constexpr std::uint32_t kUnpublished = ~std::uint32_t{0};  // an access no release covers

// One 4-byte word's history. Intervals are LaunchState::interval values; an
// entry older than the current block (shared) or launch (global) is stale.
// A shared-memory word is one block's: 32 bytes, two to a cache line.
struct SharedWord {
    std::uint32_t w_interval = 0, r_interval = 0;
    std::uint32_t w_pc = 0, r_pc = 0, r_pc2 = 0;
    std::uint16_t w_thread = kNone, r_thread = kNone, r_thread2 = kNone;  // a block has at most 1024 (scheduler.hpp)
    std::uint16_t w_syncs = 0, r_syncs = 0;  // the accessing warp's __syncwarp count (WarpSyncs)
    bool w_atomic = false;  // the last write was an atomic read-modify-write
    bool r_atomic = false;  // every read recorded in r_interval was atomic
};
static_assert(sizeof(SharedWord) == 32, "a shared-memory shadow word is 32 bytes");
// A device-memory word is every block's: it also keeps which blocks wrote
// and read it, and the write's publish clock.
struct Word : SharedWord {
    std::uint32_t w_block = 0, r_block = 0;  // block serials
    std::uint32_t w_clock = 0;  // the writing block's publish clock (PublishState)
    bool r_many_blocks = false;
};

// A word that accesses of less than a word reached keeps a record per byte
// (threads writing neighbouring chars share a word, not a byte): its own
// w_thread is then kSplit, never a thread, and its bytes' records are in a
// table by word index. Such words are few, so the table is a map and a whole
// aligned word's access (the labs' floats) pays one compare for it.
constexpr std::uint16_t kSplit = 0xffff;
template <typename W>
using ByteRecords = std::unordered_map<std::size_t, std::array<W, 4>>;

struct SharedArray {
    const unsigned char* base;
    std::size_t bytes, element_bytes;
    std::vector<std::size_t> extents;
    std::string name;
    int line;
    std::vector<SharedWord> shadow;
    ElementFormatter format = nullptr;
    ByteRecords<SharedWord> split = {};  // the byte records of its split words
};

extern std::vector<SharedArray> g_shared;  // of the running launch
inline std::size_t g_static_shared = 0;  // the most bytes of declared arrays a block of the running launch had

// The running block's shared array that holds p, or nullptr.
inline SharedArray* shared_array_at(const unsigned char* p) {
    for (auto& a : g_shared)
        if (p >= a.base && p < a.base + a.bytes) return &a;
    return nullptr;
}
std::string element_name(const SharedArray& a, std::size_t offset);
// A `__shared__` variable at namespace scope that holds p or lies within 64
// bytes of it, not yet among the running block's arrays: added to them
// (memcheck_launch.cpp). False when there is none.
bool adopt_static_shared(const unsigned char* p);

// The access being checked is a cache-hinted load (its name here), and
// whether it is __ldg's, for data read-only for the launch (hinted_access).
inline thread_local const char* g_hinted_load = nullptr;
inline thread_local bool g_read_only_load = false;
// The atomic access being checked stores without reading (a libcu++ or
// __atomic store): no uninitialised read, unlike a read-modify-write's.
inline thread_local bool g_atomic_store = false;

// Only the first report of a check in a launch is spelled out: building the
// message symbolises code addresses. `message` gets
// the report's detail to fill (the lines and thread it names).
template <typename Message>
void report(const std::string& check, Kind kind, Message message) {
    LaunchState& launch = *current_launch();
    ReportDetail detail{launch.block_idx};
    std::string text = launch.reports.has(check) ? std::string() : block_name(launch.block_idx) + ": " + message(detail);
    launch.reports.add(check, kind, launch.block_serial, text, std::move(detail));
}

// The parts of reports, and the report of an access the running thread must
// not make (memcheck_reports.cpp).
std::string outside(std::ptrdiff_t offset, const std::string& what);
std::string access_by_thread(bool write, std::size_t size);
std::string device_allocation(const Allocation& a);
const std::pair<const unsigned char* const, Allocation>* allocation_around(const unsigned char* p);
void report_forbidden(const unsigned char* p, std::size_t size, bool write, const std::string& at,
                      const std::string& line, const void* pc);
// A kernel's read (or atomic) of bytes [first, last] of allocation `a` that
// nothing wrote, within its access of `size` bytes at `offset`.
void report_unwritten(const Allocation& a, std::size_t offset, std::size_t size, std::size_t first, std::size_t last,
                      bool atomic, const std::string& line, const void* pc);

// The program's own memory, which a kernel may touch (program_memory.cpp):
// its stacks, loaded images and static thread-locals. The launching thread's
// stack (the launch's arguments) is asked on most accesses: a plain
// thread-local, filled on first use.
struct Range {
    const unsigned char* low;
    const unsigned char* high;
    bool contains(const unsigned char* p) const { return p >= low && p < high; }
};
inline thread_local Range g_launcher_stack{nullptr, nullptr};
void find_launching_thread_stack();
inline bool on_launching_thread_stack(const unsigned char* p) {
    if (g_launcher_stack.low == nullptr) find_launching_thread_stack();
    return g_launcher_stack.contains(p);
}
bool is_program_memory(const unsigned char* p);

// The check of one access (memcheck.cpp), which every entry point comes to.
void on_access(const void* addr, std::size_t size, bool write, const void* pc, bool atomic = false,
               bool is_volatile = false, bool acquires = true);
// The same for a plain load or store (the instrumentation's usual hooks).
void plain_read(const void* addr, std::size_t size, const void* pc);
void plain_write(const void* addr, std::size_t size, const void* pc);
void polled_read(const void* addr, std::size_t size, const void* pc, bool atomic = false, bool acquires = true);
void volatile_read(const void* addr, std::size_t size, const void* pc);

}  // namespace simt::detail
