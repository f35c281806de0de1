#include "finding.hpp"

#include <cstdlib>
#include <set>
#include <tuple>
#include <utility>

namespace finding {
namespace {

std::string (*g_reword)(const std::string&) = nullptr;

// A fixed part of a template, as worded now.
std::string w(const std::string& part) { return g_reword ? g_reword(part) : part; }

std::string count(unsigned long long n) { return std::to_string(n); }

std::string joined(const std::vector<std::string>& parts, const std::string& between) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : between) + p;
    return out;
}

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
        return std::tie(f.source, f.kind, f.undefined, f.tool, f.check, f.kernel, f.function, f.lines, f.columns, f.launch, f.block,
                        f.thread, f.allocation, f.bytes, f.allocations, f.reports, f.pairs, f.hazards, f.message);
    };
    return fields(a) == fields(b);
}

std::vector<std::string> sorted_lines(const Finding& f) {
    std::set<std::pair<std::string, unsigned long>> lines;
    for (const std::string& at : f.lines) {
        const std::size_t colon = at.rfind(':');
        lines.insert({at.substr(0, colon), colon == std::string::npos ? 0 : std::strtoul(at.c_str() + colon + 1, nullptr, 10)});
    }
    std::vector<std::string> out;
    for (const auto& [file, line] : lines) out.push_back(file + ":" + std::to_string(line));
    return out;
}

std::string problem_key(const Finding& f) {
    // A withheld one says only its kind and dataset: one problem per dataset.
    if (f.source == Source::Withheld) return "withheld|" + f.kind + "|" + f.message;
    return "finding|" + f.check + "|" + f.kernel + "|" + joined(sorted_lines(f), ",") + "|launched at " + f.launch;
}

std::string title(const Finding& f) {
    const std::vector<std::string> lines = sorted_lines(f);
    return f.check + (f.kernel.empty() ? "" : " in kernel " + f.kernel) + (lines.empty() ? "" : " at " + joined(lines, ", "));
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
