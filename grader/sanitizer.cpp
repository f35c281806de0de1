#include "sanitizer.hpp"

#include <algorithm>
#include <regex>
#include <sstream>

namespace grader {
namespace {

constexpr const char* kPrefix = "========= ";

// One report: its first line and its indented continuation lines.
struct Record {
    std::string head;
    std::vector<std::string> more;
};

std::vector<Record> records(const std::string& output) {
    std::vector<Record> out;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(kPrefix, 0) != 0) continue;
        line.erase(0, std::string(kPrefix).size());
        if (line.empty()) continue;
        if (line[0] == ' ') {
            if (!out.empty()) out.back().more.push_back(line.substr(line.find_first_not_of(' ')));
        } else out.push_back({line, {}});
    }
    return out;
}

// "at brent_kung_kernel(const float *, float *, unsigned int)+0x2d0 in /x/scan.cu:38" -> kernel, "scan.cu:38"
void where(const std::string& line, std::string& kernel, std::string& location) {
    static const std::regex at(R"(at ([A-Za-z_][A-Za-z0-9_:<>]*)[^ ]*.* in (?:.*/)?([^/ ]+:[0-9]+))");
    std::smatch m;
    if (std::regex_search(line, m, at)) {
        if (kernel.empty()) kernel = m[1];
        if (location.empty()) location = m[2];
    }
}

std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : b.empty() ? a : a + ", " + b; }

}  // namespace

std::vector<Finding> parse_sanitizer(const std::string& tool, const std::string& output) {
    static const std::regex race_head(R"(^Error: Race reported between (\w+) access at (.*)$)");
    static const std::regex race_more(R"(^and (\w+) access at (.*?)(?: \[([0-9,]+) hazards\])?$)");
    static const std::regex invalid(R"(^Invalid (__\w+__) (read|write|atomic)\w* of size ([0-9,]+) bytes?)");
    static const std::regex uninit(R"(^Uninitialized (__\w+__) memory (read|write)\w* of size ([0-9,]+) bytes?)");
    static const std::regex leak(R"(^Leaked ([0-9,]+) bytes? at)");
    static const std::regex thread(R"(by thread \(([0-9,]+)\) in block \(([0-9,]+)\))");
    static const std::regex nearest(R"(and is ([0-9,]+) bytes? (after|before) the nearest allocation at \S+ of size ([0-9,]+) bytes?)");
    static const std::regex frame(R"(in (?:.*/)?([^/ ]+\.cu:[0-9]+))");
    const auto space = [](const std::string& s) { return s == "__global__" ? "global" : s == "__shared__" ? "shared" : "local"; };
    const auto access = [](const std::string& kind) { return kind == "Read" ? "a read" : "a write"; };

    // A tool reports each thread apart: one finding per kind of error and
    // source line, with the first thread named and the rest counted.
    // Races are grouped by their two lines, their hazards summed.
    struct Group {
        Finding finding;
        std::size_t reports = 0;
        unsigned long hazards = 0;
        std::size_t pairs = 0;
    };
    std::vector<std::pair<std::string, Group>> groups;
    const auto add = [&](const std::string& key, Finding f) -> Group& {
        for (auto& [k, g] : groups)
            if (k == key) {
                ++g.reports;
                return g;
            }
        groups.push_back({key, {std::move(f), 1, 0, 0}});
        return groups.back().second;
    };

    for (const Record& r : records(output)) {
        std::smatch m;
        std::string kernel, location, who;
        where(r.head, kernel, location);
        for (const auto& l : r.more) {
            if (l.rfind("Host Frame", 0) == 0) continue;
            where(l, kernel, location);
            std::smatch t;
            if (who.empty() && std::regex_search(l, t, thread)) who = "block (" + t[2].str() + "), thread (" + t[1].str() + ")";
        }
        const std::string in_kernel = kernel.empty() ? "" : " in kernel " + kernel;
        const std::string place = join(who, location.empty() ? "" : "at " + location);
        if (std::regex_match(r.head, m, race_head)) {
            // The first pair named; the other accesses that raced with this one counted.
            std::string first_at, second, second_at, unused;
            where("at " + m[2].str(), unused, first_at);
            unsigned long hazards = 0;
            std::size_t pairs = 0;
            for (const auto& l : r.more) {
                std::smatch a;
                if (!std::regex_match(l, a, race_more)) continue;
                if (pairs++ == 0) {
                    second = a[1];
                    where("at " + a[2].str(), unused, second_at);
                }
                std::string count = a[3];
                count.erase(std::remove(count.begin(), count.end(), ','), count.end());
                if (!count.empty()) hazards += std::stoul(count);
            }
            Group& g = add("race " + kernel + m[1].str() + first_at + second + second_at,
                           {"race", "data race on shared memory" + in_kernel + ": " + access(m[1]) + " at " + first_at +
                                        " and " + access(second) + " at " + second_at +
                                        " by threads of one block with no barrier between them"});
            g.hazards += hazards;
            g.pairs += pairs;
        } else if (std::regex_search(r.head, m, invalid)) {
            std::string text = "out-of-bounds " + m[2].str() + " of " + m[3].str() + " bytes to " + space(m[1]) + " memory" +
                               in_kernel + ": " + place;
            for (const auto& l : r.more) {
                std::smatch near;
                if (std::regex_search(l, near, nearest))
                    text += ", " + near[1].str() + " bytes " + (near[2] == "after" ? "past the end of" : "before the start of") +
                            " an allocation of " + near[3].str() + " bytes";
            }
            add("oob " + m[1].str() + m[2].str() + kernel + location, {"memory", text});
        } else if (std::regex_search(r.head, m, uninit)) {
            add("uninit " + kernel + location,
                {"memory", "uninitialized " + std::string(space(m[1])) + " memory " + m[2].str() + " of " + m[3].str() +
                               " bytes" + in_kernel + ": " + place + ", memory nothing wrote (cudaMalloc does not clear it)"});
        } else if (std::regex_search(r.head, m, leak)) {
            // The allocation's line: the first host frame in a .cu file (not the harness's wrapper).
            std::string at;
            for (const auto& l : r.more) {
                std::smatch f;
                if (l.rfind("Host Frame", 0) == 0 && std::regex_search(l, f, frame)) {
                    at = f[1];
                    break;
                }
            }
            add("leak " + at, {"leak", "device memory leaked: " + m[1].str() + " bytes" + (at.empty() ? "" : " allocated at " + at) +
                                           " and never freed (cudaFree every temporary)"});
        } else if (r.head.rfind("Barrier error", 0) == 0) {
            std::string what = r.head;
            const std::string lead = "Barrier error detected. ";
            if (what.rfind(lead, 0) == 0) what.erase(0, lead.size());
            if (!what.empty() && what.back() == '.') what.pop_back();
            add("barrier " + kernel + location,
                {"barrier", "barrier divergence" + in_kernel + ": " + place + ": " + what +
                                " (a __syncthreads() that not every thread of the block reaches)"});
        }
    }
    std::vector<Finding> out;
    for (auto& [key, g] : groups) {
        if (g.pairs > 1) g.finding.text += " (" + std::to_string(g.pairs) + " access pairs at these lines)";
        if (g.hazards) g.finding.text += ", " + std::to_string(g.hazards) + " hazards";
        if (g.reports > 1) g.finding.text += " (" + std::to_string(g.reports) + " reports printed)";
        out.push_back({g.finding.category, g.finding.text + " (compute-sanitizer " + tool + ")"});
    }
    return out;
}

}  // namespace grader
