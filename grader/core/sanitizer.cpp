#include "grader/core/sanitizer.hpp"

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

unsigned long long number(std::string digits) {  // "1,024"
    digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
    return digits.empty() ? 0 : std::stoull(digits);
}

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
    std::vector<std::pair<std::string, Finding>> groups;
    std::string kernel, location, block, thread_of;  // the report being read
    const auto add = [&](const std::string& key, const std::string& kind, bool undefined, const std::string& check,
                         const std::string& message) -> Finding& {
        for (auto& [k, g] : groups)
            if (k == key) {
                ++g.reports;
                return g;
            }
        Finding f;
        f.source = finding::Source::Sanitizer;
        f.tool = tool;
        f.kind = kind;
        f.undefined = undefined;
        f.check = check;
        f.kernel = kernel;
        if (!location.empty()) f.lines.push_back(location);
        f.block = block;
        f.thread = thread_of;
        f.reports = 1;
        f.message = message;
        groups.push_back({key, std::move(f)});
        return groups.back().second;
    };

    for (const Record& r : records(output)) {
        std::smatch m;
        std::string who;
        kernel.clear();
        location.clear();
        block.clear();
        thread_of.clear();
        where(r.head, kernel, location);
        for (const auto& l : r.more) {
            if (l.rfind("Host Frame", 0) == 0) continue;
            where(l, kernel, location);
            std::smatch t;
            if (who.empty() && std::regex_search(l, t, thread)) {
                block = "(" + t[2].str() + ")";
                thread_of = "(" + t[1].str() + ")";
                who = "block " + block + ", thread " + thread_of;
            }
        }
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
            location.clear();  // the race's two lines, below
            Finding& g = add("race " + kernel + m[1].str() + first_at + second + second_at, "race", false,
                             "data race on shared memory",
                             std::string(access(m[1])) + " at " + first_at + " and " + access(second) + " at " + second_at +
                                 " by threads of one block with no barrier between them");
            if (g.lines.empty())
                for (const std::string* at : {&first_at, &second_at})
                    if (!at->empty() && std::find(g.lines.begin(), g.lines.end(), *at) == g.lines.end())
                        g.lines.push_back(*at);
            g.hazards += hazards;
            g.pairs += pairs;
        } else if (std::regex_search(r.head, m, invalid)) {
            std::string text = place, allocation;
            for (const auto& l : r.more) {
                std::smatch near;
                if (std::regex_search(l, near, nearest)) {
                    allocation = "an allocation of " + near[3].str() + " bytes";
                    text += ", " + near[1].str() + " bytes " + (near[2] == "after" ? "past the end of" : "before the start of") +
                            " " + allocation;
                }
            }
            Finding& f = add("oob " + m[1].str() + m[2].str() + kernel + location, "memory", true,
                             "out-of-bounds " + m[2].str() + " of " + m[3].str() + " bytes to " + space(m[1]) + " memory",
                             text);
            if (f.reports == 1) f.allocation = allocation;
        } else if (std::regex_search(r.head, m, uninit)) {
            add("uninit " + kernel + location, "memory", false,
                "uninitialized " + std::string(space(m[1])) + " memory " + m[2].str() + " of " + m[3].str() + " bytes",
                place + ", memory nothing wrote (cudaMalloc does not clear it)");
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
            kernel.clear();  // a leak is the host's
            location = at;
            Finding& f = add("leak " + at, "leak", false, "device memory leaked",
                             m[1].str() + " bytes" + (at.empty() ? "" : " allocated at " + at) +
                                 " and never freed (cudaFree every temporary)");
            if (f.reports == 1) {
                f.bytes = number(m[1].str());
                f.allocations = 1;
            }
        } else if (r.head.rfind("Barrier error", 0) == 0) {
            std::string what = r.head;
            const std::string lead = "Barrier error detected. ";
            if (what.rfind(lead, 0) == 0) what.erase(0, lead.size());
            if (!what.empty() && what.back() == '.') what.pop_back();
            add("barrier " + kernel + location, "barrier", true, "barrier divergence",
                place + ": " + what + " (a __syncthreads() that not every thread of the block reaches)");
        }
    }
    std::vector<Finding> out;
    for (auto& [key, g] : groups) out.push_back(std::move(g));
    return out;
}

SanitizerRuns split_sanitizer_runs(const std::string& output, std::size_t limit, std::size_t per_run) {
    static const std::regex begins(R"(^scan-run: run ([0-9]+) begins$)");
    static const std::regex ended(R"(^scan-run: run ([0-9]+) ended$)");
    SanitizerRuns out;
    std::string banner;
    std::size_t printed = 0;  // reports in all
    bool cut = false;         // the tool printed `limit` of them
    bool in_report = false;   // the line before was a counted report's, or its continuation
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_match(line, m, begins)) {
            out.outputs.push_back(banner);
            out.reports.push_back(0);
            in_report = false;
            continue;
        }
        if (std::regex_match(line, m, ended)) continue;
        if (out.outputs.empty()) {  // before the first run: the banner
            banner += line + "\n";
            continue;
        }
        // A report: a line after the prefix that is neither indented, blank
        // nor a summary; its continuation lines are indented or blank. A
        // run's reports past per_run are left out, continuations and all.
        const bool tool_line = line.rfind(kPrefix, 0) == 0;
        const std::string body = tool_line ? line.substr(std::string(kPrefix).size()) : "";
        const bool report = tool_line && !body.empty() && body[0] != ' ' && body.find("SUMMARY") == std::string::npos &&
                            body.rfind("Target application returned", 0) != 0;  // its exit code, not a report
        if (report) {
            ++printed;
            in_report = ++out.reports.back() <= per_run;
            if (printed == limit && !cut) {
                cut = true;
                out.complete = out.outputs.size() - (out.reports.back() >= per_run ? 0 : 1);
            }
            if (!in_report) continue;
        } else if (tool_line && (body.empty() || body[0] == ' ')) {
            if (!in_report) continue;
        } else {
            in_report = false;
        }
        out.outputs.back() += line + "\n";
    }
    if (!cut) out.complete = out.outputs.size();
    return out;
}

Finding sanitizer_hung(const std::string& tool, const std::string& function, const std::string& seconds) {
    Finding f;
    f.source = finding::Source::Sanitizer;
    f.tool = tool;
    f.function = function;
    f.kind = "barrier";
    f.undefined = true;
    f.check = "deadlock";
    f.message = function + " did not finish in " + seconds +
                " s; is a __syncthreads() inside a loop or branch some threads leave?";
    return f;
}

Finding sanitizer_failed(const std::string& tool, const std::string& function, const std::string& problem) {
    Finding f;
    f.source = finding::Source::Sanitizer;
    f.tool = tool;
    f.function = function;
    f.kind = tool == "racecheck" ? "race" : tool == "synccheck" ? "barrier" : "memory";
    f.check = "the run failed";
    f.message = problem;
    return f;
}

}  // namespace grader
