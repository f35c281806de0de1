#include "grader/outputs/distinct_findings.hpp"

#include <algorithm>

namespace grader {

namespace {

std::string key(const Finding& f) {
    if (f.source == finding::Source::Withheld) return "withheld|" + f.kind;  // its message is the dataset
    return f.kind + "|" + finding::problem_key(f) + "|" + f.function;
}

std::string plural(unsigned long long n, const std::string& word) {
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// What of a finding changes with the dataset, where the finding counts it.
std::string size_of(const Finding& f) {
    switch (f.source) {
        case finding::Source::Emulator: return f.blocks ? plural(f.blocks, "block") : "";
        case finding::Source::Harness: return std::to_string(f.bytes) + " bytes";
        case finding::Source::Sanitizer: return f.reports ? plural(f.reports, "report") : "";
        case finding::Source::Withheld: return f.message;
    }
    return "";
}

}  // namespace

std::vector<DistinctFinding> distinct_findings(const std::vector<Finding>& findings) {
    std::vector<DistinctFinding> out;
    std::vector<std::string> keys;
    for (const Finding& f : findings) {
        const std::string k = key(f);
        const auto at = std::find(keys.begin(), keys.end(), k);
        if (at == keys.end()) {
            keys.push_back(k);
            out.push_back({f, {size_of(f)}});
        } else {
            out[static_cast<std::size_t>(at - keys.begin())].sizes.push_back(size_of(f));
        }
    }
    return out;
}

std::string sizes_text(const DistinctFinding& d) {
    std::vector<std::string> sizes;
    for (const std::string& s : d.sizes)
        if (!s.empty() && std::find(sizes.begin(), sizes.end(), s) == sizes.end()) sizes.push_back(s);
    if (sizes.size() < 2) return "";
    std::string out = "seen at: ";
    for (std::size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + sizes[i];
    return out;
}

}  // namespace grader
