// Host side of primitives.cu: one kernel per device primitive.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

// The primitives' names, as run_primitive takes them.
std::vector<std::string> primitive_names();

// Runs the kernel of primitive `name` once (one block of 64 threads) on a
// 64-word scratch allocation whose first words are `scratch_init` (the rest
// zero) and stores the number it leaves in *result.
cudaError_t run_primitive(const std::string& name, const std::vector<unsigned long long>& scratch_init,
                          unsigned long long* result);
