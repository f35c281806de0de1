#include "rewrite.hpp"

#include "source_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
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

std::string rewrite_launches(const std::string& s, const std::vector<bool>& code, const std::string& path) {
    std::string out;
    std::size_t copied = 0;
    std::size_t next = 0;  // where the search for the next launch resumes
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
        const std::string callee = s.substr(start, pos - start);
        out += s.substr(copied, start - copied);
        out += "::simt::launch(" + callee + ", {\"" + collapse_space(callee) + "\", __FILE__, __LINE__}, " +
               s.substr(pos + 3, close - pos - 3) + ")";
        copied = next = close + 3;
    }
    return out + s.substr(copied);
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
// brackets and parentheses, each named by the identifier before its first '['.
std::vector<std::string> declared_names(const std::string& decl) {
    std::vector<std::string> names;
    int depth = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= decl.size(); ++i) {
        const char c = i < decl.size() ? decl[i] : ',';
        if (c == '[' || c == '(') ++depth;
        if (c == ']' || c == ')') --depth;
        if (c != ',' || depth != 0) continue;
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
    s = rewrite_launches(s, code_mask(s), path);
    return "#include <simt/cuda.hpp>\n#line 1 \"" + c_string(path) + "\"\n" + s;
}

std::string limits_marker(const std::string& path, const std::vector<Limit>& limits) {
    const std::size_t slash = path.find_last_of('/');
    const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
    return "// " + path + " uses what the CPU emulator cannot run (simt/limits.hpp): not built.\n"
           "extern \"C\" const char simt_kit_limits[] = \"" + c_string(encode_limits(file, limits)) + "\";\n";
}

}  // namespace simt
