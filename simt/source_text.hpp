// Reading a .cu file's text as the rewriter and the limits scan do: which
// characters are program text (not comments or literals), words, lines.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace simt::text {

// code[i] is true where source[i] is program text, false inside comments and
// string or character literals.
std::vector<bool> code_mask(const std::string& s);

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
