// The memory checks' reports of accesses a kernel must not make (memory that
// is not there, host memory, a misaligned pointer, a fault the hooks did not
// see), and the checks of the cache-hinted loads and stores.
#include <cstdio>
#include <string>

#include "internal.hpp"
#include "memcheck.hpp"

namespace simt::detail {

// "at offset 128 of a 128-byte device allocation (past its end)"
std::string outside(std::ptrdiff_t offset, const std::string& what) {
    return "at offset " + std::to_string(offset) + " of " + what + " (" + (offset < 0 ? "before its start" : "past its end") +
           ")";
}

// "thread 5 read 4 bytes", for a report of the running thread's access
// (size 0: not known, as in a fault).
std::string access_by_thread(bool write, std::size_t size) {
    return "thread " + std::to_string(current_thread()) + (write ? " wrote" : " read") +
           (size ? " " + std::to_string(size) + " bytes" : std::string());
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

namespace {

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

}  // namespace

// The report of an access to memory that is not there, or not the kernel's,
// which the running thread must not make (the launch stops before it): in an
// allocation's guard pages (out of bounds by so much), at an address where
// nothing is mapped (an uninitialised pointer, an index far out of range), or
// in host memory. `at`: " at scan.cu:22", naming `line`. Spelled out even where the check
// already has a report in this launch (an access just past the end, made
// before), after it: the stop explains the outputs left unwritten.
void report_forbidden(const unsigned char* p, std::size_t size, bool write, const std::string& at,
                      const std::string& line, const void* pc) {
    std::string check = "out-of-bounds access", message = access_by_thread(write, size);
    LaunchState& launch = *current_launch();
    ReportDetail detail{launch.block_idx};
    detail.line(line, pc).thread = current_thread();
    if (const auto* a = allocation_around(p)) {
        detail.allocation = device_allocation(a->second);
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
    message = block_name(launch.block_idx) + ": " + message;
    if (launch.reports.has(check)) {
        LaunchReports::Report& first = launch.reports.by_check.at(check);
        first.first_message += "; then " + message;
        first.detail.line(line, pc);
    }
    launch.reports.add(check, Kind::memory, launch.block_serial, message, std::move(detail));
}

namespace {

// Only in device allocations (256-byte aligned, as CUDA's) and shared arrays
// (16-byte aligned): where a local array lands on a GPU is the compiler's.
// Returns whether it was reported.
bool report_misaligned(const unsigned char* p, std::size_t alignment, const char* type, const void* pc) {
    std::string from, allocation;
    if (const auto* a = allocation_around(p)) {
        allocation = device_allocation(a->second);
        from = "byte offset " + std::to_string(p - a->first) + " of " + allocation;
    } else if (const SharedArray* s = shared_array_at(p)) {
        allocation = s->name;
        from = "byte offset " + std::to_string(p - s->base) + " of " + allocation;
    } else {
        return false;
    }
    report("misaligned address", Kind::memory, [&](ReportDetail& d) {
        d.line(source_line(pc), pc).thread = current_thread();
        d.allocation = allocation;
        return "thread " + std::to_string(current_thread()) + " made a " + type + " from " + from + ", not a multiple of " +
               std::to_string(alignment) + ", at " + source_line(pc) +
               ": its loads and stores are misaligned, which stops a kernel on a GPU (misaligned address); the launch "
               "stopped there";
    });
    return true;
}

}  // namespace

}  // namespace simt::detail

// A cache-hinted load or store (thread.hpp) by the running thread, as ptxas
// compiles it for an H100 (conformance/probes/publication.cu, simt/docs/warp.md):
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
        report("invalid address space", Kind::memory, [&](ReportDetail& d) {
            d.line(source_line(pc), pc).thread = current_thread();
            if (a) d.allocation = a->name;
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
    const void* at = static_cast<const unsigned char*>(pc) + 1;
    const std::string line = source_line(at);
    report_forbidden(static_cast<const unsigned char*>(address), 0, write, " at " + line + " (a fault)", line, at);
}

}  // namespace simt::detail

namespace simt::detail {

// "thread 0 read 4 bytes at offset 0 of a 128-byte device allocation
// (allocated at scan.cu:40) at scan.cu:17, and nothing wrote bytes 1-3: ..."
void report_unwritten(const Allocation& a, std::size_t offset, std::size_t size, std::size_t first, std::size_t last,
                      bool atomic, const std::string& line, const void* pc) {
    report("uninitialized global memory read", Kind::uninitialised, [&](ReportDetail& d) {
        d.line(line, pc).thread = current_thread();
        d.allocation = device_allocation(a);
        std::string at = a.allocated_at != nullptr ? source_line(a.allocated_at) : std::string();
        if (a.site_file != nullptr) {
            const std::string file = a.site_file;
            at = file.substr(file.find_last_of('/') + 1) + ":" + std::to_string(a.site_line);
        }
        const std::string where = at.empty() || at[0] == '?' ? std::string() : " (allocated at " + at + ")";
        return access_by_thread(false, size) + (atomic ? " with an atomic (which reads the old value)" : "") +
               " at offset " + std::to_string(offset) + " of " + device_allocation(a) + where + " at " + line +
               ", and nothing wrote " +
               (first == last ? "byte " + std::to_string(first) : "bytes " + std::to_string(first) + "-" + std::to_string(last)) +
               ": cudaMalloc leaves memory as it was (write it with cudaMemset, cudaMemcpy or a kernel before reading it)";
    });
}

}  // namespace simt::detail
