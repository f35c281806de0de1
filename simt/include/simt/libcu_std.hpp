// libcu++'s plain <cuda/std/...> headers (cstdint, type_traits, limits, ...)
// for the emulator: the standard library's names, reached as cuda::std::NAME
// too. What libcu++ declares itself (the atomics: simt/libcu.hpp) is found
// first.
#pragma once

namespace cuda {
namespace std {
using namespace ::std;
}  // namespace std
}  // namespace cuda
