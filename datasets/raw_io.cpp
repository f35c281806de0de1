#include "raw_io.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

namespace datasets {
namespace {

[[noreturn]] void fail(const std::string& path, std::size_t line, const std::string& what) {
    throw RawError(path + ":" + std::to_string(line) + ": " + what);
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

template <typename T>
void write_values(const std::string& path, const std::vector<T>& values, const char* format) {
    std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "w"), &std::fclose);
    if (!f) throw RawError(path + ": cannot open for writing: " + std::strerror(errno));
    std::fprintf(f.get(), "%zu\n", values.size());
    for (T v : values) std::fprintf(f.get(), format, static_cast<double>(v));
    if (std::fflush(f.get()) != 0 || std::ferror(f.get()))
        throw RawError(path + ": write failed: " + std::strerror(errno));
}

}  // namespace

std::vector<double> read_raw(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw RawError(path + ": cannot open: " + std::strerror(errno));
    std::string line;
    std::size_t lineno = 1;
    if (!std::getline(in, line)) fail(path, lineno, "empty file; expected the element count");
    const std::string header = trim(line);
    char* end = nullptr;
    errno = 0;
    const unsigned long long count = std::strtoull(header.c_str(), &end, 10);
    if (header.empty() || header[0] == '-' || *end != '\0' || errno != 0)
        fail(path, lineno, "expected the element count, got '" + header + "'");

    std::vector<double> values;
    values.reserve(count);
    while (std::getline(in, line)) {
        ++lineno;
        const std::string text = trim(line);
        if (text.empty()) continue;
        if (values.size() == count)
            fail(path, lineno, "more values than the " + std::to_string(count) + " the header announces");
        errno = 0;
        const double v = std::strtod(text.c_str(), &end);
        if (*end != '\0' || errno == ERANGE || !std::isfinite(v))
            fail(path, lineno, "not a finite number: '" + text + "'");
        values.push_back(v);
    }
    if (values.size() != count)
        fail(path, lineno, "header announces " + std::to_string(count) + " values, file holds " +
                               std::to_string(values.size()));
    return values;
}

void write_raw(const std::string& path, const std::vector<float>& values) {
    write_values(path, values, "%.9g\n");
}

void write_raw(const std::string& path, const std::vector<double>& values) {
    write_values(path, values, "%.17g\n");
}

}  // namespace datasets
