// Memory checks. The student's file is compiled with -fsanitize=thread, which
// makes GCC call __tsan_read4(addr), __tsan_write4(addr), ... around every
// memory access; this file defines those hooks itself (libtsan is never
// linked). Inside a kernel each access is classified (a declared __shared__
// array, a device allocation or the memory around it, the program's own
// memory, host data or nothing at all: the last ones stop the launch before
// the access is made) and recorded in a
// shadow word per 4 bytes: who last wrote it and who read it, in which
// barrier interval. Two threads touching one word in the same interval, one
// of them writing, is a race; on global memory so is any such pair from two
// blocks of one launch.
#include <link.h>
#include <pthread.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

#include "internal.hpp"
#include "simt/runtime.hpp"

namespace simt::detail {
namespace {

// Thread numbers are stored plus one, so an all-zero word means "never
// touched" and a global shadow can come from calloc's lazily zeroed pages.
constexpr std::uint32_t kNone = 0;
constexpr std::uint32_t kUnpublished = ~std::uint32_t{0};  // an access no release covers

// Code addresses, interned so a shadow word stores 4-byte ids.
std::vector<const void*> g_pcs;
std::unordered_map<const void*, std::uint32_t> g_pc_ids;
std::uint32_t pc_id(const void* pc) {
    // A direct-mapped cache in front of the map: an access hook runs this on
    // every load and store, and a kernel has few distinct access sites.
    struct Slot {
        const void* pc = nullptr;
        std::uint32_t id = 0;
    };
    static Slot cache[256];
    Slot& slot = cache[(reinterpret_cast<std::uintptr_t>(pc) >> 2) & 255];
    if (slot.pc == pc) return slot.id;
    auto [it, inserted] = g_pc_ids.try_emplace(pc, static_cast<std::uint32_t>(g_pcs.size()));
    if (inserted) g_pcs.push_back(pc);
    slot = {pc, it->second};
    return it->second;
}
std::string line_of(std::uint32_t id) { return source_line(g_pcs[id]); }

// One 4-byte word's history. Intervals are LaunchState::interval values; an
// entry older than the current block (shared) or launch (global) is stale.
struct Word {
    std::uint32_t w_interval = 0, r_interval = 0;
    std::uint32_t w_block = 0, r_block = 0;  // block serials (global memory)
    std::uint32_t w_thread = kNone, r_thread = kNone, r_thread2 = kNone;
    std::uint32_t w_pc = 0, r_pc = 0, r_pc2 = 0;
    std::uint16_t w_syncs = 0, r_syncs = 0;  // the accessing warp's __syncwarp count (WarpSyncs)
    std::uint32_t w_clock = 0;  // the writing block's publish clock (global memory; PublishState)
    bool r_many_blocks = false;
    bool w_atomic = false;  // the last write was an atomic read-modify-write
    bool r_atomic = false;  // every read recorded in r_interval was atomic
};

struct SharedArray {
    const unsigned char* base;
    std::size_t bytes, element_bytes;
    std::vector<std::size_t> extents;
    std::string name;
    int line;
    std::vector<Word> shadow;
    ElementFormatter format = nullptr;
};

struct Trace {
    bool on = false;
    std::string array;
    unsigned block = 0;
    std::size_t elements = 0;
    std::string text;
    // What the launches had, for a request that matched nothing
    // (simt::trace_unmatched): the traceable shared arrays per kernel, and
    // each kernel's largest grid.
    bool matched = false;
    std::map<std::string, std::set<std::string>> arrays;
    std::map<std::string, unsigned long long> blocks;
} g_trace;

std::vector<SharedArray> g_shared;  // of the running launch
std::size_t g_static_shared = 0;    // the most bytes of declared arrays a block of the running launch had

// The running block's shared array that holds p, or nullptr.
SharedArray* shared_array_at(const unsigned char* p) {
    for (auto& a : g_shared)
        if (p >= a.base && p < a.base + a.bytes) return &a;
    return nullptr;
}

struct GlobalShadow {
    std::size_t bytes = 0;
    std::unique_ptr<Word[], void (*)(void*)> words{nullptr, &std::free};
};
std::unordered_map<const unsigned char*, GlobalShadow> g_global;  // by allocation base

// `thread` as stored: plus one.
std::string thread_at(std::uint32_t thread, std::uint32_t pc) {
    return "thread " + std::to_string(thread - 1) + " at " + line_of(pc);
}

std::string element_name(const SharedArray& a, std::size_t offset) {
    if (a.extents.empty()) return a.name;
    std::size_t index = offset / a.element_bytes;
    std::string subscripts;
    for (std::size_t d = a.extents.size(); d-- > 0;) {
        const std::size_t extent = a.extents[d] ? a.extents[d] : 1;
        subscripts = "[" + std::to_string(index % extent) + "]" + subscripts;
        index /= extent;
    }
    return a.name + subscripts;
}

// ---- blocks that publish to each other ----------------------------------------
// Each block of a launch has a clock. A plain write to device memory stores
// its block's clock in the word's shadow; a __threadfence() by thread T
// advances it, and T's next atomic that changes a word (or volatile store)
// releases, on that word, every write its block made before the fence. A
// thread of another block that then reads the word atomically (or volatile)
// and fences has acquired them for its block: that block's plain accesses to
// those words race with them no longer. The emulator runs one fiber at a
// time, so the last release of a word is the one a later read sees.
struct Release {
    std::uint32_t block = 0, clock = 0;  // clock 0: released without a fence, so nothing
};
struct PublishState {
    std::vector<std::uint32_t> clock;                              // per block serial, from 1
    std::unordered_map<std::uint64_t, std::uint32_t> fenced_at;    // (block, thread): what its last fence covers
    std::unordered_map<std::uint64_t, std::vector<Release>> pending;  // (block, thread): read, not yet fenced
    std::unordered_map<const void*, Release> released;             // a word's last release
    std::unordered_map<std::uint64_t, std::uint32_t> acquired;     // (reader block, writer block): clock
};
// The running launch's; cleared when it ends. Until its first device fence
// every block's clock is 1, so a write's clock is known without a lookup.
PublishState g_publish;
bool g_fenced = false;
// The access being checked is a cache-hinted load (its name here), and
// whether it is __ldg's, for data read-only for the launch (hinted_access).
thread_local const char* g_hinted_load = nullptr;
thread_local bool g_read_only_load = false;
bool g_publish_pending = false;  // a volatile store published: yield at the thread's next checked access

std::uint32_t& block_clock(std::uint32_t block) {
    std::vector<std::uint32_t>& clock = g_publish.clock;
    if (clock.size() <= block) clock.resize(block + 1, 1);
    return clock[block];
}
std::uint64_t pair_key(std::uint64_t a, std::uint64_t b) { return a << 32 | b; }
std::uint32_t running_block() { return static_cast<std::uint32_t>(current_launch()->block_serial); }

// An atomic or volatile read of `addr`: what another block released there is
// the reading thread's once it fences.
void acquire(const void* addr) {
    if (!g_fenced) return;  // every release so far has clock 0
    PublishState& s = g_publish;
    const auto it = s.released.find(addr);
    const std::uint32_t block = running_block();
    if (it == s.released.end() || it->second.block == block || it->second.clock == 0) return;
    std::vector<Release>& mine = s.pending[pair_key(block, current_thread())];
    for (Release& r : mine)
        if (r.block == it->second.block) return void(r.clock = std::max(r.clock, it->second.clock));
    mine.push_back(it->second);
}

// Whether the running block has acquired `writer`'s write made at `clock`.
bool published(std::uint32_t writer, std::uint32_t clock) {
    const PublishState& s = g_publish;
    const auto it = s.acquired.find(pair_key(running_block(), writer));
    return it != s.acquired.end() && clock < it->second;
}

// Only the first report of a check in a launch is spelled out: building the
// message symbolises code addresses, which runs addr2line.
template <typename Message>
void report(const std::string& check, Message message) {
    LaunchState& launch = *current_launch();
    launch.reports.add(check, launch.block_serial,
                       launch.reports.has(check) ? std::string() : block_name(launch.block_idx) + ": " + message());
}

// The rules shared by both kinds of memory; `what()` names the word for a
// report and is only called when there is one (this runs on every access).
template <typename What>
void check_word(const LaunchState& L, Word& w, bool write, bool atomic, std::uint32_t thread, std::uint32_t pc,
                std::uint64_t fresh_from, bool global, What what, const char* check) {
    const auto interval = static_cast<std::uint32_t>(L.interval);
    const auto block = static_cast<std::uint32_t>(L.block_serial);
    // A lane of this warp whose access a __syncwarp that both took part in
    // has since ordered before this one (thread numbers are plus one).
    const auto syncs_now = [] { return g_syncwarp_seen ? current_warp_syncs().count : std::uint16_t{0}; };
    const auto warp_ordered = [&](std::uint32_t who, std::uint16_t syncs) {
        if (!g_syncwarp_seen || who == kNone || (who - 1) / 32 != (thread - 1) / 32) return false;
        const WarpSyncs now = current_warp_syncs();
        return now.count != syncs && (now.mask >> ((who - 1) % 32) & 1u) && (now.mask >> ((thread - 1) % 32) & 1u);
    };
    // `clock`: the other access's publish clock; reads have none (never published).
    const auto conflicts = [&](std::uint32_t at, std::uint32_t blk, std::uint32_t who, std::uint16_t syncs,
                               std::uint32_t clock) {
        if (at < fresh_from || who == kNone) return false;
        if (global && blk != block) return clock == kUnpublished || g_read_only_load || !published(blk, clock);
        return at == interval && who != thread && !warp_ordered(who, syncs);
    };
    const auto who = [&](std::uint32_t blk, std::uint32_t t, std::uint32_t p) {
        return (global && blk != block ? "another block (serial " + std::to_string(blk) + ") " : std::string()) +
               thread_at(t, p);
    };
    // A hinted load meets a write no release covers: name the load and why.
    const auto tail = [&](std::uint32_t other_block, bool flag) -> std::string {
        if (g_hinted_load != nullptr && g_read_only_load && global && other_block != block)
            return " in the same launch, read with __ldg through the read-only cache, which the Programming Guide "
                   "allows only for data read-only for the kernel's whole lifetime (a fence does not change that): "
                   "read it with a plain load";
        if (g_hinted_load != nullptr && flag)
            return " in the same launch, read with " + std::string(g_hinted_load) +
                   ", a load ptxas may hoist out of a loop like any ordinary load, so a loop that waits on it may "
                   "not wait (on an H100 an empty loop polling a flag with __ldcv or __ldcg was removed and no block "
                   "waited): poll with a volatile or atomic load";
        return global && other_block != block ? std::string(" in the same launch (its blocks run in no fixed order)")
                                              : std::string(" between the same two barriers");
    };

    // A hinted load is recorded as an atomic read (a flag's write after it is
    // no race) but checked as a plain one (it does not poll).
    if (conflicts(w.w_interval, w.w_block, w.w_thread, w.w_syncs, w.w_clock) &&
        !(atomic && w.w_atomic && g_hinted_load == nullptr)) {
        report(check, [&] {
            return what() + " written by " + who(w.w_block, w.w_thread, w.w_pc) + " and " +
                   (write ? "written" : "read") + " by " + thread_at(thread, pc) + tail(w.w_block, w.w_atomic);
        });
    } else if (write && conflicts(w.r_interval, w.r_block, w.r_thread, w.r_syncs, kUnpublished) &&
               !(atomic && w.r_atomic)) {
        const bool first_is_me = w.r_thread == thread && w.r_block == block;
        const std::uint32_t t = first_is_me ? w.r_thread2 : w.r_thread;
        const std::uint32_t p = first_is_me ? w.r_pc2 : w.r_pc;
        if (t != kNone || (global && w.r_many_blocks))
            report(check, [&] {
                return what() + " read by " + (t != kNone ? who(w.r_block, t, p) : std::string("another block")) +
                       " and written by " + thread_at(thread, pc) + tail(w.r_block, false);
            });
    }

    if (write) {
        w.w_atomic = atomic;
        w.w_interval = interval;
        w.w_block = block;
        w.w_thread = thread;
        w.w_pc = pc;
        w.w_syncs = syncs_now();
        w.w_clock = !global ? 0 : g_fenced ? block_clock(block) : 1;
    } else if (const bool new_interval = w.r_interval != interval || w.r_interval < fresh_from;
               new_interval ||
               (warp_ordered(w.r_thread, w.r_syncs) && (w.r_thread2 == kNone || warp_ordered(w.r_thread2, w.r_syncs)))) {
        // A new interval, or every read recorded in this one is ordered before
        // this one by a __syncwarp (a write that conflicts with them conflicts
        // with this one): this read starts the record.
        if (new_interval) {
            w.r_many_blocks = global && w.r_interval >= fresh_from && w.r_block != block;
            w.r_interval = interval;
            w.r_block = block;
        }
        w.r_thread = thread;
        w.r_pc = pc;
        w.r_thread2 = kNone;
        w.r_atomic = atomic;
        w.r_syncs = syncs_now();
    } else {
        w.r_atomic = w.r_atomic && atomic;
        if (w.r_thread != thread && w.r_thread2 == kNone) {
            w.r_thread2 = thread;
            w.r_pc2 = pc;
        }
    }
}

// Inlined into on_access, as global_access is: every access of a kernel comes
// through one of them, and the call alone cost the 2^20-element lab 02 scan 5%
// of its time.
__attribute__((always_inline)) inline void shared_access(SharedArray& a, const unsigned char* p, std::size_t size,
                                                         bool write, bool atomic, const void* pc) {
    LaunchState& L = *current_launch();
    if (write && !atomic) ++g_progress;
    const std::uint32_t thread = current_thread() + 1, id = pc_id(pc);
    const std::size_t offset = static_cast<std::size_t>(p - a.base);
    if (!write && size > 0) divergence_shared_read(a.base, offset / size);
    for (std::size_t off = offset & ~std::size_t{3}; off < offset + size && off < a.bytes; off += 4) {
        Word& w = a.shadow[off / 4];
        if (!write && w.w_interval < L.block_first_interval)
            report("uninitialized shared memory read", [&] {
                return "thread " + std::to_string(thread - 1) + " read " + element_name(a, off) + " at " + line_of(id) +
                       ", which no thread of this block has written";
            });
        check_word(L, w, write, atomic, thread, id, L.block_first_interval, false, [&] { return element_name(a, off); },
                   "data race on shared memory");
    }
}

__attribute__((always_inline)) inline void global_access(const unsigned char* base, const Allocation& a,
                                                          const unsigned char* p, std::size_t size, bool write,
                                                          bool atomic, const void* pc) {
    const std::size_t bytes = a.bytes;
    LaunchState& L = *current_launch();
    if (write && !atomic) ++g_progress;
    GlobalShadow& g = g_global[base];
    if (g.bytes != bytes || !g.words) {
        g.bytes = bytes;
        g.words.reset(static_cast<Word*>(std::calloc((bytes + 3) / 4, sizeof(Word))));
    }
    const std::uint32_t thread = current_thread() + 1, id = pc_id(pc);
    const std::size_t offset = static_cast<std::size_t>(p - base);
    for (std::size_t off = offset & ~std::size_t{3}; off < offset + size && off < bytes; off += 4)
        check_word(L, g.words[off / 4], write, atomic, thread, id, L.launch_first_interval, true,
                   [&] { return "the word at byte " + std::to_string(off) + " of " + describe_allocation(a) + ","; },
                   "data race on global memory");
}

// "at offset 128 of a 128-byte device allocation (past its end)"
std::string outside(std::ptrdiff_t offset, const std::string& what) {
    return "at offset " + std::to_string(offset) + " of " + what + " (" + (offset < 0 ? "before its start" : "past its end") +
           ")";
}

// ---- what is not host data: the places a kernel legitimately touches besides
// shared arrays and device allocations.
struct Range {
    const unsigned char* low;
    const unsigned char* high;
    bool contains(const unsigned char* p) const { return p >= low && p < high; }
};

// The segments of every loaded image (code, constants, globals).
const std::vector<Range>& image_ranges() {
    static const std::vector<Range> ranges = [] {
        std::vector<Range> out;
        dl_iterate_phdr(
            [](dl_phdr_info* info, std::size_t, void* data) {
                auto& v = *static_cast<std::vector<Range>*>(data);
                for (int i = 0; i < info->dlpi_phnum; ++i) {
                    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
                    if (ph.p_type == PT_LOAD) {
                        const auto* low = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
                        v.push_back({low, low + ph.p_memsz});
                    }
                }
                return 0;
            },
            &out);
        return out;
    }();
    return ranges;
}

// The static thread-local block (namespace-scope __shared__ lives there).
thread_local unsigned char g_tls_marker;
bool in_static_tls(const unsigned char* p) {
    constexpr std::ptrdiff_t kReach = std::ptrdiff_t{8} << 20;  // far more than any static TLS block
    const std::ptrdiff_t d = p - &g_tls_marker;
    return d > -kReach && d < kReach;
}

Range launching_thread_stack() {
    thread_local const Range range = [] {
        pthread_attr_t attr;
        void* addr = nullptr;
        std::size_t size = 0;
        if (pthread_getattr_np(pthread_self(), &attr) == 0) {
            pthread_attr_getstack(&attr, &addr, &size);
            pthread_attr_destroy(&attr);
        }
        const auto* low = static_cast<const unsigned char*>(addr);
        return Range{low, low + size};
    }();
    return range;
}

bool is_program_memory(const unsigned char* p) {
    if (on_fiber_stack(p) || launching_thread_stack().contains(p) || in_static_tls(p)) return true;
    for (const Range& r : image_ranges())
        if (r.contains(p)) return true;
    return false;
}

// "thread 5 read 4 bytes", for a report of the running thread's access
// (size 0: not known, as in a fault).
std::string access_by_thread(bool write, std::size_t size) {
    return "thread " + std::to_string(current_thread()) + (write ? " wrote" : " read") +
           (size ? " " + std::to_string(size) + " bytes" : std::string());
}

// The allocation all of [p, p + size) lies in, or none.
const std::pair<const unsigned char* const, Allocation>* allocation_holding(const unsigned char* p, std::size_t size) {
    const auto& allocs = allocations();
    auto it = allocs.upper_bound(p);
    if (it == allocs.begin()) return nullptr;
    --it;
    return p + size <= it->first + it->second.bytes ? &*it : nullptr;
}

// "a 128-byte device allocation", for reports.
std::string device_allocation(const Allocation& a) { return describe_allocation(a); }

// The allocation whose mapping (guard pages included) holds p, or none.
const std::pair<const unsigned char* const, Allocation>* allocation_around(const unsigned char* p) {
    const auto& allocs = allocations();
    const auto next = allocs.upper_bound(p);
    if (next != allocs.begin() && p < std::prev(next)->second.map_high) return &*std::prev(next);
    if (next != allocs.end() && p >= next->second.map_low) return &*next;
    return nullptr;
}

// The `__device__` variable p lies within 64 bytes of (outside it), or none.
const std::pair<const unsigned char* const, Allocation>* variable_near(const unsigned char* p) {
    const auto& allocs = allocations();
    const auto next = allocs.upper_bound(p);
    if (next != allocs.begin()) {
        const auto& prev = *std::prev(next);
        if (prev.second.kind == MemoryKind::Variable && p < prev.first + prev.second.bytes + 64) return &prev;
    }
    if (next != allocs.end() && next->second.kind == MemoryKind::Variable && p + 64 > next->first) return &*next;
    return nullptr;
}

// Whether anything readable is mapped at p (the slow path of a report).
bool mapped(const unsigned char* p) {
    std::FILE* maps = std::fopen("/proc/self/maps", "r");
    if (maps == nullptr) return true;
    bool found = false;
    unsigned long low = 0, high = 0;
    char perms[8] = {};
    char line[512];
    while (!found && std::fgets(line, sizeof line, maps))
        if (std::sscanf(line, "%lx-%lx %7s", &low, &high, perms) == 3)
            found = reinterpret_cast<std::uintptr_t>(p) >= low && reinterpret_cast<std::uintptr_t>(p) < high && perms[0] == 'r';
    std::fclose(maps);
    return found;
}

// The report of an access to memory that is not there, or not the kernel's,
// which the running thread must not make (the launch stops before it): in an
// allocation's guard pages (out of bounds by so much), at an address where
// nothing is mapped (an uninitialised pointer, an index far out of range), or
// in host memory. `at`: " at scan.cu:22". Spelled out even where the check
// already has a report in this launch (an access just past the end, made
// before), after it: the stop explains the outputs left unwritten.
void report_forbidden(const unsigned char* p, std::size_t size, bool write, const std::string& at) {
    std::string check = "out-of-bounds access", message = access_by_thread(write, size);
    if (const auto* a = allocation_around(p)) {
        message += " " + outside(p - a->first, device_allocation(a->second)) + at;
    } else if (!mapped(p)) {
        char address[32];
        std::snprintf(address, sizeof address, "%p", static_cast<const void*>(p));
        message += std::string(" at address ") + (p ? address : "0") + at +
                   ", in no device allocation or shared array, where nothing is mapped (an uninitialised pointer? "
                   "an index far out of range?)";
    } else {
        check = "kernel access to host memory";
        message += at + " outside every device allocation and shared array: a host pointer passed to the kernel? "
                        "(pass pointers from cudaMalloc)";
    }
    message += ": the launch stopped there, before the access (a GPU stops it with an illegal address error)";
    LaunchState& launch = *current_launch();
    message = block_name(launch.block_idx) + ": " + message;
    if (launch.reports.has(check)) launch.reports.by_check.at(check).first_message += "; then " + message;
    launch.reports.add(check, launch.block_serial, message);
}

// `is_volatile`: a volatile access, which on device memory is checked as an
// atomic one (volatile flags and data, with fences, are how blocks have long
// talked to each other); on shared memory as a plain one. `acquires`: an
// atomic or volatile access whose read may acquire, with a later fence, what
// another block released (not a libcu++ store, nor a block-scoped access).
void on_access(const void* addr, std::size_t size, bool write, const void* pc, bool atomic = false,
               bool is_volatile = false, bool acquires = true) {
    if (!in_kernel()) return;  // the lab's host code
    if (g_publish_pending) {
        g_publish_pending = false;
        on_publish();
    }
    const auto* p = static_cast<const unsigned char*>(addr);
    if (SharedArray* a = shared_array_at(p)) return shared_access(*a, p, size, write, atomic, pc);
    // The thread's own locals and the launch's arguments on the launching
    // thread's stack, asked before the allocations' map (no allocation lies on
    // a stack): most accesses that are not to shared memory.
    if (on_fiber_stack(p) || launching_thread_stack().contains(p)) return;

    if (const auto* it = allocation_holding(p, size)) {
        const unsigned char* base = it->first;
        const std::size_t given = it->second.given;
        if (!write && static_cast<std::size_t>(p - base) + size > given)
            return report("out-of-bounds access", [&] {
                return access_by_thread(false, size) + " at offset " + std::to_string(p - base) + " of a device buffer of " +
                       std::to_string(given) + " bytes (past its end: the " + std::to_string(given / 4) +
                       " elements the lab function was given) at " + line_of(pc_id(pc));
            });
        if (write) it->second.kernel_written = true;
        if ((atomic || is_volatile) && acquires) acquire(p);  // before the check: an RMW reads first
        global_access(base, it->second, p, size, write, atomic || is_volatile, pc);
        if (write && is_volatile) {
            ++g_progress;
            release(p, false);
        }
        return;
    }
    // Out of bounds of an allocation, where its mapping has memory: reported, and performed.
    if (const auto* a = allocation_around(p); a && p + kRedzone >= a->first && p + size <= a->second.accessible_high)
        return report("out-of-bounds access", [&] {
            return access_by_thread(write, size) + " " +
                   outside(p - a->first, device_allocation(a->second)) + " at " +
                   line_of(pc_id(pc));
        });
    // Just outside a `__device__` variable (in the program's image, with no
    // mapping of its own: only the 64 bytes on each side are told apart).
    if (const auto* v = variable_near(p); v != nullptr)
        return report("out-of-bounds access", [&] {
            return access_by_thread(write, size) + " " + outside(p - v->first, describe_allocation(v->second)) +
                   " at " + line_of(pc_id(pc));
        });
    for (auto& a : g_shared)  // just outside a shared array
        if (p + 64 > a.base && p < a.base + a.bytes + 64)
            return report("out-of-bounds access", [&] {
                return access_by_thread(write, size) + " " + outside(p - a.base, a.name + ", " + std::to_string(a.bytes) + " bytes declared at line " + std::to_string(a.line)) +
                       " at " + line_of(pc_id(pc));
            });
    if (is_program_memory(p)) return;
    report_forbidden(p, size, write, " at " + line_of(pc_id(pc)));
    stop_launch();
}

// Only in device allocations (256-byte aligned, as CUDA's) and shared arrays
// (16-byte aligned): where a local array lands on a GPU is the compiler's.
// Returns whether it was reported.
bool report_misaligned(const unsigned char* p, std::size_t alignment, const char* type, const void* pc) {
    std::string from;
    if (const auto* a = allocation_around(p))
        from = "byte offset " + std::to_string(p - a->first) + " of " + device_allocation(a->second);
    else if (const SharedArray* s = shared_array_at(p))
        from = "byte offset " + std::to_string(p - s->base) + " of " + s->name;
    else
        return false;
    report("misaligned address", [&] {
        return "thread " + std::to_string(current_thread()) + " made a " + type + " from " + from + ", not a multiple of " +
               std::to_string(alignment) + ", at " + source_line(pc) +
               ": its loads and stores are misaligned, which stops a kernel on a GPU (misaligned address); the launch "
               "stopped there";
    });
    return true;
}

// The hook runs before the load itself, and a poll may put the thread aside
// while other blocks write: the access is checked (and what it acquires
// taken) after the poll, when it holds what the load will read. A volatile
// load, or (`atomic`) a libcu++ atomic one.
void polled_read(const void* addr, std::size_t size, const void* pc, bool atomic = false, bool acquires = true) {
    if (in_kernel()) {
        // Read here before the check below: an address outside device and
        // shared memory is checked first, which stops the launch where
        // nothing may be read.
        const auto* p = static_cast<const unsigned char*>(addr);
        if (!allocation_holding(p, size) && !shared_array_at(p) && !is_program_memory(p))
            on_access(addr, size, false, pc, atomic, !atomic, acquires);
        unsigned long long value = 0;
        std::memcpy(&value, addr, std::min<std::size_t>(size, sizeof value));
        poll(addr, value, pc);
    }
    on_access(addr, size, false, pc, atomic, !atomic, acquires);
}
void volatile_read(const void* addr, std::size_t size, const void* pc) { polled_read(addr, size, pc); }

}  // namespace

void record_atomic(const void* addr, std::size_t size, const void* pc, bool wide) {
    on_access(addr, size, true, pc, true, false, wide);
}
void record_atomic_load(const void* addr, std::size_t size, const void* pc, bool wide) {
    polled_read(addr, size, pc, true, wide);
}
void record_atomic_store(const void* addr, std::size_t size, const void* pc) {
    on_access(addr, size, true, pc, true, false, false);
}
void library_access(const void* addr, std::size_t size, bool write, const void* pc) { on_access(addr, size, write, pc); }

}  // namespace simt::detail

// A cache-hinted load or store (thread.hpp) by the running thread, as ptxas
// compiles it for an H100 (conformance/probes/publication.cu, simt/README.md):
// a load is an ordinary one to ptxas, checked as a plain read (it acquires
// nothing, and reading a flag another block raised is a race) that still
// yields as a poll does, so a wait on one is reported, not spun for ever; __ldg's also races
// with a write by another block however the two are fenced (the Programming
// Guide gives it data read-only for the kernel's lifetime). __stcg and
// __stwt are volatile stores (they publish), __stwb and __stcs plain ones.
// An address in a __shared__ array or the thread's own stack, which the
// global-only instructions cannot reach, stops the launch.
void simt::hinted_access(const void* address, std::size_t size, bool write, Hint hint, const char* name,
                         const void* pc) {
    using namespace simt::detail;
    if (!in_kernel()) return;
    const auto* p = static_cast<const unsigned char*>(address);
    const SharedArray* a = shared_array_at(p);
    if (a != nullptr || on_fiber_stack(p)) {
        report("invalid address space", [&] {
            return access_by_thread(write, size) + (a ? " of " + element_name(*a, static_cast<std::size_t>(p - a->base))
                                                      : std::string(" of a local variable")) +
                   " with " + name + " at " + source_line(pc) + ": " + name +
                   " addresses global memory only (a __shared__ array or a local variable is not there), and on a "
                   "GPU this access faults: the launch stopped there, before the access";
        });
        stop_launch();
    }
    if (write) {
        on_access(address, size, true, pc, false, hint == Hint::strong);
    } else {
        g_hinted_load = name;
        g_read_only_load = hint == Hint::read_only;
        polled_read(address, size, pc, true, false);
        g_hinted_load = nullptr;
        g_read_only_load = false;
    }
}

void simt::misaligned_pointer(const void* address, std::size_t alignment, const char* type, const void* pc) {
    using namespace simt::detail;
    if (!in_kernel()) return;  // the lab's host code: nothing faults there
    if (report_misaligned(static_cast<const unsigned char*>(address), alignment, type, pc)) stop_launch();
}

namespace simt::detail {

void report_fault(const void* address, const void* pc, bool write) {
    // The faulting instruction's own address: source_line steps back from a return address.
    report_forbidden(static_cast<const unsigned char*>(address), 0, write,
                     " at " + source_line(static_cast<const unsigned char*>(pc) + 1) + " (a fault)");
}

void device_fence() {
    g_fenced = true;
    PublishState& s = g_publish;
    const std::uint32_t block = running_block();
    const std::uint64_t me = pair_key(block, current_thread());
    std::uint32_t& clock = block_clock(block);
    s.fenced_at[me] = ++clock;  // its release covers the writes made before: clocks below this
    if (const auto it = s.pending.find(me); it != s.pending.end()) {
        for (const Release& r : it->second) {
            std::uint32_t& have = s.acquired[pair_key(block, r.block)];
            have = std::max(have, r.clock);
        }
        s.pending.erase(it);
    }
}

void release(const void* addr, bool stored, Releases how, bool publishes) {
    if (!in_kernel()) return;
    // Before the launch's first fence (or release) a release (clock 0) covers
    // nothing, and no earlier release of the word covers anything either.
    if (how == Releases::Everything) g_fenced = true;
    if (g_fenced) {
        PublishState& s = g_publish;
        const std::uint32_t block = running_block();
        std::uint32_t clock = 0;
        if (how == Releases::Everything) {
            // The block's writes so far have clocks below the new one; its
            // later writes are not covered. The thread's own fences are left
            // as they were: a release store fences nothing after it.
            clock = ++block_clock(block);
        } else if (how == Releases::AfterFence) {
            const auto fenced = s.fenced_at.find(pair_key(block, current_thread()));
            clock = fenced == s.fenced_at.end() ? 0u : fenced->second;
        }
        s.released[addr] = {block, clock};
    }
    if (!publishes || shared_array_at(static_cast<const unsigned char*>(addr))) return;  // no other block sees it
    if (stored) on_publish();
    else g_publish_pending = true;
}

std::size_t take_static_shared() {
    const std::size_t bytes = g_static_shared;
    g_static_shared = 0;
    return bytes;
}

void acquire_now(const void* addr) {
    if (!in_kernel() || !g_fenced) return;  // every release so far has clock 0
    PublishState& s = g_publish;
    const auto it = s.released.find(addr);
    const std::uint32_t block = running_block();
    if (it == s.released.end() || it->second.block == block || it->second.clock == 0) return;
    std::uint32_t& have = s.acquired[pair_key(block, it->second.block)];
    have = std::max(have, it->second.clock);
}

void memcheck_begin_launch() {
    adopt_device_variables();
    g_shared.clear();
    if (const std::size_t bytes = dynamic_shared_size(); bytes > 0) {
        const auto* base = static_cast<const unsigned char*>(dynamic_shared());
        g_shared.push_back({base, bytes, 1, {}, "extern __shared__ memory", 0, std::vector<Word>((bytes + 3) / 4), nullptr});
    }
}

void trace_interval_end(const std::string& when) {
    const LaunchState& L = *current_launch();
    if (!g_trace.on) return;
    auto& most = g_trace.blocks[L.site.kernel];
    most = std::max<unsigned long long>(most, 1ull * L.grid.x * L.grid.y * L.grid.z);
    for (const auto& a : g_shared)
        if (a.format != nullptr) g_trace.arrays[L.site.kernel].insert(a.name);
    if (L.block_linear != g_trace.block) return;
    for (const auto& a : g_shared) {
        if (a.name != g_trace.array || a.format == nullptr) continue;
        g_trace.matched = true;
        // Rows of the last dimension, each cut to the first `elements` values.
        const std::size_t row = a.extents.empty() ? 1 : std::max<std::size_t>(a.extents.back(), 1);
        const std::size_t rows = a.bytes / a.element_bytes / row;
        g_trace.text += std::string(L.site.kernel) + " block " + std::to_string(g_trace.block) + ", " + when + ":\n";
        for (std::size_t r = 0; r < rows; ++r) {
            g_trace.text += "  " + a.name + (rows > 1 ? "[" + std::to_string(r) + "]" : std::string()) + ":";
            for (std::size_t i = 0; i < std::min(row, g_trace.elements); ++i) {
                char value[32];
                a.format(a.base + (r * row + i) * a.element_bytes, value, sizeof value);
                g_trace.text += std::string(" ") + value;
            }
            g_trace.text += "\n";
        }
    }
}

struct SavedShared {
    std::vector<SharedArray> arrays;
    std::vector<std::vector<unsigned char>> bytes;
};

std::shared_ptr<SavedShared> shared_save() {
    auto saved = std::make_shared<SavedShared>();
    for (const auto& a : g_shared) saved->bytes.emplace_back(a.base, a.base + a.bytes);
    saved->arrays = std::move(g_shared);
    g_shared.clear();
    return saved;
}

void shared_restore(std::shared_ptr<SavedShared> saved) {
    g_shared = std::move(saved->arrays);
    for (std::size_t i = 0; i < g_shared.size(); ++i)
        std::memcpy(const_cast<unsigned char*>(g_shared[i].base), saved->bytes[i].data(), saved->bytes[i].size());
}

void shared_fresh() { memcheck_begin_launch(); }

void memcheck_end_launch() {
    g_shared.clear();
    g_publish = PublishState{};
    g_fenced = false;
    g_publish_pending = false;
    g_syncwarp_seen = false;
    // Shadows of freed allocations go; live ones stay, made stale by the interval numbers.
    for (auto it = g_global.begin(); it != g_global.end();) {
        const auto a = allocations().find(it->first);
        it = (a == allocations().end() || a->second.bytes != it->second.bytes) ? g_global.erase(it) : std::next(it);
    }
}

}  // namespace simt::detail

void simt::declare_shared_array(const void* base, std::size_t bytes, std::size_t element_bytes,
                                const std::size_t* extents, std::size_t rank, const char* name, int line,
                                ElementFormatter format) {
    using namespace simt::detail;
    const auto* p = static_cast<const unsigned char*>(base);
    for (const auto& a : g_shared)
        if (a.base == p) return;  // the block's other threads
    g_shared.push_back({p, bytes, element_bytes, std::vector<std::size_t>(extents, extents + rank), name, line,
                        std::vector<Word>((bytes + 3) / 4), format});
    std::size_t declared = 0;  // the block's arrays (the extern one has no formatter)
    for (const auto& a : g_shared)
        if (a.format != nullptr) declared += a.bytes;
    g_static_shared = std::max(g_static_shared, declared);
}

void simt::format_element(float v, char* out, std::size_t size) { std::snprintf(out, size, "%g", double{v}); }
void simt::format_element(double v, char* out, std::size_t size) { std::snprintf(out, size, "%g", v); }
void simt::format_element(long long v, char* out, std::size_t size) { std::snprintf(out, size, "%lld", v); }
void simt::format_element(unsigned long long v, char* out, std::size_t size) { std::snprintf(out, size, "%llu", v); }

void simt::set_trace(const std::string& array, unsigned block, std::size_t elements) {
    simt::detail::g_trace = {true, array, block, elements, ""};
}

void simt::clear_trace() { simt::detail::g_trace = {}; }

std::string simt::trace_unmatched() {
    const auto& t = simt::detail::g_trace;
    if (!t.on || t.matched || t.blocks.empty()) return "";
    bool named = false;
    for (const auto& [kernel, names] : t.arrays) named = named || names.count(t.array) > 0;
    std::string out = named ? "no block " + std::to_string(t.block) + " ran a kernel with the __shared__ array '" +
                                  t.array + "'"
                            : "no kernel that ran has a __shared__ array '" + t.array + "'";
    out += "; the kernels that ran, their __shared__ arrays and blocks:";
    for (const auto& [kernel, blocks] : t.blocks) {
        out += "\n  " + kernel + ":";
        const auto names = t.arrays.find(kernel);
        if (names == t.arrays.end() || names->second.empty()) out += " no __shared__ array (extern ones are not traced)";
        else
            for (const auto& name : names->second) out += " " + name;
        out += blocks == 1 ? "; block 0" : "; blocks 0-" + std::to_string(blocks - 1);
    }
    return out;
}

std::string simt::take_trace() {
    std::string out;
    out.swap(simt::detail::g_trace.text);
    return out;
}

// ---- the instrumentation hooks -------------------------------------------------

// GCC's atomics (__atomic builtins, std::atomic, and the guard of a
// function-local static) in the kernel file: performed as they are (one OS
// thread runs every GPU thread), and inside a kernel checked as atomic
// accesses: a load as a volatile one (it may be a spin-wait's poll), a store
// or read-modify-write as an atomic; an acquire after the load and a release
// before the store are device-wide fences (the orders of a GPU's
// cuda::std::atomic at device scope).
namespace {
constexpr int kAcquire = 2, kRelease = 3, kAcqRel = 4, kSeqCst = 5;  // __tsan_memory_order
bool acquires(int mo) { return mo == kAcquire || mo == kAcqRel || mo == kSeqCst || mo == 1; }
bool releases(int mo) { return mo == kRelease || mo == kAcqRel || mo == kSeqCst; }
template <typename T>
T atomic_load(const volatile T* a, int mo, const void* pc) {
    if (simt::detail::in_kernel()) simt::detail::volatile_read(const_cast<T*>(a), sizeof(T), pc);
    const T v = __atomic_load_n(a, __ATOMIC_SEQ_CST);
    if (acquires(mo)) simt::threadfence();
    return v;
}
template <typename T, typename Op>
T atomic_rmw(volatile T* a, int mo, const void* pc, Op op) {
    if (releases(mo)) simt::threadfence();
    if (simt::detail::in_kernel()) simt::detail::record_atomic(const_cast<T*>(a), sizeof(T), pc);
    const T old = *a;
    *a = op(old);
    if (old != *a) {
        ++simt::detail::g_progress;
        if (simt::detail::in_kernel()) simt::detail::release(const_cast<T*>(a), true);
    }
    if (acquires(mo)) simt::threadfence();
    return old;
}
}  // namespace

#define SIMT_HOOK(kind, n, write)                                                                   \
    void __tsan_##kind##n(void* a) { simt::detail::on_access(a, n, write, __builtin_return_address(0)); } \
    void __tsan_unaligned_##kind##n(void* a) {                                                      \
        simt::detail::on_access(a, n, write, __builtin_return_address(0));                          \
    }

extern "C" {
void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
// A fence written as __atomic_thread_fence / std::atomic_thread_fence (the
// shim's __threadfence is a runtime call): one OS thread runs every block, so
// memory is coherent and a fence has nothing to do.
void __tsan_atomic_thread_fence(int) {}
void __tsan_atomic_signal_fence(int) {}
SIMT_HOOK(read, 1, false)
SIMT_HOOK(read, 2, false)
SIMT_HOOK(read, 4, false)
SIMT_HOOK(read, 8, false)
SIMT_HOOK(read, 16, false)
SIMT_HOOK(write, 1, true)
SIMT_HOOK(write, 2, true)
SIMT_HOOK(write, 4, true)
SIMT_HOOK(write, 8, true)
SIMT_HOOK(write, 16, true)
// Volatile accesses (the kernel file is compiled with
// --param=tsan-distinguish-volatile=1): checked like any other, and a
// volatile load may be a spin-wait's poll.
#define SIMT_VOLATILE_HOOK(n)                                                                     \
    void __tsan_volatile_read##n(void* a) { simt::detail::volatile_read(a, n, __builtin_return_address(0)); } \
    void __tsan_unaligned_volatile_read##n(void* a) {                                             \
        simt::detail::volatile_read(a, n, __builtin_return_address(0));                           \
    }                                                                                             \
    void __tsan_volatile_write##n(void* a) {                                                      \
        simt::detail::on_access(a, n, true, __builtin_return_address(0), false, true);            \
    }                                                                                             \
    void __tsan_unaligned_volatile_write##n(void* a) {                                            \
        simt::detail::on_access(a, n, true, __builtin_return_address(0), false, true);            \
    }
SIMT_VOLATILE_HOOK(1)
SIMT_VOLATILE_HOOK(2)
SIMT_VOLATILE_HOOK(4)
SIMT_VOLATILE_HOOK(8)
SIMT_VOLATILE_HOOK(16)
#undef SIMT_VOLATILE_HOOK
#define SIMT_TSAN_ATOMIC(n, T)                                                                          \
    T __tsan_atomic##n##_load(const volatile T* a, int mo) { return atomic_load(a, mo, __builtin_return_address(0)); } \
    void __tsan_atomic##n##_store(volatile T* a, T v, int mo) {                                        \
        atomic_rmw(a, mo, __builtin_return_address(0), [v](T) { return v; });                         \
    }                                                                                                   \
    T __tsan_atomic##n##_exchange(volatile T* a, T v, int mo) {                                        \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T) { return v; });                  \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_add(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o + v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_sub(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o - v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_and(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o & v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_or(volatile T* a, T v, int mo) {                                        \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o | v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_xor(volatile T* a, T v, int mo) {                                       \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(o ^ v); }); \
    }                                                                                                   \
    T __tsan_atomic##n##_fetch_nand(volatile T* a, T v, int mo) {                                      \
        return atomic_rmw(a, mo, __builtin_return_address(0), [v](T o) { return static_cast<T>(~(o & v)); }); \
    }                                                                                                   \
    int __tsan_atomic##n##_compare_exchange_strong(volatile T* a, T* c, T v, int mo, int) {            \
        const T expected = *c;                                                                          \
        const T old = atomic_rmw(a, mo, __builtin_return_address(0), [&](T o) { return o == expected ? v : o; }); \
        if (old == expected) return 1;                                                                  \
        *c = old;                                                                                       \
        return 0;                                                                                       \
    }                                                                                                   \
    int __tsan_atomic##n##_compare_exchange_weak(volatile T* a, T* c, T v, int mo, int fail) {         \
        return __tsan_atomic##n##_compare_exchange_strong(a, c, v, mo, fail);                           \
    }                                                                                                   \
    T __tsan_atomic##n##_compare_exchange_val(volatile T* a, T c, T v, int mo, int fail) {             \
        __tsan_atomic##n##_compare_exchange_strong(a, &c, v, mo, fail);                                 \
        return c;                                                                                       \
    }
SIMT_TSAN_ATOMIC(8, char)
SIMT_TSAN_ATOMIC(16, short)
SIMT_TSAN_ATOMIC(32, int)
SIMT_TSAN_ATOMIC(64, long)
#undef SIMT_TSAN_ATOMIC
void __tsan_read_range(void* a, unsigned long size) {
    simt::detail::on_access(a, size, false, __builtin_return_address(0));
}
void __tsan_write_range(void* a, unsigned long size) {
    simt::detail::on_access(a, size, true, __builtin_return_address(0));
}
}
