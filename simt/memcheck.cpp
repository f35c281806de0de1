// Memory checks. The student's file is compiled with -fsanitize=thread, which
// makes GCC call __tsan_read4(addr), __tsan_write4(addr), ... around every
// memory access; memcheck_hooks.cpp defines those hooks (libtsan is never
// linked), which come here. Inside a kernel each access is classified (a
// declared __shared__ array, a device allocation or the memory around it, the
// program's own memory, host data or nothing at all: the last ones stop the
// launch before the access is made) and recorded in a shadow word per 4
// bytes (per byte once an access of less than a word split it: ByteRecords):
// who last wrote it and who read it, in which barrier interval. Two
// threads touching one word in the same interval, one of them writing, is a
// race; on global memory so is any such pair from two blocks of one launch.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "internal.hpp"
#include "memcheck.hpp"
#include "shadow_pool.hpp"

namespace simt::detail {
namespace {

// Code addresses, interned so a shadow word stores 4-byte ids.
std::vector<const void*> g_pcs;
std::unordered_map<const void*, std::uint32_t> g_pc_ids;
// A direct-mapped cache in front of the map: an access hook runs pc_id on
// every load and store, and a kernel has few distinct access sites.
struct PcSlot {
    const void* pc = nullptr;
    std::uint32_t id = 0;
};
PcSlot g_pc_cache[256];
__attribute__((noinline)) std::uint32_t pc_id_missed(PcSlot& slot, const void* pc) {
    auto [it, inserted] = g_pc_ids.try_emplace(pc, static_cast<std::uint32_t>(g_pcs.size()));
    if (inserted) g_pcs.push_back(pc);
    slot = {pc, it->second};
    return it->second;
}
__attribute__((always_inline)) inline std::uint32_t pc_id(const void* pc) {
    PcSlot& slot = g_pc_cache[(reinterpret_cast<std::uintptr_t>(pc) >> 2) & 255];
    return slot.pc == pc ? slot.id : pc_id_missed(slot, pc);
}
std::string line_of(std::uint32_t id) { return source_line(g_pcs[id]); }
const void* pc_of(std::uint32_t id) { return g_pcs[id]; }

}  // namespace

std::vector<SharedArray> g_shared;  // of the running launch

namespace {

struct GlobalShadow {
    std::size_t bytes = 0;
    ShadowWords words;
    ByteRecords<Word> split;  // the byte records of its split words
};
std::unordered_map<const unsigned char*, GlobalShadow> g_global;  // by allocation base

// The allocation the last device-memory access went to, and its shadow: a
// kernel's accesses go to a few, and the two lookups cost more than the
// checks. Valid while no allocation was freed and no shadow dropped
// (memcheck_end_launch). Its bounds and shadow words are kept here too, so
// that the short path (plain_fast) reads no map node.
struct LastAllocation {
    const std::pair<const unsigned char* const, Allocation>* entry = nullptr;
    GlobalShadow* shadow = nullptr;
    std::uint64_t freed = 0;
    const unsigned char* base = nullptr;   // entry's
    const unsigned char* end = nullptr;    // base + its bytes
    std::size_t given = 0;                 // its given bytes
    Word* words = nullptr;                 // shadow's, once it holds them
    InitBits* init = nullptr;              // its written bytes, where they are tracked
    LastAllocation() = default;
    explicit LastAllocation(const std::pair<const unsigned char* const, Allocation>* e)
        : entry(e), freed(g_allocations_freed), base(e->first), end(e->first + e->second.bytes),
          given(e->second.given), init(e->second.init.get()) {}
    bool holds(const unsigned char* p, std::size_t size) const {  // none: end is null
        return p >= base && p + size <= end && freed == g_allocations_freed;
    }
};
LastAllocation g_last;
LastAllocation g_before_last;  // the one before it: a kernel often goes between two (reads one, writes another)

// `thread` as stored: plus one.
std::string thread_at(std::uint32_t thread, std::uint32_t pc) {
    return "thread " + std::to_string(thread - 1) + " at " + line_of(pc);
}

}  // namespace

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
// time, so a later read sees the word's release sequence as it stands: the
// last release by a store, and every release by a read-modify-write after it
// (an RMW continues the sequence, as in C++'s and PTX's memory models: the
// last of many blocks to take a ticket acquires every block's sums).

namespace {

struct PublishState {
    std::vector<std::uint32_t> clock;                              // per block serial, from 1
    std::unordered_map<std::uint64_t, std::uint32_t> fenced_at;    // (block, thread): what its last fence covers
    // (reader block, thread) -> writer block -> clock: read, not yet fenced
    std::unordered_map<std::uint64_t, std::unordered_map<std::uint32_t, std::uint32_t>> pending;
    // a word's release sequence: writer block -> the highest clock it released (none at clock 0)
    std::unordered_map<const void*, std::unordered_map<std::uint32_t, std::uint32_t>> released;
    std::unordered_map<std::uint64_t, std::uint32_t> acquired;     // (reader block, writer block): clock
};
// The running launch's; cleared when it ends. Until its first device fence
// every block's clock is 1, so a write's clock is known without a lookup.
PublishState g_publish;
bool g_fenced = false;
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
    if (it == s.released.end() || it->second.empty()) return;
    const std::uint32_t block = running_block();
    std::unordered_map<std::uint32_t, std::uint32_t>* mine = nullptr;
    for (const auto& [writer, clock] : it->second)
        if (writer != block) {
            if (!mine) mine = &s.pending[pair_key(block, current_thread())];
            std::uint32_t& have = (*mine)[writer];
            have = std::max(have, clock);
        }
}

// Whether the running block has acquired `writer`'s write made at `clock`.
bool published(std::uint32_t writer, std::uint32_t clock) {
    const PublishState& s = g_publish;
    const auto it = s.acquired.find(pair_key(running_block(), writer));
    return it != s.acquired.end() && clock < it->second;
}

// A word of device memory (Word) or of a block's shared memory (SharedWord),
// which keeps no blocks: the block of its recorded write and read, and the
// write's publish clock, are the running block's and none there.
template <typename W>
constexpr bool kGlobal = std::is_same_v<W, Word>;
template <typename W>
__attribute__((always_inline)) inline std::uint32_t write_block(const W& w, std::uint32_t block) {
    if constexpr (kGlobal<W>) return w.w_block;
    else return block;
}
template <typename W>
__attribute__((always_inline)) inline std::uint32_t read_block(const W& w, std::uint32_t block) {
    if constexpr (kGlobal<W>) return w.r_block;
    else return block;
}
template <typename W>
__attribute__((always_inline)) inline std::uint32_t write_clock_of(const W& w) {
    if constexpr (kGlobal<W>) return w.w_clock;
    else return 0;
}

// The records check_word and unordered_fast keep of an access: a write (and
// in global memory its block and the block's publish clock); a read in a new
// interval, which starts the interval's record; a read that starts the word's
// record of reads; a read added to it.
template <typename W>
__attribute__((always_inline)) inline void record_write(W& w, bool atomic, std::uint32_t interval,
                                                        std::uint32_t block, std::uint32_t thread, std::uint32_t pc,
                                                        std::uint16_t syncs) {
    w.w_atomic = atomic;
    w.w_interval = interval;
    w.w_thread = thread;
    w.w_pc = pc;
    w.w_syncs = syncs;
    if constexpr (kGlobal<W>) {
        w.w_block = block;
        w.w_clock = g_fenced ? block_clock(block) : 1;
    }
}
template <typename W>
__attribute__((always_inline)) inline void record_read_interval(W& w, std::uint32_t interval, std::uint32_t block,
                                                                std::uint64_t fresh_from) {
    if constexpr (kGlobal<W>) {
        w.r_many_blocks = w.r_interval >= fresh_from && w.r_block != block;
        w.r_block = block;
    }
    w.r_interval = interval;
}
template <typename W>
__attribute__((always_inline)) inline void record_first_read(W& w, bool atomic, std::uint32_t thread,
                                                             std::uint32_t pc, std::uint16_t syncs) {
    w.r_thread = thread;
    w.r_pc = pc;
    w.r_thread2 = kNone;
    w.r_atomic = atomic;
    w.r_syncs = syncs;
}
template <typename W>
__attribute__((always_inline)) inline void record_another_read(W& w, bool atomic, std::uint32_t thread,
                                                               std::uint32_t pc) {
    w.r_atomic = w.r_atomic && atomic;
    if (w.r_thread != thread && w.r_thread2 == kNone) {
        w.r_thread2 = thread;
        w.r_pc2 = pc;
    }
}

// The rules shared by both kinds of memory; `what()` names the word for a
// report and is only called when there is one (this runs on every access).
template <typename W, typename What>
void check_word(const LaunchState& L, W& w, bool write, bool atomic, std::uint32_t thread, std::uint32_t pc,
                std::uint64_t fresh_from, What what, const char* check) {
    constexpr bool global = kGlobal<W>;
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
    const std::uint32_t w_block = write_block(w, block), r_block = read_block(w, block);
    if (conflicts(w.w_interval, w_block, w.w_thread, w.w_syncs, write_clock_of(w)) &&
        !(atomic && w.w_atomic && g_hinted_load == nullptr)) {
        report(check, Kind::race, [&](ReportDetail& d) {
            d.line(line_of(w.w_pc), pc_of(w.w_pc)).line(line_of(pc), pc_of(pc)).thread = thread - 1;
            return what() + " written by " + who(w_block, w.w_thread, w.w_pc) + " and " +
                   (write ? "written" : "read") + " by " + thread_at(thread, pc) + tail(w_block, w.w_atomic);
        });
    } else if (write && conflicts(w.r_interval, r_block, w.r_thread, w.r_syncs, kUnpublished) &&
               !(atomic && w.r_atomic)) {
        const bool first_is_me = w.r_thread == thread && r_block == block;
        const std::uint32_t t = first_is_me ? w.r_thread2 : w.r_thread;
        const std::uint32_t p = first_is_me ? w.r_pc2 : w.r_pc;
        bool many_blocks = false;
        if constexpr (global) many_blocks = w.r_many_blocks;
        if (t != kNone || many_blocks)
            report(check, Kind::race, [&](ReportDetail& d) {
                if (t != kNone) d.line(line_of(p), pc_of(p));
                d.line(line_of(pc), pc_of(pc)).thread = thread - 1;
                return what() + " read by " + (t != kNone ? who(r_block, t, p) : std::string("another block")) +
                       " and written by " + thread_at(thread, pc) + tail(r_block, false);
            });
    }

    if (write) {
        record_write(w, atomic, interval, block, thread, pc, syncs_now());
    } else if (const bool new_interval = w.r_interval != interval || w.r_interval < fresh_from;
               new_interval ||
               (warp_ordered(w.r_thread, w.r_syncs) && (w.r_thread2 == kNone || warp_ordered(w.r_thread2, w.r_syncs)))) {
        // A new interval, or every read recorded in this one is ordered before
        // this one by a __syncwarp (a write that conflicts with them conflicts
        // with this one): this read starts the record.
        if (new_interval) record_read_interval(w, interval, block, fresh_from);
        record_first_read(w, atomic, thread, pc, syncs_now());
    } else {
        record_another_read(w, atomic, thread, pc);
    }
}

// check_word's outcome where it is quick to tell: no __syncwarp in the
// launch so far, and no access since `fresh_from` by another block, or by
// another thread of this interval, that this one may conflict with.
// Then it records the access as check_word would and returns true;
// otherwise it changes nothing and returns false, and check_word decides.
// Most accesses of a kernel take this way, in a few instructions. The
// callers make sure no __syncwarp was seen.
template <typename W>
__attribute__((always_inline)) inline bool unordered_fast(W& w, bool write, bool atomic, std::uint32_t thread,
                                                          std::uint32_t pc, std::uint32_t interval, std::uint32_t block,
                                                          std::uint64_t fresh_from) {
    if (w.w_thread == kSplit) return false;  // its bytes decide
    // Whether the recorded access (at, blk, who) leaves this one free of conflict.
    const auto free_of = [&](std::uint32_t at, std::uint32_t blk, std::uint32_t who) __attribute__((always_inline)) {
        return at < fresh_from || who == kNone || (blk == block && (at != interval || who == thread));
    };
    if (!free_of(w.w_interval, write_block(w, block), w.w_thread)) return false;
    if (write) {
        if (!free_of(w.r_interval, read_block(w, block), w.r_thread)) return false;
        record_write(w, atomic, interval, block, thread, pc, 0);
    } else if (w.r_interval != interval || w.r_interval < fresh_from) {
        record_read_interval(w, interval, block, fresh_from);
        record_first_read(w, atomic, thread, pc, 0);
    } else {
        record_another_read(w, atomic, thread, pc);
    }
    return true;
}

// The bytes of the word at `off` that [offset, offset + size) covers, a bit each.
inline unsigned covered_bytes(std::size_t offset, std::size_t size, std::size_t off) {
    const std::size_t low = std::max(offset, off) - off, high = std::min(offset + size, off + 4) - off;
    return (1u << high) - (1u << low);
}

// The byte records of word `w` (number `index`), which is split now if it
// was not: each byte starts with the word's history, which covered it. A
// word marked split with no records was split for an earlier allocation
// whose shadow words were reused: its bytes start untouched.
template <typename W>
std::array<W, 4>& byte_records(W& w, ByteRecords<W>& split, std::size_t index) {
    std::array<W, 4>& bytes = split[index];  // untouched where new
    if (w.w_thread != kSplit) {
        bytes.fill(w);
        w = W{};
        w.w_thread = kSplit;
    }
    return bytes;
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
    const auto interval = static_cast<std::uint32_t>(L.interval), block = static_cast<std::uint32_t>(L.block_serial);
    if (!write && size > 0 && g_tracing) divergence_shared_read(a.base, offset / size);
    // One record: a whole word's, or a byte's of a split word (at: its offset).
    const auto check = [&](SharedWord& w, std::size_t at) {
        if (!write && w.w_interval < L.block_first_interval)
            report("uninitialized shared memory read", Kind::uninitialised, [&](ReportDetail& d) {
                d.line(line_of(id), pc_of(id)).thread = thread - 1;
                d.allocation = a.name;
                return "thread " + std::to_string(thread - 1) + " read " + element_name(a, at) + " at " + line_of(id) +
                       ", which no thread of this block has written";
            });
        if (!g_syncwarp_seen &&
            unordered_fast(w, write, atomic, thread, id, interval, block, L.block_first_interval))
            return;
        check_word(L, w, write, atomic, thread, id, L.block_first_interval, [&] { return element_name(a, at); },
                   "data race on shared memory");
    };
    for (std::size_t off = offset & ~std::size_t{3}; off < offset + size && off < a.bytes; off += 4) {
        SharedWord& w = a.shadow[off / 4];
        const unsigned covered = covered_bytes(offset, size, off);
        if (covered == 0xf && w.w_thread != kSplit) {
            check(w, off);
            continue;
        }
        auto& bytes = byte_records(w, a.split, off / 4);
        for (unsigned b = 0; b < 4; ++b)
            if (covered >> b & 1u) check(bytes[b], off + b);
    }
}

__attribute__((always_inline)) inline void global_access(const unsigned char* base, const Allocation& a,
                                                          const unsigned char* p, std::size_t size, bool write,
                                                          bool atomic, const void* pc) {
    const std::size_t bytes = a.bytes;
    LaunchState& L = *current_launch();
    if (write && !atomic) ++g_progress;
    if (g_last.shadow == nullptr) g_last.shadow = &g_global[base];  // on_access made base g_last.entry
    GlobalShadow& g = *g_last.shadow;
    if (g.bytes != bytes || g.words.get() == nullptr) {
        g.bytes = bytes;
        g.words.hold((bytes + 3) / 4);
        g.split.clear();
    }
    g_last.words = g.words.get();
    const std::uint32_t thread = current_thread() + 1, id = pc_id(pc);
    const std::size_t offset = static_cast<std::size_t>(p - base);
    for (std::size_t off = offset & ~std::size_t{3}; off < offset + size && off < bytes; off += 4) {
        Word& w = g.words.get()[off / 4];
        const unsigned covered = covered_bytes(offset, size, off);
        if (covered == 0xf && w.w_thread != kSplit) {
            check_word(L, w, write, atomic, thread, id, L.launch_first_interval,
                       [&] { return "the word at byte " + std::to_string(off) + " of " + describe_allocation(a) + ","; },
                       "data race on global memory");
            continue;
        }
        auto& records = byte_records(w, g.split, off / 4);
        for (unsigned b = 0; b < 4; ++b)
            if (covered >> b & 1u)
                check_word(L, records[b], write, atomic, thread, id, L.launch_first_interval,
                           [&] { return "byte " + std::to_string(off + b) + " of " + describe_allocation(a) + ","; },
                           "data race on global memory");
    }
}

// The allocation all of [p, p + size) lies in, or none.
const std::pair<const unsigned char* const, Allocation>* allocation_holding(const unsigned char* p, std::size_t size) {
    const auto& allocs = allocations();
    auto it = allocs.upper_bound(p);
    if (it == allocs.begin()) return nullptr;
    --it;
    return p + size <= it->first + it->second.bytes ? &*it : nullptr;
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

}  // namespace

// `is_volatile`: a volatile access, which on device memory is checked as an
// atomic one (volatile flags and data, with fences, are how blocks have long
// talked to each other); on shared memory as a plain one. `acquires`: an
// atomic or volatile access whose read may acquire, with a later fence, what
// another block released (not a libcu++ store, nor a block-scoped access).
// Inlined into each entry point below, so that a plain load's or store's
// check is compiled with what it is known to be.
__attribute__((always_inline)) inline void check_access(const void* addr, std::size_t size, bool write,
                                                        const void* pc, bool atomic, bool is_volatile,
                                                        bool acquires) {
    if (!in_kernel()) return;  // the lab's host code
    if (g_publish_pending) {
        g_publish_pending = false;
        on_publish();
    }
    const auto* p = static_cast<const unsigned char*>(addr);
    if (!g_last.holds(p, size) && g_before_last.holds(p, size)) std::swap(g_last, g_before_last);
    const bool same_allocation = g_last.holds(p, size);
    if (!same_allocation) {
        if (SharedArray* a = shared_array_at(p)) {
            if (p + size > a->base + a->bytes)  // a range (memcpy, a struct) that runs past its end
                report("out-of-bounds access", Kind::memory, [&](ReportDetail& d) {
                    d.line(line_of(pc_id(pc)), pc_of(pc_id(pc))).thread = current_thread();
                    d.allocation = a->name;
                    return access_by_thread(write, size) + " " +
                           outside(p - a->base, a->name + ", " + std::to_string(a->bytes) + " bytes declared at line " +
                                                    std::to_string(a->line)) +
                           " at " + line_of(pc_id(pc));
                });
            return shared_access(*a, p, size, write, atomic, pc);
        }
        // The thread's own locals and the launch's arguments on the launching
        // thread's stack, asked before the allocations' map (no allocation lies on
        // a stack): most accesses that are not to shared memory.
        if (on_fiber_stack(p) || on_launching_thread_stack(p)) return;
    }

    if (const auto* it = same_allocation ? g_last.entry : allocation_holding(p, size)) {
        if (!same_allocation) {
            g_before_last = g_last;
            g_last = LastAllocation(it);
        }
        const unsigned char* base = it->first;
        const std::size_t given = it->second.given;
        if (!write && static_cast<std::size_t>(p - base) + size > given)
            return report("out-of-bounds access", Kind::memory, [&](ReportDetail& d) {
                d.line(line_of(pc_id(pc)), pc_of(pc_id(pc))).thread = current_thread();
                d.allocation = device_allocation(it->second);
                return access_by_thread(false, size) + " at offset " + std::to_string(p - base) + " of a device buffer of " +
                       std::to_string(given) + " bytes (past its end: the " + std::to_string(given / 4) +
                       " elements the lab function was given) at " + line_of(pc_id(pc));
            });
        if (write) it->second.kernel_written = true;
        if (InitBits* init = it->second.init.get(); init != nullptr && !init->all()) {
            // An atomic reads the old value, also where it is discarded (initcheck's rule).
            const std::size_t offset = static_cast<std::size_t>(p - base);
            if (!write || (atomic && !g_atomic_store))
                if (const auto [first, last] = init->unwritten(offset, size); first < offset + size)
                    report_unwritten(it->second, offset, size, first, last, atomic,
                                     line_of(pc_id(pc)), pc_of(pc_id(pc)));
            if (write) init->mark(offset, size);
        }
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
        return report("out-of-bounds access", Kind::memory, [&](ReportDetail& d) {
            d.line(line_of(pc_id(pc)), pc_of(pc_id(pc))).thread = current_thread();
            d.allocation = device_allocation(a->second);
            return access_by_thread(write, size) + " " +
                   outside(p - a->first, device_allocation(a->second)) + " at " +
                   line_of(pc_id(pc));
        });
    // Just outside a `__device__` variable (in the program's image, with no
    // mapping of its own: only the 64 bytes on each side are told apart).
    if (const auto* v = variable_near(p); v != nullptr)
        return report("out-of-bounds access", Kind::memory, [&](ReportDetail& d) {
            d.line(line_of(pc_id(pc)), pc_of(pc_id(pc))).thread = current_thread();
            d.allocation = describe_allocation(v->second);
            return access_by_thread(write, size) + " " + outside(p - v->first, describe_allocation(v->second)) +
                   " at " + line_of(pc_id(pc));
        });
    // A namespace-scope __shared__ variable the block had not touched yet:
    // its first access makes it one of the block's arrays, checked as they are.
    if (adopt_static_shared(p))
        if (SharedArray* a = shared_array_at(p)) return shared_access(*a, p, size, write, atomic, pc);
    for (auto& a : g_shared)  // just outside a shared array
        if (p + 64 > a.base && p < a.base + a.bytes + 64)
            return report("out-of-bounds access", Kind::memory, [&](ReportDetail& d) {
                d.line(line_of(pc_id(pc)), pc_of(pc_id(pc))).thread = current_thread();
                d.allocation = a.name;
                return access_by_thread(write, size) + " " + outside(p - a.base, a.name + ", " + std::to_string(a.bytes) + " bytes declared at line " + std::to_string(a.line)) +
                       " at " + line_of(pc_id(pc));
            });
    if (is_program_memory(p)) return;
    const std::string line = line_of(pc_id(pc));
    report_forbidden(p, size, write, " at " + line, line, pc_of(pc_id(pc)));
    stop_launch();
}

void on_access(const void* addr, std::size_t size, bool write, const void* pc, bool atomic, bool is_volatile,
               bool acquires) {
    check_access(addr, size, write, pc, atomic, is_volatile, acquires);
}

namespace {
// A plain load's or store's check where it is quick: one word of a shared
// array, the thread's own locals and the launch's arguments (not checked),
// or one word of one of the last two allocations a kernel touched (asked in
// that order, the order of how often the labs' kernels touch them), checked
// by unordered_fast, with no divergence tracing, nothing pending and no hinted load
// in progress. True when it did the whole check (as check_access would
// have); false, having recorded nothing, otherwise. Kept apart from
// check_access, which is out of line, so that the entry points' frames stay
// small: every GPU thread's stack is cold when its fiber resumes.
__attribute__((always_inline)) inline bool plain_fast(const void* addr, std::size_t size, bool write, const void* pc) {
    if (!in_kernel() || g_publish_pending || g_syncwarp_seen || g_tracing || g_hinted_load != nullptr) return false;
    const auto* p = static_cast<const unsigned char*>(addr);
    // The launch is read in each branch that checks a word, not before: a
    // stack access needs none of it.
    if (SharedArray* a = shared_array_at(p)) {
        const std::size_t offset = static_cast<std::size_t>(p - a->base);
        if ((offset & 3) != 0 || size != 4 || offset + size > a->bytes) return false;  // less than a word: per byte
        SharedWord& w = a->shadow[offset / 4];
        const LaunchState& L = *current_launch();
        if (!write && w.w_interval < L.block_first_interval) return false;  // an uninitialised read: reported
        if (!unordered_fast(w, write, false, current_thread() + 1, pc_id(pc), static_cast<std::uint32_t>(L.interval),
                            static_cast<std::uint32_t>(L.block_serial), L.block_first_interval))
            return false;
        if (write) ++g_progress;
        return true;
    }
    // The thread's own locals and the launch's arguments (the launch's
    // wrapper reads them for every thread): unchecked, as in check_access.
    if (on_fiber_stack(p) || on_launching_thread_stack(p)) return true;
    // As in check_access: a word of one of the last two allocations (which
    // of them is the later matters to check_access alone).
    LastAllocation* last = g_last.holds(p, size) ? &g_last : g_before_last.holds(p, size) ? &g_before_last : nullptr;
    if (last == nullptr) return false;
    const std::size_t offset = static_cast<std::size_t>(p - last->base);
    if ((offset & 3) != 0 || size != 4 || (!write && offset + size > last->given) || last->words == nullptr)
        return false;
    InitBits* init = last->init != nullptr && !last->init->all() ? last->init : nullptr;
    if (!write && init != nullptr && !init->word(offset)) return false;  // unwritten: check_access reports it
    const LaunchState& L = *current_launch();
    if (!unordered_fast(last->words[offset / 4], write, false, current_thread() + 1, pc_id(pc),
                        static_cast<std::uint32_t>(L.interval), static_cast<std::uint32_t>(L.block_serial),
                        L.launch_first_interval))
        return false;
    if (write) {
        last->entry->second.kernel_written = true;
        if (init != nullptr) init->mark_word(offset);
        ++g_progress;
    }
    return true;
}
__attribute__((noinline)) void plain_access_slow(const void* addr, std::size_t size, bool write, const void* pc) {
    check_access(addr, size, write, pc, false, false, true);
}
}  // namespace

void plain_read(const void* addr, std::size_t size, const void* pc) {
    if (!plain_fast(addr, size, false, pc)) plain_access_slow(addr, size, false, pc);
}
void plain_write(const void* addr, std::size_t size, const void* pc) {
    if (!plain_fast(addr, size, true, pc)) plain_access_slow(addr, size, true, pc);
}

// The hook runs before the load itself, and a poll may put the thread aside
// while other blocks write: the access is checked (and what it acquires
// taken) after the poll, when it holds what the load will read. A volatile
// load, or (`atomic`) a libcu++ atomic one.
void polled_read(const void* addr, std::size_t size, const void* pc, bool atomic, bool acquires) {
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

void record_atomic(const void* addr, std::size_t size, const void* pc, bool wide) {
    on_access(addr, size, true, pc, true, false, wide);
}
void record_atomic_load(const void* addr, std::size_t size, const void* pc, bool wide) {
    polled_read(addr, size, pc, true, wide);
}
void record_atomic_store(const void* addr, std::size_t size, const void* pc) {
    g_atomic_store = true;
    on_access(addr, size, true, pc, true, false, false);
    g_atomic_store = false;
}
void library_access(const void* addr, std::size_t size, bool write, const void* pc) { on_access(addr, size, write, pc); }

void device_fence() {
    g_fenced = true;
    PublishState& s = g_publish;
    const std::uint32_t block = running_block();
    const std::uint64_t me = pair_key(block, current_thread());
    std::uint32_t& clock = block_clock(block);
    s.fenced_at[me] = ++clock;  // its release covers the writes made before: clocks below this
    if (const auto it = s.pending.find(me); it != s.pending.end()) {
        for (const auto& [writer, clock] : it->second) {
            std::uint32_t& have = s.acquired[pair_key(block, writer)];
            have = std::max(have, clock);
        }
        s.pending.erase(it);
    }
}

void release(const void* addr, bool stored, Releases how, bool publishes, bool rmw) {
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
        auto& sequence = s.released[addr];
        if (!rmw) sequence.clear();  // a store heads a new release sequence
        if (clock != 0) {
            std::uint32_t& have = sequence[block];
            have = std::max(have, clock);
        }
    }
    if (!publishes || shared_array_at(static_cast<const unsigned char*>(addr))) return;  // no other block sees it
    if (stored) on_publish();
    else g_publish_pending = true;
}

void acquire_now(const void* addr) {
    if (!in_kernel() || !g_fenced) return;  // every release so far has clock 0
    PublishState& s = g_publish;
    const auto it = s.released.find(addr);
    if (it == s.released.end()) return;
    const std::uint32_t block = running_block();
    for (const auto& [writer, clock] : it->second)
        if (writer != block) {
            std::uint32_t& have = s.acquired[pair_key(block, writer)];
            have = std::max(have, clock);
        }
}

WordsTouched words_touched(const unsigned char* base) {
    WordsTouched t;
    const auto it = g_global.find(base);
    if (it == g_global.end() || it->second.words.get() == nullptr) return t;
    const std::uint64_t first = current_launch()->launch_first_interval;
    const Word* w = it->second.words.get();
    const auto written = [&](const Word& r) { return r.w_thread != kNone && r.w_interval >= first; };
    const auto read = [&](const Word& r) {
        return (r.r_thread != kNone && r.r_interval >= first) || (written(r) && r.w_atomic);
    };
    for (std::size_t i = 0, count = (it->second.bytes + 3) / 4; i < count; ++i) {
        if (w[i].w_thread != kSplit) {
            t.written += written(w[i]);
            t.read += read(w[i]);
            continue;
        }
        // A split word counts as the word its bytes are.
        const auto bytes = it->second.split.find(i);
        if (bytes == it->second.split.end()) continue;
        bool any_written = false, any_read = false;
        for (const Word& b : bytes->second) {
            any_written = any_written || written(b);
            any_read = any_read || read(b);
        }
        t.written += any_written;
        t.read += any_read;
    }
    return t;
}

void memcheck_end_launch() {
    g_shared.clear();
    g_publish = PublishState{};
    g_fenced = false;
    g_publish_pending = false;
    g_syncwarp_seen = false;
    // Shadows of freed allocations go; live ones stay, made stale by the interval numbers.
    g_last = g_before_last = {};
    for (auto it = g_global.begin(); it != g_global.end();) {
        const auto a = allocations().find(it->first);
        it = (a == allocations().end() || a->second.bytes != it->second.bytes) ? g_global.erase(it) : std::next(it);
    }
}

}  // namespace simt::detail
