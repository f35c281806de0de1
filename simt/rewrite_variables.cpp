// The rewriter's passes on __device__ and __constant__ variables at namespace
// scope (rewrite.hpp), and what it reads of a declaration's place and words.
#include "rewrite.hpp"
#include "rewrite_passes.hpp"

#include "source_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <utility>
#include <vector>

namespace simt {
namespace {

using text::is_ident;
using text::skip_space;
using text::word_at;

}  // namespace

// Whether `pos` lies on a preprocessor directive's line (`#define D __device__`).
bool on_directive_line(const std::string& s, std::size_t pos) {
    std::size_t start = s.rfind('\n', pos);
    start = start == std::string::npos ? 0 : start + 1;
    const std::size_t first = s.find_first_not_of(" \t", start);
    return first != std::string::npos && first < pos && s[first] == '#';
}

// The program text before `end` back to the previous ';', '{' or '}' (the
// specifiers of the declaration that reaches `end`), comments left out.
std::string declaration_head(const std::string& s, const std::vector<bool>& code, std::size_t end) {
    std::size_t i = end;
    while (i > 0 && !(code[i - 1] && (s[i - 1] == ';' || s[i - 1] == '{' || s[i - 1] == '}'))) --i;
    std::string out;
    for (std::size_t k = i; k < end; ++k) out += code[k] && !on_directive_line(s, k) ? s[k] : ' ';
    return out;
}

bool has_word(const std::string& text, const std::string& word) {
    for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
        if ((at == 0 || !is_ident(text[at - 1])) && (at + word.size() >= text.size() || !is_ident(text[at + word.size()])))
            return true;
    return false;
}

// Whether `pos` is at namespace scope: every '{' still open there opens a
// namespace or an `extern "C"` block.
bool at_namespace_scope(const std::string& s, const std::vector<bool>& code, std::size_t pos) {
    int depth = 0;
    for (std::size_t i = pos; i-- > 0;) {
        if (!code[i] || (s[i] != '{' && s[i] != '}')) continue;
        if (s[i] == '}') {
            ++depth;
            continue;
        }
        if (depth > 0) {
            --depth;
            continue;
        }
        const std::string head = declaration_head(s, code, i);
        if (!has_word(head, "namespace") && !(has_word(head, "extern") && head.find('(') == std::string::npos))
            return false;
    }
    return true;
}

namespace {

// The names a namespace-scope variable definition declares, its text from
// after `__device__` or `__constant__` at `from` (its end in *end: after its
// ';'); none when it is a function, or not something this reads.
std::vector<std::string> defined_variables(const std::string& s, const std::vector<bool>& code, std::size_t from,
                                           std::size_t* end) {
    std::vector<std::string> declarators;
    int depth = 0, angle = 0;
    bool init = false;
    std::size_t start = from;
    for (std::size_t i = from; i < s.size(); ++i) {
        if (!code[i]) continue;
        const char c = s[i];
        if (depth == 0 && !init) {
            if (c == '<') ++angle;
            if (c == '>' && angle > 0) --angle;
        }
        const bool top = depth == 0 && (init || angle == 0);
        if (c == '(' && depth == 0 && !init) {
            // A function, unless the parentheses are an attribute's.
            std::size_t w = i;
            while (w > from && std::isspace(static_cast<unsigned char>(s[w - 1]))) --w;
            std::size_t b = w;
            while (b > from && is_ident(s[b - 1])) --b;
            const std::string word = s.substr(b, w - b);
            if (word != "__align__" && word != "alignas" && word != "__attribute__") return {};
        }
        if (c == '(' || c == '[' || c == '{') {
            if (c == '{' && depth == 0 && !init) init = true;  // `int x{0}`
            ++depth;
            continue;
        }
        if (c == ')' || c == ']' || c == '}') {
            --depth;
            continue;
        }
        if (!top) continue;
        if (c == '=') init = true;
        if (c == ',' || c == ';') {
            declarators.push_back(s.substr(start, i - start));
            start = i + 1;
            init = false;
            if (c == ';') {
                *end = i + 1;
                break;
            }
        }
    }
    if (*end == 0) return {};
    std::vector<std::string> names;
    for (const std::string& d : declarators) {
        // The declarator before its initializer, named by the identifier
        // before its first '[' (an array) or at its end.
        std::size_t stop = d.size(), bracket = std::string::npos;
        int inner = 0;
        for (std::size_t k = 0; k < d.size(); ++k) {
            if (d[k] == '(' || d[k] == '[') {
                if (d[k] == '[' && inner == 0 && bracket == std::string::npos) bracket = k;
                ++inner;
            } else if (d[k] == ')' || d[k] == ']') {
                --inner;
            } else if (inner == 0 && (d[k] == '=' || d[k] == '{')) {
                stop = k;
                break;
            }
        }
        const auto [name_start, name_end] = name_before(d, std::min(stop, bracket));
        const std::string name = d.substr(name_start, name_end - name_start);
        if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return {};
        names.push_back(name);
    }
    return names;
}

}  // namespace

// A `__device__` or `__constant__` variable defined at namespace scope gets,
// after its ';' on the same line, a registration per name: the kernels'
// accesses to it are then checked as device memory's, and it is a symbol for
// cudaMemcpyToSymbol and the rest (simt::declare_device_variable). Functions,
// `extern` declarations and templates are left alone.
std::string register_device_variables(const std::string& s, const std::vector<bool>& code) {
    std::string out;
    std::size_t copied = 0, next = 0;
    unsigned count = 0;
    for (std::size_t pos = s.find("__"); pos != std::string::npos; pos = s.find("__", next)) {
        next = pos + 2;
        std::size_t length = 0;
        for (const char* keyword : {"__device__", "__constant__"})
            if (s.compare(pos, std::strlen(keyword), keyword) == 0) length = std::strlen(keyword);
        if (length == 0 || !word_at(s, code, pos, length) || on_directive_line(s, pos)) continue;
        next = pos + length;
        const std::string head = declaration_head(s, code, pos);
        if (has_word(head, "extern") || has_word(head, "template") || has_word(head, "typedef") ||
            has_word(head, "using") || !at_namespace_scope(s, code, pos))
            continue;
        std::size_t end = 0;
        const std::vector<std::string> names = defined_variables(s, code, pos + length, &end);
        if (names.empty()) continue;
        next = end;
        const std::string decl = s.substr(pos, end - pos);
        if (has_word(decl, "__shared__") || has_word(decl, "extern")) continue;
        out += s.substr(copied, end - copied);
        for (const std::string& name : names)
            out += " [[maybe_unused]] static const bool simt_device_variable_" + std::to_string(++count) +
                   " = ::simt::declare_device_variable(__builtin_addressof(" + name + "), sizeof(" + name + "), \"" +
                   name + "\", __LINE__);";
        copied = end;
    }
    return out + s.substr(copied);
}

namespace {

// The named namespaces open at `pos` (at namespace scope), as "::a::b::".
std::string namespace_path(const std::string& s, const std::vector<bool>& code, std::size_t pos) {
    std::string path = "::";
    int depth = 0;
    for (std::size_t i = pos; i-- > 0;) {
        if (!code[i] || (s[i] != '{' && s[i] != '}')) continue;
        if (s[i] == '}') {
            ++depth;
        } else if (depth > 0) {
            --depth;
        } else {
            const std::string head = declaration_head(s, code, i);
            const std::size_t at = head.find("namespace");
            std::string name;
            if (at != std::string::npos)
                for (std::size_t k = skip_space(head, at + 9); k < head.size() && (is_ident(head[k]) || head[k] == ':'); ++k)
                    name += head[k];
            if (!name.empty()) path.insert(2, name + "::");
        }
    }
    return path;
}

}  // namespace

// In the device pass, a __device__ or __constant__ variable at namespace
// scope is the host pass's: the host's cudaMemcpyToSymbol and the kernels
// must see one variable. Its definition becomes a reference to the host
// pass's (`static auto& name = ::ns::name;`) on the same lines; constants
// stay as they are (a reference is no constant expression).
std::string share_device_variables(const std::string& s, const std::vector<bool>& code) {
    std::string out;
    std::size_t copied = 0, next = 0;
    for (std::size_t pos = s.find("__"); pos != std::string::npos; pos = s.find("__", next)) {
        next = pos + 2;
        std::size_t length = 0;
        for (const char* keyword : {"__device__", "__constant__"})
            if (s.compare(pos, std::strlen(keyword), keyword) == 0) length = std::strlen(keyword);
        if (length == 0 || !word_at(s, code, pos, length) || on_directive_line(s, pos)) continue;
        next = pos + length;
        const std::string head = declaration_head(s, code, pos);
        if (has_word(head, "extern") || has_word(head, "template") || has_word(head, "typedef") ||
            has_word(head, "using") || !at_namespace_scope(s, code, pos))
            continue;
        std::size_t end = 0;
        const std::vector<std::string> names = defined_variables(s, code, pos + length, &end);
        if (names.empty()) continue;
        next = end;
        const std::string decl = head + s.substr(pos, end - pos);
        if (has_word(decl, "const") || has_word(decl, "constexpr") || has_word(decl, "__shared__")) continue;
        const std::size_t begin = pos - head.size();
        const std::string path = namespace_path(s, code, pos);
        std::string refs;
        for (const std::string& name : names) refs += "static auto& " + name + " = " + path + name + "; ";
        out += s.substr(copied, begin - copied) + refs + newlines_in(s, begin, end);
        copied = end;
    }
    return out + s.substr(copied);
}

}  // namespace simt
