// What is not host data: the places a kernel legitimately touches besides
// shared arrays and device allocations (the memory checks' last question
// before reporting an access to host data).
#include <link.h>
#include <pthread.h>

#include <cstddef>
#include <vector>

#include "internal.hpp"
#include "memcheck.hpp"
#include "scheduler.hpp"

namespace simt::detail {
namespace {

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

}  // namespace

void find_launching_thread_stack() {
    pthread_attr_t attr;
    void* addr = nullptr;
    std::size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
        pthread_attr_getstack(&attr, &addr, &size);
        pthread_attr_destroy(&attr);
    }
    const auto* low = static_cast<const unsigned char*>(addr);
    g_launcher_stack = {low, low + size};
}

bool is_program_memory(const unsigned char* p) {
    if (p >= simt_dynamic_shared_memory && p < simt_dynamic_shared_memory + kMaxDynamicSharedOptin) return false;
    if (on_fiber_stack(p) || on_launching_thread_stack(p) || in_static_tls(p)) return true;
    for (const Range& r : image_ranges())
        if (r.contains(p)) return true;
    return false;
}

}  // namespace simt::detail
