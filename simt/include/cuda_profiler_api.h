// The emulator stands in for the CUDA runtime: the profiler's start and stop
// calls do nothing here (nothing runs on a GPU to profile).
#pragma once
#include <simt/cuda.hpp>

cudaError_t cudaProfilerStart();
cudaError_t cudaProfilerStop();
