// The emulator stands in for the CUDA runtime.
#pragma once
#include <simt/cuda.hpp>
