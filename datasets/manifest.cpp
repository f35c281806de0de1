#include "manifest.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace datasets {
namespace {

bool parse_unsigned(const std::string& text, unsigned long long& out) {
    if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos) return false;
    errno = 0;
    out = std::strtoull(text.c_str(), nullptr, 10);
    return errno == 0;
}

}  // namespace

std::vector<Entry> read_manifest(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ManifestError(path + ": cannot open: " + std::strerror(errno));
    std::vector<Entry> entries;
    std::string line;
    for (std::size_t lineno = 1; std::getline(in, line); ++lineno) {
        line = line.substr(0, line.find('#'));
        std::istringstream fields(line);
        std::string cls, dist, n, seed, extra;
        if (!(fields >> cls)) continue;  // blank or comment
        const std::string where = path + ":" + std::to_string(lineno) + ": ";
        if (!(fields >> dist >> n >> seed) || (fields >> extra))
            throw ManifestError(where + "expected 'class distribution n seed'");
        Entry e;
        e.cls = cls;
        const auto d = parse_distribution(dist);
        if (!d) throw ManifestError(where + "unknown distribution '" + dist + "' (walk1, walk4, uniform)");
        e.spec.dist = *d;
        unsigned long long value = 0;
        if (!parse_unsigned(n, value)) throw ManifestError(where + "n is not a non-negative integer: '" + n + "'");
        e.spec.n = value;
        if (!parse_unsigned(seed, value)) throw ManifestError(where + "seed is not a non-negative integer: '" + seed + "'");
        e.spec.seed = value;
        entries.push_back(e);
    }
    return entries;
}

std::vector<std::string> classes(const std::vector<Entry>& entries) {
    std::vector<std::string> out;
    for (const auto& e : entries) {
        bool seen = false;
        for (const auto& c : out) seen = seen || c == e.cls;
        if (!seen) out.push_back(e.cls);
    }
    return out;
}

}  // namespace datasets
