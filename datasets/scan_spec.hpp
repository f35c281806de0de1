// What a lab function computes, and the float64 answer it is held to.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace datasets {

enum class ScanKind { Inclusive, Exclusive };

struct ScanSpec {
    ScanKind kind = ScanKind::Inclusive;
    // Elements per independently scanned section; 0 means the whole array is
    // one scan (lab 04).
    std::size_t section = 0;
    // Elements one thread block owns, used only to name the block of a wrong
    // element in diagnostics (equal to section in labs 01-03, 2048 in lab 04).
    std::size_t block = 0;
};

std::string describe(const ScanSpec& spec);

// The scan in float64, summed in index order; on the integer walks this is
// exact, on uniform floats it is the value float32 results are compared with.
std::vector<double> reference_scan(const std::vector<float>& in, const ScanSpec& spec);

// For each output, the sum of |x| over the terms it adds up: the scale of the
// float tolerance (a summation's rounding error is bounded by it).
std::vector<double> magnitude_scan(const std::vector<float>& in, const ScanSpec& spec);

// The sequential scan in float32, one addition per element (the textbook's
// baseline; also the model answer the comparison rule is tested against).
std::vector<float> serial_scan(const std::vector<float>& in, const ScanSpec& spec);

}  // namespace datasets
