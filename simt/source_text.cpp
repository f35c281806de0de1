#include "source_text.hpp"

#include <algorithm>
#include <cctype>

namespace simt::text {

std::vector<bool> code_mask(const std::string& s) {
    std::vector<bool> code(s.size(), true);
    std::size_t i = 0;
    while (i < s.size()) {
        const std::size_t start = i;
        if (s.compare(i, 2, "//") == 0) {
            while (i < s.size() && s[i] != '\n') ++i;
        } else if (s.compare(i, 2, "/*") == 0) {
            const std::size_t end = s.find("*/", i + 2);
            i = end == std::string::npos ? s.size() : end + 2;
        } else if (s[i] == '"' || s[i] == '\'') {
            const char quote = s[i++];
            while (i < s.size() && s[i] != quote && s[i] != '\n') i += s[i] == '\\' ? 2 : 1;
            i = std::min(i + 1, s.size());
        } else {
            ++i;
            continue;
        }
        for (std::size_t k = start; k < i; ++k) code[k] = false;
    }
    return code;
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
