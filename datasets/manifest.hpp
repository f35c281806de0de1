// The public dataset manifest of a lab: one dataset per line,
//   class  distribution  n  seed
// with '#' comments. The class groups datasets into one `meson test` each.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "generator.hpp"

namespace datasets {

struct ManifestError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Entry {
    std::string cls;
    Spec spec;
};

std::vector<Entry> read_manifest(const std::string& path);
// Class names in order of first appearance.
std::vector<std::string> classes(const std::vector<Entry>& entries);

}  // namespace datasets
