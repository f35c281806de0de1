#include "finding_place.hpp"

#include <algorithm>

namespace finding {
namespace {

// "scan.cu:24" -> {"scan.cu", 24}; nothing for what is not FILE:LINE.
bool parse(const std::string& at, Place& p) {
    const auto colon = at.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == at.size() || at.size() - colon > 8 ||
        at.find_first_not_of("0123456789", colon + 1) != std::string::npos)
        return false;
    p.file = at.substr(0, colon);
    p.line = static_cast<unsigned>(std::stoul(at.substr(colon + 1)));
    return p.line > 0 && p.file.find('/') == std::string::npos && p.file.find(' ') == std::string::npos;
}

}  // namespace

std::vector<Place> places(const Finding& f) {
    std::vector<Place> out;
    const auto add = [&](const std::string& at, bool launch, unsigned column) {
        Place p;
        p.launch = launch;
        p.column = column;
        if (!parse(at, p)) return;
        const bool seen = std::any_of(out.begin(), out.end(),
                                      [&](const Place& q) { return q.file == p.file && q.line == p.line; });
        if (!seen) out.push_back(p);
    };
    for (std::size_t k = 0; k < f.lines.size(); ++k) add(f.lines[k], false, k < f.columns.size() ? f.columns[k] : 0);
    add(f.launch, true, 0);
    return out;
}

Severity severity(const Finding& f) { return f.kind == "leak" ? Severity::warning : Severity::error; }

const char* name(Severity s) { return s == Severity::warning ? "warning" : "error"; }

std::vector<std::string> diagnostic(const Finding& f, const std::string& folder) {
    const std::string prefix = folder.empty() || folder.back() == '/' ? folder : folder + "/";
    const std::vector<Place> at = places(f);
    const std::string head = std::string(name(severity(f))) + ": " + sentence(f);
    if (at.empty()) return {prefix + "scan.cu: " + head};
    const auto where = [&](const Place& p) {
        return prefix + p.file + ":" + std::to_string(p.line) + (p.column ? ":" + std::to_string(p.column) : "");
    };
    std::vector<std::string> out = {where(at.front()) + ": " + head};
    for (std::size_t i = 1; i < at.size(); ++i)
        out.push_back(where(at[i]) + ": note: " +
                      (at[i].launch ? "the kernel was launched here" : "a line this finding involves"));
    return out;
}

}  // namespace finding
