// Data that goes to the host and comes back (simt/runtime.hpp,
// count_host_traffic), so that a scan done on the host is told from one done
// on the GPU even where a kernel copied the host's answer into the output.
// Device memory here is cudaMalloc's and `__device__` variables; the host
// reads the rest (pageable, pinned, registered and managed memory). Counted,
// in bytes:
// - to the host: what a copy (cudaMemcpy and every call built on it, whatever
//   direction it names) takes from device memory into memory the host reads,
//   and what a kernel stores into pinned, registered or managed memory;
// - host data: what a copy brings from pageable memory once something went to
//   the host, and what the host changed in pinned, registered or managed
//   memory since the device last wrote it (each such allocation is compared
//   with a copy of what the device left there, before every launch and every
//   copy or memset that involves it: the host's own stores are not seen);
// - where host data went: an allocation's `from_host`, carried by copies, and
//   by each launch from the allocations it read into those it wrote (the
//   memory checks' shadow words tell which words a launch read and wrote),
//   at most the allocation's size. A launch that also read the allocation it
//   wrote carries none of that allocation's own into it.
#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "internal.hpp"
#include "simt/runtime.hpp"

namespace simt::detail {
namespace {

std::size_t g_to_host = 0;  // since count_host_traffic
// What the device last left in each pinned, registered or managed
// allocation, by base; a new one's is all zeros (as a new allocation is).
std::map<const unsigned char*, std::vector<unsigned char>> g_device_left;

bool host_reads(MemoryKind k) { return k != MemoryKind::Device && k != MemoryKind::Variable; }

void add_host_data(const Allocation& a, std::size_t bytes) { a.from_host = std::min(a.bytes, a.from_host + bytes); }

std::vector<unsigned char>& device_left(const unsigned char* base, const Allocation& a) {
    std::vector<unsigned char>& left = g_device_left[base];
    left.resize(a.bytes);
    return left;
}

// The words of host-read allocation `base` that the host changed since the
// device last wrote there are host data once something went to the host.
void catch_up(const unsigned char* base, const Allocation& a) {
    std::vector<unsigned char>& left = device_left(base, a);
    std::size_t changed = 0;
    for (std::size_t at = 0; at < a.bytes; at += 4) {
        const std::size_t size = std::min<std::size_t>(4, a.bytes - at);
        if (std::memcmp(left.data() + at, base + at, size) != 0) {
            ++changed;
            std::memcpy(left.data() + at, base + at, size);
        }
    }
    if (g_to_host > 0) add_host_data(a, changed * 4);
}

// The device wrote [p, p + bytes) of host-read allocation `base`.
void device_wrote(const unsigned char* base, const Allocation& a, const void* p, std::size_t bytes) {
    const auto* q = static_cast<const unsigned char*>(p);
    std::memcpy(device_left(base, a).data() + (q - base), q, bytes);
}

const std::pair<const unsigned char* const, Allocation>* host_read(const void* p) {
    const auto* a = containing(p);
    return a != nullptr && host_reads(a->second.kind) ? a : nullptr;
}

}  // namespace

void traffic_before_copy(const void* dst, const void* src) {
    if (const auto* a = host_read(src)) catch_up(a->first, a->second);
    if (const auto* a = host_read(dst); a != nullptr && dst != src) catch_up(a->first, a->second);
}

void traffic_after_copy(const void* dst, const void* src, std::size_t bytes) {
    const auto* from = containing(src);
    const auto* to = containing(dst);
    const bool from_device = from != nullptr && !host_reads(from->second.kind);
    const bool to_device = to != nullptr && !host_reads(to->second.kind);
    if (from_device && !to_device) g_to_host += bytes;
    if (to == nullptr) return;
    // Pageable memory holds the host's own data.
    add_host_data(to->second, from == nullptr ? (g_to_host > 0 ? bytes : 0) : std::min(bytes, from->second.from_host));
    if (!to_device) device_wrote(to->first, to->second, dst, bytes);
}

void traffic_after_set(const void* dst, std::size_t bytes) {
    if (const auto* a = host_read(dst)) device_wrote(a->first, a->second, dst, bytes);
}

void traffic_begin_launch() {
    adopt_device_variables();
    for (const auto& [base, a] : g_allocations)
        if (host_reads(a.kind)) catch_up(base, a);
}

void traffic_end_launch() {
    // The host data the launch read, from each allocation and in all.
    std::map<const unsigned char*, std::size_t> read;
    std::size_t all = 0;
    for (const auto& [base, a] : g_allocations)
        if (a.from_host > 0)
            if (const std::size_t bytes = std::min(a.from_host, words_touched(base).read * 4); bytes > 0) {
                read[base] = bytes;
                all += bytes;
            }
    for (const auto& [base, a] : g_allocations) {
        if (all == 0 && !host_reads(a.kind)) continue;
        const std::size_t written = std::min(a.bytes, words_touched(base).written * 4);
        if (written == 0) continue;
        if (host_reads(a.kind)) {
            g_to_host += written;
            device_wrote(base, a, base, a.bytes);  // the host changed nothing while the launch ran
        }
        const auto own = read.find(base);
        add_host_data(a, std::min(written, all - (own == read.end() ? 0 : own->second)));
    }
}

void traffic_forget(const unsigned char* base) { g_device_left.erase(base); }

}  // namespace simt::detail

namespace simt {

void count_host_traffic() {
    detail::adopt_device_variables();
    detail::g_to_host = 0;
    for (const auto& [base, a] : detail::g_allocations) {
        a.from_host = 0;
        if (detail::host_reads(a.kind)) detail::catch_up(base, a);  // what the host wrote before is not counted
    }
}

std::size_t bytes_to_host() { return detail::g_to_host; }

std::size_t host_data_in(const void* device_ptr) {
    const auto it = detail::g_allocations.find(static_cast<const unsigned char*>(device_ptr));
    return it == detail::g_allocations.end() ? 0 : it->second.from_host;
}

}  // namespace simt
