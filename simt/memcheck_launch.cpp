// The memory checks across a launch: its start, the shared arrays of
// a block put aside and put back, their declarations (namespace-scope ones
// taken in at a block's first access), and trace mode.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "internal.hpp"
#include "memcheck.hpp"
#include "simt/runtime.hpp"

namespace simt::detail {
namespace {

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

}  // namespace

std::size_t take_static_shared() {
    const std::size_t bytes = g_static_shared;
    g_static_shared = 0;
    return bytes;
}

void memcheck_begin_launch() {
    adopt_device_variables();
    g_shared.clear();
    if (const std::size_t bytes = dynamic_shared_size(); bytes > 0) {
        const auto* base = static_cast<const unsigned char*>(dynamic_shared());
        g_shared.push_back({base, bytes, 1, {}, "extern __shared__ memory", 0, std::vector<SharedWord>((bytes + 3) / 4), nullptr});
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

namespace {

// The file's `__shared__` variables at namespace scope (registered at
// start-up), and where the running thread's copies of them are.
struct StaticShared {
    SharedAddress address;
    std::size_t bytes, element_bytes;
    std::vector<std::size_t> extents;
    const char* name;
    int line;
    ElementFormatter format;
};
std::vector<StaticShared>& static_shared() {
    static std::vector<StaticShared> variables;
    return variables;
}
struct StaticHere {
    const unsigned char* base;
    const StaticShared* variable;
};
thread_local std::vector<StaticHere> t_static_here;

}  // namespace

bool adopt_static_shared(const unsigned char* p) {
    const std::vector<StaticShared>& variables = static_shared();
    if (variables.empty()) return false;
    if (t_static_here.size() != variables.size()) {
        t_static_here.clear();
        for (const StaticShared& v : variables)
            t_static_here.push_back({static_cast<const unsigned char*>(const_cast<const void*>(v.address())), &v});
    }
    // The variable that holds p, else one p is just outside of (as
    // check_access tells a declared array's neighbourhood).
    const StaticHere* found = nullptr;
    for (const StaticHere& h : t_static_here) {
        if (p >= h.base && p < h.base + h.variable->bytes) {
            found = &h;
            break;
        }
        if (found == nullptr && p + 64 > h.base && p < h.base + h.variable->bytes + 64) found = &h;
    }
    if (found == nullptr) return false;
    for (const SharedArray& a : g_shared)
        if (a.base == found->base) return false;  // the block has it already
    const StaticShared& v = *found->variable;
    declare_shared_array(found->base, v.bytes, v.element_bytes, v.extents.data(), v.extents.size(), v.name, v.line,
                         v.format);
    return true;
}

}  // namespace simt::detail

void simt::declare_static_shared_array(SharedAddress address, std::size_t bytes, std::size_t element_bytes,
                                       const std::size_t* extents, std::size_t rank, const char* name, int line,
                                       ElementFormatter format) {
    simt::detail::static_shared().push_back(
        {address, bytes, element_bytes, std::vector<std::size_t>(extents, extents + rank), name, line, format});
}

void simt::declare_shared_array(const void* base, std::size_t bytes, std::size_t element_bytes,
                                const std::size_t* extents, std::size_t rank, const char* name, int line,
                                ElementFormatter format) {
    using namespace simt::detail;
    const auto* p = static_cast<const unsigned char*>(base);
    for (const auto& a : g_shared)
        if (a.base == p) return;  // the block's other threads
    g_shared.push_back({p, bytes, element_bytes, std::vector<std::size_t>(extents, extents + rank), name, line,
                        std::vector<SharedWord>((bytes + 3) / 4), format});
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
    simt::detail::g_trace = {};
    simt::detail::g_trace.on = true;
    simt::detail::g_trace.array = array;
    simt::detail::g_trace.block = block;
    simt::detail::g_trace.elements = elements;
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
