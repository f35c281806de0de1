#include "source_text.hpp"

#include <algorithm>
#include <cctype>

namespace simt::text {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Where a line splice starting at `i` ends (past its newline), or 0 where
// none starts there. GCC splices with spaces between the backslash and the
// newline too (with a warning), and nvcc preprocesses with GCC.
std::size_t splice_end(const std::string& s, std::size_t i) {
    if (s[i] != '\\') return 0;
    std::size_t j = i + 1;
    while (j < s.size() && is_blank(s[j])) ++j;
    return j < s.size() && s[j] == '\n' ? j + 1 : 0;
}

// Whether the identifier that ends at `quote` makes the string there raw.
bool raw_prefix(const std::string& t, std::size_t quote) {
    std::size_t b = quote;
    while (b > 0 && is_ident(t[b - 1])) --b;
    const std::string p = t.substr(b, quote - b);
    return p == "R" || p == "u8R" || p == "uR" || p == "UR" || p == "LR";
}

// Whether the ' at `q` separates digits (1'000'000, 0x7f'ff): it ends a
// pp-number, which starts with a digit or '.' and a digit.
bool digit_separator(const std::string& t, std::size_t q) {
    std::size_t b = q;
    while (b > 0 && (is_ident(t[b - 1]) || t[b - 1] == '.' || t[b - 1] == '\'')) --b;
    return b < q && (std::isdigit(static_cast<unsigned char>(t[b])) ||
                     (t[b] == '.' && b + 1 < q && std::isdigit(static_cast<unsigned char>(t[b + 1]))));
}

// A raw string's delimiter: the text between its quote and '(' (at most 16
// characters, no space, backslash or parentheses); false where there is none.
bool raw_delimiter(const std::string& t, std::size_t quote, std::string* delimiter) {
    const std::size_t open = t.find('(', quote + 1);
    if (open == std::string::npos || open - quote - 1 > 16) return false;
    *delimiter = t.substr(quote + 1, open - quote - 1);
    return delimiter->find_first_of(" \t\n\\)") == std::string::npos;
}

// The spans of `t`, a text without line splices.
std::vector<Span> lex(const std::string& t) {
    std::vector<Span> out;
    const auto add = [&](std::size_t b, std::size_t e, Span::Kind k) { out.push_back({b, e, k}); };
    // At a line's start (blanks and comments only before): a '#' there starts a directive.
    bool line_start = true;
    // After #include and the like: the next token, where it is <...> or "...", is a header-name.
    bool header_next = false;
    for (std::size_t i = 0; i < t.size();) {
        const char c = t[i];
        const std::size_t eol = std::min(t.find('\n', i), t.size());
        if (c == '\n') {
            line_start = true;
            header_next = false;
            ++i;
        } else if (is_blank(c)) {
            ++i;
        } else if (t.compare(i, 2, "//") == 0) {
            add(i, eol, Span::Comment);
            i = eol;
        } else if (t.compare(i, 2, "/*") == 0) {
            const std::size_t end = t.find("*/", i + 2);
            const std::size_t stop = end == std::string::npos ? t.size() : end + 2;
            add(i, stop, Span::Comment);
            i = stop;
        } else if (header_next && (c == '<' || c == '"')) {
            // No escapes and no comments in a header-name: <a//b> and "a\" are file names.
            const std::size_t close = t.find(c == '<' ? '>' : '"', i + 1);
            const std::size_t stop = close < eol ? close + 1 : eol;
            add(i, stop, Span::HeaderName);
            i = stop;
            header_next = line_start = false;
        } else if (line_start && (c == '#' || t.compare(i, 2, "%:") == 0)) {
            i += c == '#' ? 1 : 2;
            while (i < eol && is_blank(t[i])) ++i;
            std::size_t e = i;
            while (e < eol && is_ident(t[e])) ++e;
            const std::string directive = t.substr(i, e - i);
            header_next = directive == "include" || directive == "include_next" || directive == "import" || directive == "embed";
            line_start = false;
            i = e;
        } else if (is_ident(c)) {
            std::size_t e = i;
            while (e < t.size() && is_ident(t[e])) ++e;
            const std::string word = t.substr(i, e - i);
            header_next = false;
            line_start = false;
            if (word == "__has_include" || word == "__has_include_next" || word == "__has_embed") {
                std::size_t j = e;
                while (j < eol && is_blank(t[j])) ++j;
                if (j < eol && t[j] == '(') {
                    header_next = true;
                    e = j + 1;
                }
            }
            // A number's digits go on past a separator (the ' is handled below).
            i = e;
        } else if (c == '\'' && digit_separator(t, i)) {
            ++i;
        } else if (c == '"' && raw_prefix(t, i)) {
            std::string delimiter;
            std::size_t stop = eol;  // not a raw string after all: to the line's end, as an unterminated string
            if (raw_delimiter(t, i, &delimiter)) {
                const std::size_t end = t.find(")" + delimiter + "\"", i + 1 + delimiter.size());
                stop = end == std::string::npos ? t.size() : end + delimiter.size() + 2;
            }
            add(i, stop, Span::Literal);
            i = stop;
            header_next = line_start = false;
        } else if (c == '"' || c == '\'') {
            std::size_t j = i + 1;
            while (j < t.size() && t[j] != c && t[j] != '\n') j += t[j] == '\\' ? 2 : 1;
            const std::size_t stop = std::min(j + 1, t.size());
            add(i, stop, Span::Literal);
            i = stop;
            header_next = line_start = false;
        } else {
            header_next = line_start = false;
            ++i;
        }
    }
    return out;
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

}  // namespace

std::vector<Span> spans(const std::string& s) {
    // The lexer reads the text with its splices removed (translation phase
    // 2); `at` maps each of that text's characters back to `s`.
    std::string t;
    std::vector<std::size_t> at;
    t.reserve(s.size());
    at.reserve(s.size());
    for (std::size_t i = 0; i < s.size();) {
        if (const std::size_t end = splice_end(s, i)) {
            i = end;
            continue;
        }
        t += s[i];
        at.push_back(i++);
    }
    std::vector<Span> out = lex(t);
    for (Span& span : out) {
        span.begin = at[span.begin];
        span.end = span.end < at.size() ? at[span.end] : s.size();
    }
    return out;
}

std::vector<bool> code_mask(const std::string& s) {
    std::vector<bool> code(s.size(), true);
    for (const Span& span : spans(s)) std::fill(code.begin() + static_cast<long>(span.begin), code.begin() + static_cast<long>(span.end), false);
    return code;
}

std::string literal_value(const std::string& s, const Span& literal) {
    std::size_t i = literal.begin;
    const char quote = s[i];
    if (quote == '"' && raw_prefix(s, i)) {
        std::string delimiter;
        if (!raw_delimiter(s, i, &delimiter)) return "";
        const std::size_t from = i + delimiter.size() + 2, to = literal.end - std::min(literal.end - from, delimiter.size() + 2);
        return s.substr(from, to - from);
    }
    std::string out;
    for (++i; i < literal.end && s[i] != quote;) {
        if (const std::size_t end = splice_end(s, i)) {
            i = end;
            continue;
        }
        if (s[i] != '\\' || i + 1 >= literal.end) {
            out += s[i++];
            continue;
        }
        const char e = s[++i];
        if (e == 'x') {
            unsigned value = 0;
            for (++i; i < literal.end && hex_digit(s[i]) >= 0; ++i) value = value * 16 + static_cast<unsigned>(hex_digit(s[i]));
            out += static_cast<char>(value);
        } else if (e >= '0' && e <= '7') {
            unsigned value = 0;
            for (int n = 0; n < 3 && i < literal.end && s[i] >= '0' && s[i] <= '7'; ++n, ++i) value = value * 8 + static_cast<unsigned>(s[i] - '0');
            out += static_cast<char>(value);
        } else if (e == 'u' || e == 'U') {
            unsigned value = 0;
            const int digits = e == 'u' ? 4 : 8;
            ++i;
            for (int n = 0; n < digits && i < literal.end && hex_digit(s[i]) >= 0; ++n, ++i)
                value = value * 16 + static_cast<unsigned>(hex_digit(s[i]));
            out += value < 0x80 ? static_cast<char>(value) : '?';
        } else {
            static const std::string from = "ntrabfv", to = "\n\t\r\a\b\f\v";
            const std::size_t k = from.find(e);
            out += k == std::string::npos ? e : to[k];
            ++i;
        }
    }
    return out;
}

std::string spliced(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    std::size_t joined = 0;  // newlines taken out of the current logical line
    for (std::size_t i = 0; i < s.size();) {
        if (const std::size_t end = splice_end(s, i)) {
            ++joined;
            i = end;
            continue;
        }
        out += s[i];
        if (s[i++] == '\n') {
            out.append(joined, '\n');
            joined = 0;
        }
    }
    return out.append(joined, '\n');
}

std::string program_text(const std::string& s) {
    std::string out = s;
    for (const Span& span : spans(s))
        if (span.kind != Span::HeaderName)
            for (std::size_t i = span.begin; i < span.end; ++i)
                if (out[i] != '\n') out[i] = ' ';
    return out;
}

std::vector<Include> includes(const std::string& s, const std::vector<bool>& code) {
    std::vector<Include> out;
    int line = 1;
    for (std::size_t at = 0; at < s.size(); ++line) {
        const std::size_t end = std::min(s.find('\n', at), s.size());
        std::size_t i = at;
        while (i < end && is_blank(s[i])) ++i;
        const std::size_t hash = i;
        const bool digraph = s.compare(i, 2, "%:") == 0;
        if (i < end && (s[i] == '#' || digraph) && code[i]) {
            i += digraph ? 2 : 1;
            while (i < end && is_blank(s[i])) ++i;
            std::size_t e = i;
            while (e < end && is_ident(s[e])) ++e;
            const std::string directive = s.substr(i, e - i);
            i = e;
            while (i < end && is_blank(s[i])) ++i;
            if ((directive == "include" || directive == "include_next" || directive == "import") && i < end &&
                (s[i] == '<' || s[i] == '"')) {
                const std::size_t stop = s.find(s[i] == '<' ? '>' : '"', i + 1);
                if (stop != std::string::npos && stop < end)
                    out.push_back({line, hash, stop + 1, s.substr(i + 1, stop - i - 1), s[i] == '<'});
            }
        }
        at = end + 1;
    }
    return out;
}

std::size_t line_of(const std::string& s, std::size_t pos) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
    return line;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool word_at(const std::string& s, const std::vector<bool>& code, std::size_t pos, std::size_t length) {
    return code[pos] && !(pos > 0 && is_ident(s[pos - 1])) && !is_ident(s[pos + length]);
}

std::size_t skip_space(const std::string& s, std::size_t i) {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return i;
}

}  // namespace simt::text
