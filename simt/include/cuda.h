// The emulator stands in for the CUDA runtime; of the driver API's header it
// gives the version (CUDA 13.0): the driver API's calls are not modelled.
#pragma once
#include <simt/cuda.hpp>
#define CUDA_VERSION 13000
