// The CUDA runtime API the emulator serves on the host (runtime_api.cpp,
// error_api.cpp, stream_api.cpp, device_api.cpp): errors, memory, streams,
// events, the device's properties (an H100's, as CUDA 13 reports them),
// kernel attributes, the occupancy calculator and symbols. Types, values and
// signatures as in CUDA 13's driver_types.h, cuda_runtime_api.h and
// cuda_runtime.h. Every launch runs to completion before it returns, so every
// stream is always idle and stream order is kept trivially.
//
// In parts: host_types.hpp (the version, error codes, handles and flags),
// host_memory.hpp (memory, copies and symbols), host_device.hpp (the error
// state and the device), host_streams.hpp (streams and events) and
// host_kernels.hpp (kernels' attributes and the occupancy calculator).
#pragma once

#include <cstddef>
#include "simt/vector_types.hpp"

#include "simt/host_types.hpp"
#include "simt/host_memory.hpp"
#include "simt/host_device.hpp"
#include "simt/host_streams.hpp"
#include "simt/host_kernels.hpp"
