#include "grader/intake/lab_files.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <fnmatch.h>
#include <regex>
#include <set>
#include <sstream>

#include "catalog.hpp"
#include "grader/core/files.hpp"
#include "grader/intake/unpack.hpp"
#include "source_text.hpp"

namespace fs = std::filesystem;

namespace grader {
namespace {

// The lab a path names by an accepted layout (labs/NN-name/scan.cu, at any
// depth but not under reference/; NN-name.cu or labNN.cu at the top); "" if none.
std::string layout_lab(const fs::path& rel) {
    const std::string file = rel.filename().string(), parent = rel.parent_path().filename().string();
    for (const auto& lab : catalog::labs()) {
        if (file == "scan.cu" && parent == lab.id && rel.generic_string().find("reference/") == std::string::npos)
            return lab.id;
        if (rel.parent_path().empty() && (file == lab.id + ".cu" || file == lab.suite + ".cu")) return lab.id;
    }
    return "";
}

enum class Encoding { Utf8, Utf8Bom, Utf16 };

Encoding encoding_of(const std::string& text) {
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) return Encoding::Utf8Bom;
    if (text.compare(0, 2, "\xFF\xFE") == 0 || text.compare(0, 2, "\xFE\xFF") == 0) return Encoding::Utf16;
    // UTF-16 without a byte-order mark: ASCII source has a zero byte beside every character.
    const std::size_t probe = std::min<std::size_t>(text.size(), 512);
    return probe >= 8 && std::count(text.begin(), text.begin() + static_cast<long>(probe), '\0') * 3 > static_cast<long>(probe)
               ? Encoding::Utf16
               : Encoding::Utf8;
}

// The text as ASCII source reads it: UTF-16's zero bytes and byte-order mark dropped.
std::string as_ascii(const std::string& text) {
    if (encoding_of(text) != Encoding::Utf16) return text;
    std::string out;
    for (char c : text)
        if (c != '\0' && static_cast<unsigned char>(c) < 0x80) out += c;
    return out;
}

// The lab functions `source` defines, by lab id.
std::vector<std::string> labs_defined(const std::string& source) {
    std::vector<std::string> out;
    for (const auto& lab : catalog::labs())
        for (const auto& fn : lab.functions)
            if (defines_function(source, fn.name)) {
                out.push_back(lab.id);
                break;
            }
    return out;
}

std::string functions_of(const catalog::Lab& lab) {
    std::string out;
    for (const auto& fn : lab.functions) out += (out.empty() ? "" : " and ") + fn.name;
    return out;
}

std::string lab_number(const std::string& id) { return "lab " + id.substr(0, 2); }

// The `#include "name"` names of program text (not <name>).
std::vector<std::string> quoted_includes(const std::string& source) {
    std::vector<std::string> out;
    for (const simt::text::Include& include : simt::text::includes(source, simt::text::code_mask(source)))
        if (!include.angled) out.push_back(include.name);
    return out;
}

// Takes the student's headers `file` includes from its folder `dir` (and
// theirs, in turn); sets file.refused where the rubric does not take one.
void take_headers(LabFile& file, const fs::path& dir, const std::string& kit_lab, const IntakeRules& rules,
                  const std::string& source) {
    std::vector<std::string> todo = quoted_includes(source);
    std::set<std::string> seen;
    while (!todo.empty() && file.refused.empty()) {
        const std::string name = todo.back();
        todo.pop_back();
        const fs::path rel = fs::path(name).lexically_normal();
        if (!seen.insert(rel.generic_string()).second || rel.is_absolute() || rel.empty() || *rel.begin() == "..")
            continue;  // outside the folder: the source rules name it
        if (fs::exists(fs::path(kit_lab) / rel)) continue;  // the kit's own (scan.hpp)
        const fs::path path = dir / rel;
        if (!fs::is_regular_file(path)) continue;  // not submitted: the compiler names it
        const std::string where = file.from + " includes \"" + name + "\"";
        const bool named = std::any_of(rules.headers.begin(), rules.headers.end(), [&](const std::string& p) {
            return fnmatch(p.c_str(), rel.filename().c_str(), 0) == 0;
        });
        if (rules.headers.empty())
            file.refused = where + ", a file of yours: only scan.cu is graded (the rubric takes no headers), so put what " +
                           name + " holds into scan.cu";
        else if (!named) {
            std::string patterns;
            for (const auto& p : rules.headers) patterns += (patterns.empty() ? "" : ", ") + p;
            file.refused = where + ", a file of yours the grader does not take: it takes only scan.cu and headers named " +
                           patterns + " beside it; rename " + name + " or put what it holds into scan.cu";
        } else if (fs::file_size(path) > rules.header_max_bytes)
            file.refused = where + ", which is larger than the rubric takes (" + std::to_string(rules.header_max_bytes / 1024) +
                           " KiB): put what it needs into scan.cu";
        else {
            file.headers.push_back(rel.generic_string());
            for (const std::string& more : quoted_includes(read_file(path.string())))
                todo.push_back((rel.parent_path() / more).generic_string());
        }
    }
    std::sort(file.headers.begin(), file.headers.end());
}

}  // namespace

bool defines_function(const std::string& source, const std::string& name) {
    const std::vector<bool> code = simt::text::code_mask(source);
    for (std::size_t at = source.find(name); at != std::string::npos; at = source.find(name, at + 1)) {
        if (!simt::text::word_at(source, code, at, name.size())) continue;
        // A return type (or qualifier) before it: not a call in an expression.
        std::size_t before = at;
        while (before > 0 && std::isspace(static_cast<unsigned char>(source[before - 1]))) --before;
        if (before >= 2 && source.compare(before - 2, 2, "::") == 0) before -= 2;  // void ::f(...)
        while (before > 0 && std::isspace(static_cast<unsigned char>(source[before - 1]))) --before;
        if (before == 0 || !(simt::text::is_ident(source[before - 1]) || source[before - 1] == '*')) continue;
        // The parameter list, then the body.
        std::size_t i = simt::text::skip_space(source, at + name.size());
        if (i >= source.size() || source[i] != '(') continue;
        int depth = 0;
        for (; i < source.size(); ++i) {
            if (!code[i]) continue;
            depth += source[i] == '(';
            if (source[i] == ')' && --depth == 0) break;
        }
        i = simt::text::skip_space(source, i + 1);
        for (const char* word : {"noexcept", "throw()"})
            if (source.compare(i, std::char_traits<char>::length(word), word) == 0)
                i = simt::text::skip_space(source, i + std::char_traits<char>::length(word));
        if (i < source.size() && source[i] == '{') return true;
    }
    return false;
}

namespace {

// The source rules' findings, by what each forbids.
constexpr const char* kOutside =
    "#include of a path outside the lab folder (only \"scan.hpp\", the lab's own headers and system headers)";
constexpr const char* kComputed = "#include of a macro (a computed #include): name the header itself";
constexpr const char* kEmbed = "embedding another file (.incbin, #embed)";
constexpr const char* kReach =
    "reaching into the emulator, the runner or the allocation wrappers (simt::, harness::, device::, "
    "__tsan_, __sanitizer_, __wrap_, __real_)";
constexpr const char* kPasted = " (built by token pasting, ##)";
constexpr const char* kInString = " in a string literal (asm passes it to the assembler, an asm label to the linker)";

struct Rule {
    std::regex pattern;
    const char* what;
};

// Over each logical line of program text. '#' may be written %:, a digraph.
const std::vector<Rule>& code_rules() {
    static const std::vector<Rule> rules = {
        {std::regex(R"((#|%:)\s*(include|include_next|import)\s*["<]\s*(/|[^">]*\.\.))"), kOutside},
        {std::regex(R"((#|%:)\s*(include|include_next|import)\s+[A-Za-z_])"), kComputed},
        {std::regex(R"(\bincbin\b|(#|%:)\s*embed\b)", std::regex::icase), kEmbed},
        {std::regex(R"(\b(simt|harness|device)\s*::|__tsan_|__sanitizer_|__wrap_|__real_)"), kReach},
        // The namespaces named without `::` after them: a using-directive, an
        // alias, or a macro whose body ends in one (NS::launch).
        {std::regex(R"(\busing\s+namespace\s+(::\s*)?(simt|harness|device)\b)"
                    R"(|\bnamespace\s+\w+\s*=\s*(::\s*)?(simt|harness|device)\b)"
                    R"(|(#|%:)\s*define\s+\w+(\([^)]*\))?\s+(.*[^:\s]\s*)?\b(simt|harness|device)\s*$)"),
         kReach},
    };
    return rules;
}

// Over the text of the file's string literals, joined in order (so "inc"
// "bin" and a macro's piece next to another's count), escapes read: asm
// statements and asm labels take strings.
const std::vector<Rule>& literal_rules() {
    static const std::vector<Rule> rules = {
        {std::regex("incbin", std::regex::icase), kEmbed},
        // The allocation wrappers' and sanitizer's symbols, and the kit's
        // namespaces' mangled names (_ZN4simt...).
        {std::regex("__tsan_|__sanitizer_|__wrap_|__real_|N[rVKO]*(4simt|7harness|6device)"), kReach},
    };
    return rules;
}

// What the rules forbid in an identifier that token pasting (##) makes; nullptr: nothing.
const char* forbidden_paste(const std::string& word) {
    static const std::regex reach(R"(simt|harness|device|(__tsan_|__sanitizer_|__wrap_|__real_).*)"),
        embed("incbin", std::regex::icase);
    return std::regex_match(word, embed) ? kEmbed : std::regex_match(word, reach) ? kReach : nullptr;
}

struct Broken {
    int line = 0;  // 0: none
    std::string what;
    void take(int at, const std::string& why) {
        if (line == 0 || at < line) line = at, what = why;
    }
};

// Token pasting: each `a ## b` of program text read as the one token it
// makes, and each call of a function-like macro that pastes (or calls one
// that does) read for the identifiers consecutive arguments' tokens can
// make (CAT(si, mt)::launch). Pastes of the macro body's own tokens between
// arguments are beyond this reading.
void check_pasting(const std::vector<std::string>& lines, Broken& broken) {
    static const std::regex paste(R"(\s*(##|%:%:)\s*)"), define(R"(^\s*(#|%:)\s*define\s+(\w+)\(([^)]*)\)(.*)$)"),
        word(R"(\w+)");
    std::map<std::string, std::string> bodies;  // function-like macro -> its body
    std::set<std::string> pasting;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("##") == std::string::npos && lines[i].find("%:%:") == std::string::npos) {
            std::smatch m;
            if (std::regex_search(lines[i], m, define)) bodies[m[2]] = m[4];
            continue;
        }
        const std::string joined = std::regex_replace(lines[i], paste, "");
        for (const Rule& r : code_rules())
            if (r.what != kOutside && r.what != kComputed && std::regex_search(joined, r.pattern))
                broken.take(static_cast<int>(i + 1), std::string(r.what) + kPasted);
        std::smatch m;
        if (std::regex_search(lines[i], m, define)) {
            bodies[m[2]] = m[4];
            pasting.insert(m[2]);
        }
    }
    // A macro that calls a pasting one pastes too.
    for (bool grew = !pasting.empty(); grew;) {
        grew = false;
        for (const auto& [name, body] : bodies)
            if (!pasting.count(name))
                for (auto it = std::sregex_iterator(body.begin(), body.end(), word); it != std::sregex_iterator(); ++it)
                    if (pasting.count(it->str())) {
                        grew = pasting.insert(name).second || grew;
                        break;
                    }
    }
    if (pasting.empty()) return;
    std::string text;
    std::vector<std::size_t> starts;  // each line's offset in text
    for (const std::string& line : lines) {
        starts.push_back(text.size());
        text += line + "\n";
    }
    for (auto it = std::sregex_iterator(text.begin(), text.end(), word); it != std::sregex_iterator(); ++it) {
        if (!pasting.count(it->str())) continue;
        std::size_t open = text.find_first_not_of(" \t\n", static_cast<std::size_t>(it->position() + it->length()));
        if (open == std::string::npos || text[open] != '(') continue;
        int depth = 0;
        std::size_t close = open;
        for (; close < text.size(); ++close) {
            depth += text[close] == '(';
            if (text[close] == ')' && --depth == 0) break;
        }
        std::vector<std::string> tokens;
        const std::string args = text.substr(open + 1, close - open - 1);
        for (auto t = std::sregex_iterator(args.begin(), args.end(), word); t != std::sregex_iterator(); ++t)
            if (!pasting.count(t->str())) tokens.push_back(t->str());
        for (std::size_t a = 0; a < tokens.size(); ++a) {
            std::string made = tokens[a];
            for (std::size_t b = a + 1; b < tokens.size(); ++b)
                if (const char* what = forbidden_paste(made += tokens[b])) {
                    const auto line = std::upper_bound(starts.begin(), starts.end(), static_cast<std::size_t>(it->position()));
                    broken.take(static_cast<int>(line - starts.begin()), std::string(what) + kPasted);
                }
        }
    }
}

// The first rule `text` (a file's) breaks, by line.
Broken check_text(const std::string& source) {
    Broken broken;
    const std::string text = simt::text::spliced(source);
    std::vector<std::string> lines;
    {
        std::istringstream in(simt::text::program_text(text));
        for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    for (std::size_t i = 0; i < lines.size(); ++i)
        for (const Rule& r : code_rules())
            if (std::regex_search(lines[i], r.pattern)) broken.take(static_cast<int>(i + 1), r.what);
    check_pasting(lines, broken);
    std::string literals;
    std::vector<std::pair<std::size_t, int>> from;  // (offset in literals, line) of each literal
    for (const simt::text::Span& span : simt::text::spans(text))
        if (span.kind == simt::text::Span::Literal && text[span.begin] == '"') {
            from.push_back({literals.size(), static_cast<int>(simt::text::line_of(text, span.begin))});
            literals += simt::text::literal_value(text, span);
        }
    for (const Rule& r : literal_rules()) {
        std::smatch m;
        if (!std::regex_search(literals, m, r.pattern)) continue;
        const auto at = std::upper_bound(from.begin(), from.end(), std::make_pair(static_cast<std::size_t>(m.position(0)), INT_MAX));
        broken.take(std::prev(at)->second, std::string(r.what) + kInString);
    }
    return broken;
}

}  // namespace

std::string source_policy(const LabFile& file) {
    std::vector<std::pair<std::string, std::string>> files = {{"scan.cu", file.path}};
    for (const std::string& h : file.headers) files.push_back({h, (fs::path(file.path).parent_path() / h).string()});
    for (const auto& [name, path] : files) {
        const Broken broken = check_text(read_file(path));
        if (broken.line) return name + ":" + std::to_string(broken.line) + ": " + broken.what;
    }
    return "";
}

std::string graded_text(const LabFile& file) {
    std::string text = read_file(file.path);
    const fs::path dir = fs::path(file.path).parent_path();
    for (const std::string& h : file.headers) text += std::string("\n\0", 2) + h + std::string("\0", 1) + read_file((dir / h).string());
    return text;
}

LabFiles find_lab_files(const fs::path& root, const fs::path& shown_from, const IntakeRules& rules,
                        const std::string& kit) {
    LabFiles out;
    const fs::path shown_prefix = fs::relative(root, shown_from);
    const auto shown = [&](const fs::path& rel) { return (shown_prefix / rel).lexically_normal().generic_string(); };
    std::map<std::string, std::vector<fs::path>> by_layout;   // lab -> files in an accepted layout
    std::map<std::string, std::vector<fs::path>> by_function;  // lab -> other .cu files defining its function
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
        if (e.is_regular_file()) files.push_back(fs::relative(e.path(), root));
    std::sort(files.begin(), files.end());
    for (const fs::path& rel : files) {
        if (const std::string lab = layout_lab(rel); !lab.empty()) {
            by_layout[lab].push_back(rel);
            continue;
        }
        if (!cu_file_name(rel.filename().string())) continue;
        if (rel.generic_string().rfind("reference/", 0) == 0) continue;
        for (const std::string& lab : labs_defined(as_ascii(read_file((root / rel).string())))) by_function[lab].push_back(rel);
    }
    for (const auto& lab : catalog::labs()) {
        LabFile file;
        fs::path chosen;
        if (const auto it = by_layout.find(lab.id); it != by_layout.end()) {
            // labs/NN-name/scan.cu before the other layouts.
            const auto first = std::find_if(it->second.begin(), it->second.end(),
                                            [](const fs::path& p) { return p.generic_string().rfind("labs/", 0) == 0; });
            chosen = first != it->second.end() ? *first : it->second.front();
            for (const fs::path& other : by_function[lab.id]) {
                file.notes.push_back(shown(other) + " also defines " + functions_of(lab) + " and was not graded (" +
                                     shown(chosen) + " is)");
                file.flag += (file.flag.empty() ? "not graded: " : ", ") + shown(other);
            }
        } else if (const auto found = by_function.find(lab.id); found != by_function.end()) {
            const std::vector<fs::path>& candidates = found->second;
            std::string list;
            for (const fs::path& c : candidates) list += (list.empty() ? "" : ", ") + shown(c);
            const std::string proper = "labs/" + lab.id + "/scan.cu";
            if (candidates.size() > 1)
                out.missing[lab.id] = std::to_string(candidates.size()) + " files define " + functions_of(lab) + " (" + list +
                                      "): neither was graded; keep one, named " + proper;
            else if (!rules.misnamed)
                out.missing[lab.id] = list + " defines " + functions_of(lab) + " but is not named " + proper +
                                      ": the rubric grades only the accepted names, so rename it";
            else {
                chosen = candidates.front();
                file.notes.push_back(list + " taken as " + lab_number(lab.id) + "'s scan.cu (it defines " +
                                     functions_of(lab) + "); name it " + proper);
                file.flag = "taken from " + list + " (misnamed)";
            }
        }
        if (chosen.empty()) continue;
        file.from = shown(chosen);
        file.path = (root / chosen).string();
        std::string text = read_file(file.path);
        switch (encoding_of(text)) {
            case Encoding::Utf16:
                file.refused = file.from + " is UTF-16 text, which nvcc and g++ do not read: save it as UTF-8";
                break;
            case Encoding::Utf8Bom:
                text.erase(0, 3);
                write_file(file.path, text);
                file.notes.push_back(file.from + " began with a UTF-8 byte-order mark, which was removed");
                break;
            case Encoding::Utf8:
                break;
        }
        if (file.refused.empty()) take_headers(file, fs::path(file.path).parent_path(), kit + "/labs/" + lab.id, rules, text);
        out.taken.push_back(chosen.generic_string());
        for (const std::string& h : file.headers) out.taken.push_back((chosen.parent_path() / h).generic_string());
        out.found[lab.id] = std::move(file);
    }
    std::sort(out.taken.begin(), out.taken.end());
    return out;
}

}  // namespace grader
