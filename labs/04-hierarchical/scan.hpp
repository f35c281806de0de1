// Lab 04 API (do not edit: the tests and the grader are built against it).
#pragma once

#include <cstddef>

// The block scan works on SECTION_SIZE-element sections, BLOCK_SIZE threads
// per block, two elements per thread.
constexpr unsigned SECTION_SIZE = 2048;
constexpr unsigned BLOCK_SIZE = SECTION_SIZE / 2;

// Inclusive scan of the whole of d_in (any length) into d_out. Device
// pointers; n may be any value (0: no-op); d_in is not modified; every
// temporary allocated on the device is freed before returning.
void hierarchical_scan(const float* d_in, float* d_out, std::size_t n);
