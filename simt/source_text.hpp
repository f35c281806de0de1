// Reading a .cu file's text as the rewriter, the limits scan and the
// grader's source rules do: which characters are program text (not comments
// or literals), words, lines, #include directives. One lexer (spans) serves
// them all, reading the file as the compiler does: line splices
// (backslash-newline) joined, raw strings R"d(...)d" and digit separators
// (1'000) known, the header-name of an #include a file name, not a literal.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace simt::text {

// A comment, a literal or an #include's header-name: [begin, end) of the file.
struct Span {
    enum Kind { Comment, Literal, HeaderName };
    std::size_t begin, end;
    Kind kind;
};

// The file's comments, string and character literals (their prefix, u8 or
// R, is program text) and header-names (<name> or "name" after #include,
// #include_next, #import, #embed, __has_include( and __has_embed(), in order.
std::vector<Span> spans(const std::string& s);

// code[i] is true where s[i] is program text: false inside every span.
std::vector<bool> code_mask(const std::string& s);

// What a string or character literal holds: its escapes (\n, \x2e, \151)
// read, a raw string's text as written, without quotes, prefix or delimiter.
std::string literal_value(const std::string& s, const Span& literal);

// `s` with each line splice (backslash, optional spaces, newline) removed
// and its newline put after the logical line it joined: each logical line
// then starts on the line where it starts in `s`.
std::string spliced(const std::string& s);

// `s` with comments and literals blanked to spaces, newlines kept (so lines
// and columns stay); header-names are kept: they name a file.
std::string program_text(const std::string& s);

// An #include (#include_next, #import; '#' or %:) of <name> or "name" whose
// '#' is program text.
struct Include {
    int line;                // from 1
    std::size_t begin, end;  // the directive: its '#' to the header-name's closing '>' or '"'
    std::string name;
    bool angled;  // <name>
};
std::vector<Include> includes(const std::string& s, const std::vector<bool>& code);

std::size_t line_of(const std::string& s, std::size_t pos);

bool is_ident(char c);

// Whether the `length` characters at `pos` are program text and a word of
// their own (no identifier character either side).
bool word_at(const std::string& s, const std::vector<bool>& code, std::size_t pos, std::size_t length);

// The first position from `i` on that is not a space or newline.
std::size_t skip_space(const std::string& s, std::size_t i);

// Calls f(begin, end) for each word of program text (an identifier or a
// number: a run of identifier characters), in order.
template <typename F>
void for_each_word(const std::string& s, const std::vector<bool>& code, F f) {
    for (std::size_t i = 0; i < s.size();) {
        if (!code[i] || !is_ident(s[i]) || (i > 0 && is_ident(s[i - 1]))) {
            ++i;
            continue;
        }
        std::size_t end = i;
        while (end < s.size() && is_ident(s[end])) ++end;
        f(i, end);
        i = end;
    }
}

}  // namespace simt::text
