#include "grader/grading/library_symbols.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <string_view>
#include <tuple>

namespace grader {
namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// The libraries' versioned inline namespaces: they say whose a name is even
// where `cub` itself was renamed.
bool versioned(const std::string& name, const char* library) {
    const std::size_t n = std::char_traits<char>::length(library);
    return name.size() > n + 1 && name.compare(0, n, library) == 0 && name[n] == '_' &&
           std::isdigit(static_cast<unsigned char>(name[n + 1]));
}

// The library a namespace component marks: "CUB", "Thrust" or "".
const char* library_of(const std::string& component) {
    if (component == "cub" || versioned(component, "CUB")) return "CUB";
    if (component == "thrust" || versioned(component, "THRUST")) return "Thrust";
    return "";
}

// A name's components from `i` (an identifier's start), template arguments
// skipped (they are read as names of their own); `end` is where it stops.
std::vector<std::string> qualified_name(const std::string& s, std::size_t i, std::size_t& end) {
    std::vector<std::string> parts;
    for (;;) {
        std::size_t k = i;
        while (k < s.size() && ident(s[k])) ++k;
        parts.push_back(s.substr(i, k - i));
        i = k;
        if (parts.back() == "operator") break;
        if (i < s.size() && s[i] == '<') {
            int depth = 0;
            std::size_t j = i;
            for (; j < s.size(); ++j) {
                if (s[j] == '<') ++depth;
                else if (s[j] == '>' && --depth == 0) break;
            }
            if (j == s.size()) break;
            i = j + 1;
        }
        if (s.compare(i, 2, "::") == 0 && i + 2 < s.size() && ident_start(s[i + 2])) i += 2;
        else break;
    }
    end = i;
    return parts;
}

// For the feedback, the scan the student's code called before the parts it
// is made of: CUB's layers from the device-wide scan down to a thread's.
int layer(const std::string& name) {
    int best = 6, k = 0;
    for (const char* word : {"Device", "Dispatch", "Agent", "Block", "Warp", "Thread"}) {
        if (name.find(word) != std::string::npos) best = std::min(best, k);
        ++k;
    }
    return best;
}

}  // namespace

std::vector<LibraryScan> scans_in_symbol(const std::string& s) {
    std::vector<LibraryScan> out;
    int depth = 0;  // of <> and (): the symbol's own name is at 0, followed by its parameters
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (c == '<' || c == '(') ++depth;
        if ((c == '>' || c == ')') && depth > 0) --depth;
        // A name starts at an identifier not continuing one ("A::b", "A<x>::b");
        // "(anonymous namespace)::b" starts one.
        const bool continues = i >= 2 && s.compare(i - 2, 2, "::") == 0 && i >= 3 && s[i - 3] != ')';
        if (!ident_start(c) || (i > 0 && ident(s[i - 1])) || continues) {
            ++i;
            continue;
        }
        std::size_t end = i;
        const std::vector<std::string> parts = qualified_name(s, i, end);
        std::size_t marker = parts.size();
        for (std::size_t k = 0; k < parts.size() && marker == parts.size(); ++k)
            if (*library_of(parts[k])) marker = k;
        if (marker < parts.size()) {
            bool scan = false;
            for (std::size_t k = marker + 1; k < parts.size(); ++k) {
                const std::string l = lower(parts[k]);
                scan = scan || l.find("scan") != std::string::npos || l.find("prefix") != std::string::npos;
            }
            if (scan) {
                LibraryScan found{library_of(parts[marker]), "", depth == 0 && end < s.size() && s[end] == '(', 0};
                // Shown without the versioned namespace, unless that alone says whose it is.
                const bool named = parts[marker] == "cub" || parts[marker] == "thrust";
                for (std::size_t k = 0; k < parts.size(); ++k) {
                    if (named && *library_of(parts[k]) && parts[k] != "cub" && parts[k] != "thrust") continue;
                    found.name += (found.name.empty() ? "" : "::") + parts[k];
                    if (k > marker && (parts[k] == "detail" || parts[k] == "impl" || parts[k][0] == '_')) ++found.internal;
                }
                out.push_back(found);
            }
        }
        // Past the name's first identifier only: its template arguments are names too.
        while (i < s.size() && ident(s[i])) ++i;
    }
    return out;
}

std::vector<std::string> mangled_names(const std::string& bytes) {
    std::set<std::string> seen;
    std::vector<std::string> out;
    const auto name_char = [](char c) { return ident(c) || c == '.' || c == '$'; };
    for (std::size_t i = 0; i < bytes.size();) {
        if (!name_char(bytes[i])) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < bytes.size() && name_char(bytes[end])) ++end;
        // A stub's name ends in the kernel's: __device_stub__ZN3cub...
        const std::string_view run(bytes.data() + i, end - i);
        const std::size_t at = run.find("_Z");
        if (at != std::string_view::npos && at + 3 < run.size()) {
            const std::string name(run.substr(at));
            if (seen.insert(name).second) out.push_back(name);
        }
        i = end;
    }
    return out;
}

std::string demangle(const std::string& mangled) {
    int status = 0;
    char* text = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
    std::string out = status == 0 && text ? text : "";
    std::free(text);
    return out;
}

std::vector<LibraryScan> library_scans(const std::vector<std::string>& objects) {
    std::map<std::pair<std::string, std::string>, LibraryScan> found;
    for (const std::string& path : objects) {
        std::ifstream in(path, std::ios::binary);
        if (!in) continue;
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (const std::string& mangled : mangled_names(bytes))
            for (LibraryScan& scan : scans_in_symbol(demangle(mangled))) {
                auto [it, added] = found.insert({{scan.library, scan.name}, scan});
                if (!added) {
                    it->second.own = it->second.own || scan.own;
                    it->second.internal = std::min(it->second.internal, scan.internal);
                }
            }
    }
    std::vector<LibraryScan> out;
    for (auto& [key, scan] : found) out.push_back(std::move(scan));
    std::stable_sort(out.begin(), out.end(), [](const LibraryScan& a, const LibraryScan& b) {
        const auto order = [](const LibraryScan& x) {
            return std::make_tuple(x.library != "Thrust", !x.own, layer(x.name), x.internal, x.name.size(), x.name);
        };
        return order(a) < order(b);
    });
    return out;
}

std::vector<simt::Limit> library_renames(const std::string& source) {
    // The text as the preprocessor reads it: lines joined where a backslash
    // ends one, each comment one space; line[k] is text[k]'s line in `source`.
    std::string text;
    std::vector<int> line;
    int at_line = 1;
    for (std::size_t i = 0; i < source.size(); ++i) {
        const char c = source[i];
        if (c == '\\' && (source.compare(i + 1, 1, "\n") == 0 || source.compare(i + 1, 2, "\r\n") == 0)) {
            i += source[i + 1] == '\r' ? 2 : 1;
            ++at_line;
            continue;
        }
        if (c == '/' && i + 1 < source.size() && (source[i + 1] == '*' || source[i + 1] == '/')) {
            const bool block = source[i + 1] == '*';
            std::size_t stop = block ? source.find("*/", i + 2) : source.find('\n', i + 2);
            while (!block && stop != std::string::npos && source[stop - 1] == '\\') stop = source.find('\n', stop + 1);
            const std::size_t last = stop == std::string::npos ? source.size() : block ? stop + 2 : stop;
            for (std::size_t k = i; k < last; ++k) at_line += source[k] == '\n';  // a // comment's splices too
            text += ' ';
            line.push_back(at_line);
            i = last - 1;
            continue;
        }
        if (c == '"' && i > 0 && source[i - 1] == 'R') {  // a raw string, whole: R"x(...)x", lines and all
            const std::size_t open = source.find('(', i + 1);
            const std::size_t close =
                open == std::string::npos || open - i > 17 ? std::string::npos
                                                            : source.find(")" + source.substr(i + 1, open - i - 1) + "\"", open);
            if (close != std::string::npos) {
                const std::size_t last = close + (open - i) + 1;
                for (; i < last; ++i) {
                    text += source[i] == '\n' ? ' ' : source[i];
                    line.push_back(at_line);
                    at_line += source[i] == '\n';
                }
                --i;
                continue;
            }
        }
        if (c == '"' || c == '\'') {  // a literal, whole: a "//" in it is no comment
            std::size_t k = i + 1;
            while (k < source.size() && source[k] != c && source[k] != '\n') k += source[k] == '\\' ? 2 : 1;
            const std::size_t last = std::min(k < source.size() && source[k] == c ? k + 1 : k, source.size());
            for (; i < last; ++i) {
                text += source[i];
                line.push_back(at_line);
                at_line += source[i] == '\n';
            }
            --i;
            continue;
        }
        text += c;
        line.push_back(at_line);
        if (c == '\n') ++at_line;
    }
    // `%:` is `#` spelt as a digraph.
    static const std::regex directive(R"(^[ \t]*(#|%:)[ \t]*(define|undef)[ \t]+([A-Za-z_][A-Za-z0-9_]*))");
    std::vector<simt::Limit> out;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t stop = std::min(text.find('\n', start), text.size());
        std::smatch m;
        const std::string logical = text.substr(start, stop - start);
        if (std::regex_search(logical, m, directive)) {
            const std::string name = m[3];
            const std::string written = "#" + std::string(m[2]) + " " + name;
            if (name == "cub" || name.rfind("CUB_", 0) == 0 || name.find("_CUB_") != std::string::npos)
                out.push_back({"CUB", written, line[start]});
            if (name == "thrust" || name.rfind("THRUST_", 0) == 0) out.push_back({"Thrust", written, line[start]});
        }
        start = stop + 1;
    }
    return out;
}

}  // namespace grader
