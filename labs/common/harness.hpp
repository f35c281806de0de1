// The doctest side of a lab suite: runs the lab's functions over the selected
// public datasets (or --input values) and turns each rule of judge() into a
// doctest check.
#pragma once

#include <string>
#include <vector>

#include "manifest.hpp"

namespace harness {

// The datasets chosen on the command line (main.cpp).
void select(std::vector<datasets::Entry> entries);

// Instead of the manifest's datasets, run on these values (--input).
void use_values(std::vector<float> values);

}  // namespace harness
