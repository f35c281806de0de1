#include "files.hpp"

#include <fstream>
#include <iterator>

namespace grader {

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace grader
