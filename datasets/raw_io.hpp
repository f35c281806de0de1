// The GPU Teaching Kit's libwb ".raw" vector format: the element count on the
// first line, then one value per line.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace datasets {

// A file that cannot be read or does not follow the format; what() names the
// file, the line and the problem.
struct RawError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::vector<double> read_raw(const std::string& path);
// Floats with 9 significant digits, doubles with 17: both read back bit-exact.
void write_raw(const std::string& path, const std::vector<float>& values);
void write_raw(const std::string& path, const std::vector<double>& values);

}  // namespace datasets
