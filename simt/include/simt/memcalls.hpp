// memcpy, memmove and memset as the rewriter spells them in a lab's code
// (rewrite.cpp's rewrite_memcalls; `std::memcpy` and `__builtin_memcpy`
// too): in a kernel each checks the bytes it reads and writes as one load
// and one store of that many bytes, at the caller's line, then does the
// C library's work (device_memcalls.cpp). GCC would expand a constant-size
// call inline after its instrumentation ran, and call the C library's
// otherwise: the access hooks saw neither.
#pragma once

#include <cstddef>

extern "C" {
void* __simt_memcpy(void* dst, const void* src, std::size_t bytes) noexcept;
void* __simt_memmove(void* dst, const void* src, std::size_t bytes) noexcept;
void* __simt_memset(void* dst, int value, std::size_t bytes) noexcept;
}
namespace std {
using ::__simt_memcpy;
using ::__simt_memmove;
using ::__simt_memset;
}  // namespace std
