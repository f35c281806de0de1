// The emulator has CUDA's vector types and their make_ functions in its shim.
#pragma once
#include <simt/cuda.hpp>
