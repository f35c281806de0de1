// The rewriter (rewrite.hpp): launches, casts, __noinline__ and the passes
// in order; the passes on declarations are rewrite_shared.cpp's (__shared__)
// and rewrite_variables.cpp's (__device__ and __constant__).
#include "rewrite.hpp"

#include "rewrite_passes.hpp"
#include "source_text.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <regex>
#include <utility>
#include <vector>

namespace simt {
namespace {

using text::code_mask;
using text::for_each_word;
using text::is_ident;
using text::line_of;
using text::skip_space;
using text::word_at;

}  // namespace

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

namespace {

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

}  // namespace

// The identifier that ends (spaces aside) just before `end` in a declaration,
// as [start, stop) offsets: the name in "float name[]" or "int x".
std::pair<std::size_t, std::size_t> name_before(const std::string& decl, std::size_t end) {
    while (end > 0 && std::isspace(static_cast<unsigned char>(decl[end - 1]))) --end;
    std::size_t start = end;
    while (start > 0 && is_ident(decl[start - 1])) --start;
    return {start, end};
}

namespace {

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

// The arguments of the first <...> in `text` (a template's parameter list,
// a template-id's arguments), counted at its top level: (), [] and {} hold
// no separator, nor a nested <...>.
struct TemplateList {
    std::size_t count = 0;
    bool pack = false;  // one is a parameter pack (`typename... Ts`)
    bool found = false;
};
TemplateList template_list(const std::string& text) {
    TemplateList list;
    const std::size_t open = text.find('<');
    if (open == std::string::npos) return list;
    int angle = 0, depth = 0;
    bool any = false;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '[' || c == '{') ++depth;
        if (c == ')' || c == ']' || c == '}') --depth;
        if (depth == 0 && c == '<') ++angle;
        if (depth == 0 && c == '>' && --angle == 0) {
            list.found = true;
            list.count += any;
            return list;
        }
        if (i == open) continue;
        if (angle == 1 && depth == 0 && c == ',') {
            list.count += 1;
            any = false;
            continue;
        }
        if (!std::isspace(static_cast<unsigned char>(c))) any = true;
        if (angle == 1 && depth == 0 && text.compare(i, 3, "...") == 0) list.pack = true;
    }
    return list;
}

// The file's template kernels (`template <...> __global__ void name(`) by
// name: how many template parameters each has, and whether one is a pack.
// Launched without all of them, the rest are deduced from the call
// (launch.hpp's launch_call). Explicit specialisations (`template <>`) add nothing.
struct TemplateKernel {
    std::size_t params = 0;
    bool pack = false;
};
std::map<std::string, TemplateKernel> template_kernels(const std::string& s, const std::vector<bool>& code) {
    std::map<std::string, TemplateKernel> kernels;
    for (std::size_t pos = s.find("__global__"); pos != std::string::npos; pos = s.find("__global__", pos + 10)) {
        if (!word_at(s, code, pos, 10)) continue;
        std::size_t begin = pos;
        while (begin > 0 && !(code[begin - 1] && (s[begin - 1] == ';' || s[begin - 1] == '{' || s[begin - 1] == '}')))
            --begin;
        std::string head;  // comments blanked
        for (std::size_t k = begin; k < pos; ++k) head += code[k] ? s[k] : ' ';
        std::smatch at;
        if (!std::regex_search(head, at, std::regex(R"(\btemplate\s*<)"))) continue;
        const TemplateList list = template_list(head.substr(at.position(0)));
        if (!list.found || list.count == 0) continue;
        // The name before the parameter list's '(': not an attribute's
        // (`__launch_bounds__(256)`, `__attribute__((...))`).
        std::size_t paren = pos;
        for (;; ++paren) {
            while (paren < s.size() && !(code[paren] && s[paren] == '(')) ++paren;
            if (paren == s.size()) break;
            const auto [a, b] = name_before(s, paren);
            const std::string word = s.substr(a, b - a);
            if (word != "__launch_bounds__" && word != "__attribute__" && word != "__align__" && word != "alignas" &&
                word != "__maxnreg__" && word != "__cluster_dims__")
                break;
            for (int depth = 0; paren < s.size(); ++paren) {  // past the attribute's parentheses
                if (!code[paren]) continue;
                if (s[paren] == '(') ++depth;
                if (s[paren] == ')' && --depth == 0) break;
            }
        }
        if (paren == s.size()) continue;
        const auto [a, b] = name_before(s, paren);
        if (b == a) continue;
        TemplateKernel& k = kernels[s.substr(a, b - a)];
        k.params = std::max(k.params, list.count);
        k.pack = k.pack || list.pack;
    }
    return kernels;
}

// Whether a launch of `callee` (a name) must deduce template arguments: it
// names one of the file's template kernels (by its last name, as a using-
// declaration or namespace alias may name it) with fewer arguments than
// it has parameters, or with a parameter pack, which a call may extend.
// Then the kernel's address names no one function: it is called instead.
bool deduces(const std::string& callee, const std::map<std::string, TemplateKernel>& kernels) {
    const std::size_t angle = callee.find('<');
    std::string name = callee.substr(0, angle);
    while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
    const std::size_t colon = name.rfind(':');
    const auto it = kernels.find(colon == std::string::npos ? name : name.substr(colon + 1));
    if (it == kernels.end()) return false;
    if (angle == std::string::npos) return true;
    return it->second.pack || template_list(callee.substr(angle)).count < it->second.params;
}

// `kernel<<<config>>>(args)` becomes a launch (launch.hpp): of the kernel's
// pointer, whose parameter types convert the arguments on the host, or, for a
// template kernel launched without template arguments, a call of it from a
// generic lambda. In a file compiled twice each site named by a kernel's name
// is numbered and tagged in both passes, and the device pass's sites only
// register their kernels (they never run).
std::string rewrite_launches(const std::string& s, const std::vector<bool>& code, const std::string& path, Pass pass) {
    const std::map<std::string, TemplateKernel> templates = template_kernels(s, code);
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
        const bool deduced = named && deduces(callee, templates);
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
            // The line breaks between the name and `<<<` after the site's
            // __LINE__ (the name's line), so every line stays where it was.
            const std::string site_text = "{\"" + collapse_space(callee) + "\", __FILE__, __LINE__}" +
                                          newlines_in(s, start + callee.size(), pos) + ", " + config + ")";
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

// `memcpy`, `memmove`, `memset` (also as `std::` names) and GCC's
// `__builtin_` ones become the shim's `__simt_memcpy`, ... (memcalls.hpp),
// which a kernel's accesses checks: GCC expands a call of a constant size
// inline after its instrumentation ran and calls the C library's otherwise,
// so neither is seen. In the lab's code only: system headers keep theirs.
// A member of that name (`a.memcpy`) is left alone.
std::string rewrite_memcalls(const std::string& s, const std::vector<bool>& code) {
    static const char* const names[] = {"memcpy", "memmove", "memset"};
    std::string out;
    std::size_t copied = 0;
    for_each_word(s, code, [&](std::size_t begin, std::size_t end) {
        std::string word = s.substr(begin, end - begin);
        if (word.rfind("__builtin_", 0) == 0) word.erase(0, 10);
        if (std::find(std::begin(names), std::end(names), word) == std::end(names)) return;
        std::size_t before = begin;
        while (before > 0 && std::isspace(static_cast<unsigned char>(s[before - 1]))) --before;
        if (before > 0 && (s[before - 1] == '.' || (before > 1 && s.compare(before - 2, 2, "->") == 0))) return;
        out += s.substr(copied, begin - copied) + "__simt_" + word;
        copied = end;
    });
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

std::vector<std::string> split_lines(const std::string& s) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    for (std::size_t end; (end = s.find('\n', start)) != std::string::npos; start = end + 1) lines.push_back(s.substr(start, end - start));
    lines.push_back(s.substr(start));
    return lines;
}

// The call that tells the emulator which columns of the file's lines still
// point into `source` (launch.hpp's note_kept_columns): each line the passes
// changed, with the length of its start they left as written. Every pass
// keeps the lines where they were; were one not to, no column would count.
std::string kept_columns(const std::string& source, const std::vector<const std::string*>& outputs, const std::string& path) {
    const std::vector<std::string> written = split_lines(source);
    std::map<std::size_t, std::size_t> kept;  // 1-based line -> columns kept
    bool aligned = true;
    for (const std::string* out : outputs) {
        const std::vector<std::string> lines = split_lines(*out);
        aligned = aligned && lines.size() == written.size();
        for (std::size_t i = 0; aligned && i < lines.size(); ++i) {
            if (lines[i] == written[i]) continue;
            std::size_t same = 0;
            while (same < lines[i].size() && same < written[i].size() && lines[i][same] == written[i][same]) ++same;
            const auto it = kept.find(i + 1);
            kept[i + 1] = it == kept.end() ? same : std::min(it->second, same);
        }
    }
    std::string table = aligned ? "" : "~0u, ";
    for (const auto& [line, columns] : kept) table += std::to_string(line) + ", " + std::to_string(columns) + ", ";
    return "namespace { [[maybe_unused]] const unsigned __simt_kept_columns[] = {" + table +
           "0}; [[maybe_unused]] const bool __simt_kept_columns_noted = ::simt::note_kept_columns(\"" + c_string(path) +
           "\", __simt_kept_columns); }";
}

// `text` with `code` after its last line, on a line of its own: the output
// keeps the file's lines where they were (the code takes no line of its own
// after a file that ends with one).
std::string appended(const std::string& text, const std::string& code) {
    return text + (text.empty() || text.back() == '\n' ? "" : "\n") + code;
}

}  // namespace

std::string rewrite(const std::string& source, const std::string& path) {
    std::string s = rewrite_noinline(source, code_mask(source));
    s = rewrite_api_launches(s, code_mask(s));
    s = rewrite_casts(s, code_mask(s));
    s = rewrite_memcalls(s, code_mask(s));
    s = rewrite_extern_shared(s, code_mask(s), path);
    s = register_shared(s, code_mask(s));
    const std::vector<bool> code = code_mask(s);
    const std::string line = "#line 1 \"" + c_string(path) + "\"\n";
    const std::string prologue = "#include <simt/nvcc.hpp>\n#include <simt/cuda.hpp>\n";
    // The host pass registers the file's __device__ and __constant__ variables;
    // the device pass's are references to them.
    std::string host = register_device_variables(s, code);
    host = rewrite_launches(host, code_mask(host), path, uses_cuda_arch(s, code) ? Pass::Host : Pass::Single);
    if (!uses_cuda_arch(s, code)) return prologue + line + appended(host, kept_columns(source, {&host}, path));
    std::string device = blank_includes(s, code);
    device = share_device_variables(device, code_mask(device));
    device = rewrite_launches(device, code_mask(device), path, Pass::Device);
    // The device pass drops each launch's configuration (its sites never
    // run), so a variable only a configuration uses would be unused there;
    // the host pass warns of the file's truly unused ones.
    return prologue + line + appended(host, kept_columns(source, {&host, &device}, path)) +
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
