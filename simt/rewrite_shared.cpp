// The rewriter's passes on __shared__ declarations (rewrite.hpp): extern ones
// become the launch's dynamic shared memory, declared ones are registered
// with the runtime, in a function when its code reaches them, at namespace
// scope at start-up.
#include "rewrite.hpp"
#include "rewrite_passes.hpp"

#include "source_text.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace simt {
namespace {

using text::is_ident;
using text::line_of;
using text::skip_space;
using text::word_at;

}  // namespace

// In a function, `T* name = ...` is evaluated where the kernel runs. At
// namespace scope `name` is declared as the array the runtime keeps the
// launch's dynamic shared memory in, by its symbol (scheduler.hpp), so that
// using it reads no pointer: a variable next to a __shared__ or __device__
// one would read as an access just outside it.
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
        if (at_namespace_scope(s, code, pos))
            out += "extern " + type + " " + name + "[] __asm__(\"simt_dynamic_shared_memory\");";
        else
            out += type + "* " + name + " = ::simt::dynamic_shared_as<" + type + ">();";
        out += newlines_in(s, pos, semi);
        copied = next = semi + 1;
    }
    return out + s.substr(copied);
}

namespace {

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

// [from, to) of `s` with each `static` of program text blanked: the shim's
// __shared__ says `static` already, and C++ takes it once.
std::string without_static(const std::string& s, const std::vector<bool>& code, std::size_t from, std::size_t to) {
    std::string out = s.substr(from, to - from);
    for (std::size_t at = s.find("static", from); at != std::string::npos && at + 6 <= to; at = s.find("static", at + 6))
        if (word_at(s, code, at, 6) && !on_directive_line(s, at)) out.replace(at - from, 6, 6, ' ');
    return out;
}

}  // namespace

// `__shared__ T name[N]...;` (or `T a[N], b[M];`) gets, on the same line, a
// registration per name that tells the runtime the variable's name, extent
// and line, for its checks and for putting a waiting block aside: in a
// function a call, made as the code passes; at namespace scope, where
// nothing runs, a static's initialiser that registers how to find the
// running thread's copy (the runtime takes it into a block's arrays at the
// block's first access: memcheck_launch.cpp).
std::string register_shared(const std::string& s, const std::vector<bool>& code) {
    std::string out;
    std::size_t copied = 0, next = 0;
    unsigned count = 0;
    for (std::size_t pos = s.find("__shared__"); pos != std::string::npos; pos = s.find("__shared__", next)) {
        next = pos + 10;
        if (!word_at(s, code, pos, 10) || on_directive_line(s, pos)) continue;
        const std::size_t semi = s.find(';', pos);
        if (semi == std::string::npos) continue;
        const bool in_function = in_function_body(s, code, pos);
        if (!in_function && !at_namespace_scope(s, code, pos)) continue;  // a class's member: not CUDA
        const std::string head = declaration_head(s, code, pos);
        if (has_word(head, "template") || has_word(head, "typedef") || has_word(head, "using")) continue;
        const std::string decl = s.substr(pos + 10, semi - pos - 10);
        if (decl.find('=') != std::string::npos) continue;  // CUDA allows no initializer on __shared__
        const std::vector<std::string> names = declared_names(decl);
        if (std::any_of(names.begin(), names.end(), [](const std::string& n) { return n.empty(); })) continue;
        const std::size_t begin = std::max(pos - head.size(), copied);  // its first specifier, or before it
        out += s.substr(copied, begin - copied) + without_static(s, code, begin, semi + 1);
        for (const std::string& name : names) {
            if (in_function) {
                out += " ::simt::declare_shared(&" + name + ", sizeof(" + name + "), \"" + name + "\", __LINE__);";
                continue;
            }
            out += " [[maybe_unused]] static const bool simt_shared_variable_" + std::to_string(++count) +
                   " = ::simt::declare_static_shared<decltype(" + name +
                   ")>([]() -> const volatile void* { return __builtin_addressof(" + name + "); }, \"" + name +
                   "\", __LINE__);";
        }
        copied = next = semi + 1;
    }
    return out + s.substr(copied);
}

}  // namespace simt
