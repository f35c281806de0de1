#include "rewrite.hpp"

#include "source_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <regex>
#include <set>
#include <utility>
#include <vector>

namespace simt {
namespace {

using text::code_mask;
using text::is_ident;
using text::line_of;
using text::skip_space;
using text::word_at;

std::string collapse_space(const std::string& s) {
    std::string out;
    for (char c : s)
        if (!std::isspace(static_cast<unsigned char>(c))) out += c;
    return out;
}

std::string newlines_in(const std::string& s, std::size_t from, std::size_t to) {
    std::string out;
    for (std::size_t i = from; i < to; ++i)
        if (s[i] == '\n') out += '\n';
    return out;
}

// Start of the callee expression that ends just before `end`: an identifier
// path (a::b::kernel), with template arguments (kernel<float>), members
// (launch.kernel, table->kernels[i]) and subscripts.
std::size_t callee_start(const std::string& s, std::size_t end) {
    std::size_t i = end;
    while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
    // Back over a bracketed group ending at i - 1: <...> or [...].
    const auto group = [&](char open, char close) {
        int depth = 0;
        while (i > 0) {
            --i;
            if (s[i] == close) ++depth;
            if (s[i] == open && --depth == 0) return true;
        }
        return false;
    };
    if (i > 0 && s[i - 1] == '>' && !group('<', '>')) return std::string::npos;
    while (i > 0) {
        if (is_ident(s[i - 1])) --i;
        else if (i > 1 && s[i - 1] == ':' && s[i - 2] == ':') i -= 2;
        else if (s[i - 1] == '.') --i;
        else if (i > 1 && s[i - 1] == '>' && s[i - 2] == '-') i -= 2;
        else if (s[i - 1] == ']') {
            if (!group('[', ']')) return std::string::npos;
        } else break;
    }
    return i;
}

// The identifier that ends (spaces aside) just before `end` in a declaration,
// as [start, stop) offsets: the name in "float name[]" or "int x".
std::pair<std::size_t, std::size_t> name_before(const std::string& decl, std::size_t end) {
    while (end > 0 && std::isspace(static_cast<unsigned char>(decl[end - 1]))) --end;
    std::size_t start = end;
    while (start > 0 && is_ident(decl[start - 1])) --start;
    return {start, end};
}

std::vector<std::string> declared_names(const std::string& decl);

// How a file is compiled: once, or (it uses __CUDA_ARCH__) as a host pass and
// a device pass in one translation unit (rewrite.hpp).
enum class Pass { Single, Host, Device };

// Whether a callee is a name: identifiers, ::, template arguments. Only such a
// kernel can be called from the device pass's captureless lambda.
bool is_name(const std::string& callee) {
    int angle = 0;
    for (char c : callee) {
        if (c == '<') ++angle;
        if (c == '>') --angle;
        if (angle == 0 && !(is_ident(c) || c == ':' || c == '>' || std::isspace(static_cast<unsigned char>(c))))
            return false;
    }
    return true;
}

// The names of the file's template kernels (`template <...> __global__ void
// name(`): launched without template arguments, theirs are deduced from the
// call (launch.hpp's launch_call).
std::set<std::string> template_kernels(const std::string& s, const std::vector<bool>& code) {
    std::set<std::string> names;
    for (std::size_t pos = s.find("__global__"); pos != std::string::npos; pos = s.find("__global__", pos + 10)) {
        if (!word_at(s, code, pos, 10)) continue;
        std::size_t begin = pos;
        while (begin > 0 && !(code[begin - 1] && (s[begin - 1] == ';' || s[begin - 1] == '{' || s[begin - 1] == '}')))
            --begin;
        const std::string head = s.substr(begin, pos - begin);
        if (!std::regex_search(head, std::regex(R"(\btemplate\s*<)"))) continue;
        std::size_t paren = pos;
        while (paren < s.size() && !(code[paren] && s[paren] == '(')) ++paren;
        const auto [a, b] = name_before(s, paren);
        if (b > a) names.insert(s.substr(a, b - a));
    }
    return names;
}

// `kernel<<<config>>>(args)` becomes a launch (launch.hpp): of the kernel's
// pointer, whose parameter types convert the arguments on the host, or, for a
// template kernel launched without template arguments, a call of it from a
// generic lambda. In a file compiled twice each site named by a kernel's name
// is numbered and tagged in both passes, and the device pass's sites only
// register their kernels (they never run).
std::string rewrite_launches(const std::string& s, const std::vector<bool>& code, const std::string& path, Pass pass) {
    const std::set<std::string> templates = template_kernels(s, code);
    std::string out;
    std::size_t copied = 0;
    std::size_t next = 0;  // where the search for the next launch resumes
    int site = 0;
    for (std::size_t pos = s.find("<<<"); pos != std::string::npos; pos = s.find("<<<", next)) {
        next = pos + 3;
        if (!code[pos]) continue;
        std::size_t close = s.find(">>>", pos + 3);
        while (close != std::string::npos && !code[close]) close = s.find(">>>", close + 3);
        const std::string where = path + ":" + std::to_string(line_of(s, pos)) + ": ";
        if (close == std::string::npos) throw RewriteError(where + "kernel launch '<<<' has no closing '>>>'");
        const std::size_t start = callee_start(s, pos);
        if (start == std::string::npos || start < copied || collapse_space(s.substr(start, pos - start)).empty())
            throw RewriteError(where + "cannot find the kernel name before '<<<'");
        std::string callee = s.substr(start, pos - start);
        while (!callee.empty() && std::isspace(static_cast<unsigned char>(callee.back()))) callee.pop_back();
        const std::string config = s.substr(pos + 3, close - pos - 3);
        const bool named = is_name(callee);
        const std::string base = callee.substr(callee.rfind(':') == std::string::npos ? 0 : callee.rfind(':') + 1);
        const bool deduced = named && callee.find('<') == std::string::npos && templates.count(base);
        const std::string tag = "::simt::Site<" + std::to_string(site++) + ">{}, [] {}, ";
        const bool keyed = pass != Pass::Single && named;
        const std::string call = "(auto&&... a) { " + callee + "(a...); }";
        out += s.substr(copied, start - copied);
        if (pass == Pass::Device) {
            // Never run: it registers the kernel and keeps the configuration's lines.
            if (!keyed) out += "::simt::IgnoredLaunch{}";
            else if (deduced) out += "::simt::device_call(" + tag + "[]" + call + ")";
            else out += "::simt::device_kernel<" + std::to_string(site - 1) + ", &" + callee + ">(" + tag.substr(0, tag.size() - 2) + ")";
            out += newlines_in(s, start, close);
        } else {
            const std::string site_text = "{\"" + collapse_space(callee) + "\", __FILE__, __LINE__}, " + config + ")";
            out += deduced ? "::simt::launch_call(" + (keyed ? tag : std::string()) + "[&]" + call + ", " + site_text
                           : "::simt::launch(" + (keyed ? tag : std::string()) + callee + ", " + site_text;
        }
        copied = next = close + 3;
    }
    return out + s.substr(copied);
}

// Whether the file uses __CUDA_ARCH__ (in code or a preprocessor line).
bool uses_cuda_arch(const std::string& s, const std::vector<bool>& code) {
    static const std::string word = "__CUDA_ARCH__";
    for (std::size_t pos = s.find(word); pos != std::string::npos; pos = s.find(word, pos + 1))
        if (word_at(s, code, pos, word.size())) return true;
    return false;
}

// The device pass's #include lines are blank: the host pass, before it in the
// same translation unit, included them at namespace scope.
std::string blank_includes(const std::string& s, const std::vector<bool>& code) {
    std::string out = s;
    for (std::size_t at = 0; at < s.size();) {
        const std::size_t end = std::min(s.find('\n', at), s.size());
        const std::size_t hash = skip_space(s, at);
        if (hash < end && s[hash] == '#' && code[hash]) {
            const std::size_t word = s.find_first_not_of(" \t", hash + 1);
            if (word != std::string::npos && s.compare(word, 7, "include") == 0)
                for (std::size_t i = at; i < end; ++i) out[i] = ' ';
        }
        at = end + 1;
    }
    return out;
}


std::string rewrite_extern_shared(const std::string& s, const std::vector<bool>& code, const std::string& path) {
    std::string out;
    std::size_t copied = 0;
    std::size_t next = 0;  // where the search for the next declaration resumes
    for (std::size_t pos = s.find("extern"); pos != std::string::npos; pos = s.find("extern", next)) {
        next = pos + 6;
        if (!code[pos] || (pos > 0 && is_ident(s[pos - 1]))) continue;
        const std::size_t k = skip_space(s, pos + 6);
        if (s.compare(k, 10, "__shared__") != 0) continue;
        const std::size_t semi = s.find(';', k);
        const std::string where = path + ":" + std::to_string(line_of(s, pos)) + ": ";
        if (semi == std::string::npos) throw RewriteError(where + "extern __shared__ declaration without ';'");
        const std::string decl = s.substr(k + 10, semi - k - 10);  // " float name[]"
        const std::size_t bracket = decl.rfind('[');
        if (bracket == std::string::npos || collapse_space(decl.substr(bracket)) != "[]")
            throw RewriteError(where + "expected 'extern __shared__ T name[];'");
        const auto [name_start, name_end] = name_before(decl, bracket);
        const std::string name = decl.substr(name_start, name_end - name_start);
        std::string type = decl.substr(0, name_start);
        type.erase(0, type.find_first_not_of(" \t\r\n"));
        type.erase(type.find_last_not_of(" \t\r\n") + 1);
        if (name.empty() || type.empty()) throw RewriteError(where + "expected 'extern __shared__ T name[];'");
        out += s.substr(copied, pos - copied);
        out += type + "* " + name + " = ::simt::dynamic_shared_as<" + type + ">();" + newlines_in(s, pos, semi);
        copied = next = semi + 1;
    }
    return out + s.substr(copied);
}

// True when the innermost '{' open at `pos` starts a function body (it follows
// a ')' possibly with qualifiers), not a namespace, class or initializer.
bool in_function_body(const std::string& s, const std::vector<bool>& code, std::size_t pos) {
    int depth = 0;
    for (std::size_t i = pos; i-- > 0;) {
        if (!code[i]) continue;
        if (s[i] == '}') ++depth;
        if (s[i] == '{' && depth-- == 0) {
            // Inside any function body (a nested block counts too): scan outwards.
            std::size_t j = i;
            while (j > 0 && (std::isspace(static_cast<unsigned char>(s[j - 1])) || is_ident(s[j - 1]))) --j;
            if (j > 0 && s[j - 1] == ')') return true;
            if (j > 0 && (s[j - 1] == ';' || s[j - 1] == '{' || s[j - 1] == '}'))
                return in_function_body(s, code, i);  // a plain nested block
            return false;
        }
    }
    return false;
}

// The declarators of `T a[N], b, c[M][K]`: split at the commas outside
// brackets, parentheses and a template's argument list
// (`cuda::atomic<int, cuda::thread_scope_block> n`), each named by the
// identifier before its first '['.
std::vector<std::string> declared_names(const std::string& decl) {
    std::vector<std::string> names;
    int depth = 0, angles = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= decl.size(); ++i) {
        const char c = i < decl.size() ? decl[i] : ',';
        if (c == '[' || c == '(') ++depth;
        if (c == ']' || c == ')') --depth;
        if (depth == 0 && c == '<') ++angles;  // outside brackets only a template's
        if (depth == 0 && c == '>' && angles > 0) --angles;
        if (c != ',' || depth != 0 || angles != 0) continue;
        const std::string one = decl.substr(start, i - start);
        const auto [name_start, name_end] = name_before(one, std::min(one.find('['), one.size()));
        names.push_back(one.substr(name_start, name_end - name_start));
        start = i + 1;
    }
    return names;
}

// `__shared__ T name[N]...;` (or `T a[N], b[M];`) inside a function gets, on
// the same line, a call per name that tells the runtime the variable's name,
// extent and line, for its checks and for putting a waiting block aside.
std::string register_shared(const std::string& s, const std::vector<bool>& code) {
    std::string out;
    std::size_t copied = 0, next = 0;
    for (std::size_t pos = s.find("__shared__"); pos != std::string::npos; pos = s.find("__shared__", next)) {
        next = pos + 10;
        if (!word_at(s, code, pos, 10)) continue;
        const std::size_t semi = s.find(';', pos);
        if (semi == std::string::npos || !in_function_body(s, code, pos)) continue;
        const std::string decl = s.substr(pos + 10, semi - pos - 10);
        if (decl.find('=') != std::string::npos) continue;  // CUDA allows no initializer on __shared__
        const std::vector<std::string> names = declared_names(decl);
        if (std::any_of(names.begin(), names.end(), [](const std::string& n) { return n.empty(); })) continue;
        out += s.substr(copied, semi + 1 - copied);
        for (const std::string& name : names)
            out += " ::simt::declare_shared(&" + name + ", sizeof(" + name + "), \"" + name + "\", __LINE__);";
        copied = next = semi + 1;
    }
    return out + s.substr(copied);
}

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

// `__noinline__` becomes GCC's attribute here, in the lab's code only: as a
// macro it would also rewrite `__attribute__((__noinline__))` in the system
// headers included after the shim (GCC 13's <memory> has one), breaking them.
std::string rewrite_noinline(const std::string& s, const std::vector<bool>& code) {
    static const std::string word = "__noinline__";
    std::string out;
    std::size_t copied = 0;
    for (std::size_t pos = s.find(word); pos != std::string::npos; pos = s.find(word, pos + word.size())) {
        if (!word_at(s, code, pos, word.size())) continue;
        out += s.substr(copied, pos - copied) + "__attribute__((noinline))";
        copied = pos + word.size();
    }
    return out + s.substr(copied);
}

// `reinterpret_cast<T>(` becomes `::simt::reinterpret_checked<T>("T", `: the
// same cast, which in a kernel also checks the alignment of a pointer it
// makes (cuda.hpp). A C-style cast is left alone.
std::string rewrite_casts(const std::string& s, const std::vector<bool>& code) {
    static const std::string word = "reinterpret_cast";
    std::string out;
    std::size_t copied = 0;
    for (std::size_t pos = s.find(word); pos != std::string::npos; pos = s.find(word, pos + word.size())) {
        if (!word_at(s, code, pos, word.size())) continue;
        const std::size_t open = skip_space(s, pos + word.size());
        if (open == s.size() || s[open] != '<') continue;
        std::size_t close = open;
        for (int depth = 0; close < s.size(); ++close) {
            if (s[close] == '<') ++depth;
            if (s[close] == '>' && --depth == 0) break;
        }
        if (close >= s.size()) continue;
        const std::size_t paren = skip_space(s, close + 1);
        if (paren >= s.size() || s[paren] != '(') continue;  // not a cast g++ would take either
        std::string type;  // as written, each run of spaces and newlines one space
        for (std::size_t i = open + 1; i < close; ++i) {
            const bool space = std::isspace(static_cast<unsigned char>(s[i]));
            if (!space) type += s[i];
            else if (!type.empty() && type.back() != ' ') type += ' ';
        }
        while (!type.empty() && type.back() == ' ') type.pop_back();
        out += s.substr(copied, pos - copied) + "::simt::reinterpret_checked" + s.substr(open, close + 1 - open) + "(\"" +
               type + "\", " + newlines_in(s, close + 1, paren);
        copied = paren + 1;
    }
    return out + s.substr(copied);
}

// `s` as the inside of a C string literal.
std::string c_string(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        if (c == '\n') out += "\\n";
        else if (c == '\t') out += "\\t";
        else out += c;
    }
    return out;
}

// `cudaLaunchKernel(` and `cudaLaunchCooperativeKernel(` get a first argument
// that names the launch for the reports (its kernel as written, file, line),
// and a cast of the kernel to `void*` before it, as CUDA's samples write it
// (`(void*)kernel`, `reinterpret_cast<void*>(kernel)`), is dropped: the
// shim's launch is a template over the kernel's parameter types
// (launch.hpp), which reads the arguments from `args` as those types.
std::string rewrite_api_launches(const std::string& s, const std::vector<bool>& code) {
    std::string out;
    std::size_t copied = 0;
    for (std::size_t pos = 0; pos < s.size(); ++pos) {
        std::size_t length = 0;
        for (const char* name : {"cudaLaunchCooperativeKernel", "cudaLaunchKernel"})
            if (s.compare(pos, std::strlen(name), name) == 0 && word_at(s, code, pos, std::strlen(name))) {
                length = std::strlen(name);
                break;
            }
        if (length == 0) continue;
        const std::size_t open = skip_space(s, pos + length);
        if (open >= s.size() || s[open] != '(') continue;
        // The first argument: up to the first comma outside brackets.
        std::size_t end = open + 1;
        for (int depth = 0; end < s.size(); ++end) {
            const char c = s[end];
            if (!code[end]) continue;
            // A kernel expression: its <...> are template arguments (kernel<float, 256>).
            if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
            else if ((c == ')' || c == ']' || c == '}' || (c == '>' && s[end - 1] != '-')) && depth-- == 0) break;
            else if (c == ',' && depth == 0) break;
        }
        if (end >= s.size() || s[end] != ',') continue;
        std::string kernel = s.substr(open + 1, end - open - 1);
        // Drop `(void*)`, `(const void *)`, `reinterpret_cast<void*>` and the like.
        const auto words = [](const std::string& t) {
            std::string w;
            for (char c : t)
                if (!std::isspace(static_cast<unsigned char>(c))) w += c;
            return w;
        };
        std::size_t at = skip_space(kernel, 0);
        if (kernel.compare(at, 16, "reinterpret_cast") == 0) {
            const std::size_t close = kernel.find('>', at);
            const std::string type = close == std::string::npos ? "" : words(kernel.substr(at + 17, close - at - 17));
            if (type == "void*" || type == "constvoid*" || type == "voidconst*") kernel = newlines_in(kernel, at, close) + kernel.substr(close + 1);
        } else if (at < kernel.size() && kernel[at] == '(') {
            const std::size_t close = kernel.find(')', at);
            const std::string type = close == std::string::npos ? "" : words(kernel.substr(at + 1, close - at - 1));
            if (type == "void*" || type == "constvoid*" || type == "voidconst*") kernel = newlines_in(kernel, at, close) + kernel.substr(close + 1);
        }
        std::string name = words(kernel);
        while (name.size() > 2 && name.front() == '(' && name.back() == ')') name = name.substr(1, name.size() - 2);
        out += s.substr(copied, open + 1 - copied) + "::simt::ApiLaunchSite{{\"" + c_string(name) +
               "\", __FILE__, __LINE__}}, " + kernel;
        copied = end;
        pos = end;
    }
    return out + s.substr(copied);
}

}  // namespace

std::string rewrite(const std::string& source, const std::string& path) {
    std::string s = rewrite_noinline(source, code_mask(source));
    s = rewrite_api_launches(s, code_mask(s));
    s = rewrite_casts(s, code_mask(s));
    s = rewrite_extern_shared(s, code_mask(s), path);
    s = register_shared(s, code_mask(s));
    const std::vector<bool> code = code_mask(s);
    const std::string line = "#line 1 \"" + c_string(path) + "\"\n";
    const std::string prologue = "#include <simt/nvcc.hpp>\n#include <simt/cuda.hpp>\n";
    // The host pass registers the file's __device__ and __constant__ variables;
    // the device pass's are references to them.
    std::string host = register_device_variables(s, code);
    host = rewrite_launches(host, code_mask(host), path, uses_cuda_arch(s, code) ? Pass::Host : Pass::Single);
    if (!uses_cuda_arch(s, code)) return prologue + line + host;
    std::string device = blank_includes(s, code);
    device = share_device_variables(device, code_mask(device));
    device = rewrite_launches(device, code_mask(device), path, Pass::Device);
    // The device pass drops each launch's configuration (its sites never
    // run), so a variable only a configuration uses would be unused there;
    // the host pass warns of the file's truly unused ones.
    return prologue + line + host +
           "\n#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
           "#pragma GCC diagnostic ignored \"-Wunused-but-set-variable\"\n"
           "#define __CUDA_ARCH__ 900\nnamespace __simt_device {\n" + line + device +
           "\n}  // namespace __simt_device\n#undef __CUDA_ARCH__\n#pragma GCC diagnostic pop\n";
}

std::string limits_marker(const std::string& path, const std::vector<Limit>& limits) {
    const std::size_t slash = path.find_last_of('/');
    const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
    return "// " + path + " uses what the CPU emulator cannot run (simt/limits.hpp): not built.\n"
           "extern \"C\" const char simt_kit_limits[] = \"" + c_string(encode_limits(file, limits)) + "\";\n";
}

}  // namespace simt
