#include "finding.hpp"

#include <tuple>

namespace finding {
namespace {

std::string (*g_reword)(const std::string&) = nullptr;

// A fixed part of a template, as worded now.
std::string w(const std::string& part) { return g_reword ? g_reword(part) : part; }

std::string count(unsigned long long n) { return std::to_string(n); }

}  // namespace

void set_rewording(std::string (*reword)(const std::string& part)) { g_reword = reword; }

std::string sentence(const Finding& f) {
    const std::string in_kernel = f.kernel.empty() ? "" : w(" in kernel ") + f.kernel;
    switch (f.source) {
        case Source::Emulator: {
            const unsigned long long more = f.blocks > 1 ? f.blocks - 1 : 0;
            return f.check + in_kernel + w(": ") + f.message +
                   (more == 0   ? ""
                    : more == 1 ? w(" (and ") + count(more) + w(" more block)")
                                : w(" (and ") + count(more) + w(" more blocks)")) +
                   w("; launched at ") + f.launch;
        }
        case Source::Harness:
            return count(f.bytes) + w(" bytes in ") + count(f.allocations) + w(" allocation(s) still live after ") +
                   f.function + w(" returned (cudaFree every temporary)");
        case Source::Sanitizer:
            return f.check + in_kernel + w(": ") + f.message +
                   (f.pairs > 1 ? w(" (") + count(f.pairs) + w(" access pairs at these lines)") : "") +
                   (f.hazards ? w(", ") + count(f.hazards) + w(" hazards") : "") +
                   (f.reports > 1 ? w(" (") + count(f.reports) + w(" reports printed)") : "") + w(" (compute-sanitizer ") +
                   f.tool + (f.function.empty() ? "" : w(" on ") + f.function) + w(")");
        case Source::Withheld:
            return f.kind + w(" finding on ") + f.message + w(" (details shown after grades are published)");
    }
    return f.message;
}

bool same_but_blocks(const Finding& a, const Finding& b) {
    const auto fields = [](const Finding& f) {
        return std::tie(f.source, f.kind, f.undefined, f.tool, f.check, f.kernel, f.function, f.lines, f.launch, f.block,
                        f.thread, f.allocation, f.bytes, f.allocations, f.reports, f.pairs, f.hazards, f.message);
    };
    return fields(a) == fields(b);
}

bool operator==(const Finding& a, const Finding& b) { return same_but_blocks(a, b) && a.blocks == b.blocks; }

void note(std::vector<Finding>& list, const Finding& f, std::size_t most) {
    for (const Finding& had : list)
        if (same_but_blocks(had, f)) return;
    if (list.size() < most) list.push_back(f);
}

Finding leak(unsigned long long bytes, unsigned long long allocations, const std::string& function) {
    Finding f;
    f.source = Source::Harness;
    f.kind = "leak";
    f.check = "device memory leaked";
    f.function = function;
    f.bytes = bytes;
    f.allocations = allocations;
    return f;
}

Finding withheld(const Finding& f, const std::string& what) {
    Finding out;
    out.source = Source::Withheld;
    out.kind = f.kind;
    out.message = what;
    return out;
}

}  // namespace finding
