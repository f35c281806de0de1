#include "grader/core/files.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <vector>
#include <stdexcept>

namespace grader {

// In blocks: a character at a time took 0.6 s of every grading for the
// result cache's hash of the grader's own 14 MB executable.
std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text;
    std::vector<char> block(1 << 16);
    while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
        text.append(block.data(), static_cast<std::size_t>(in.gcount()));
    return text;
}

void write_file(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::string lower_case(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string first_lines(const std::string& text, int lines) {
    std::size_t at = 0;
    for (int i = 0; i < lines && at != std::string::npos; ++i) at = text.find('\n', at + 1);
    return at == std::string::npos ? text : text.substr(0, at + 1) + "[...]\n";
}

}  // namespace grader
