// The shim's memcpy, memmove and memset (memcalls.hpp): in a kernel, the
// source is checked as one read and the destination as one write of the
// call's bytes (races, bounds, uninitialised reads) at the caller's line,
// before the copy is made, as the instrumentation's hooks check a load or
// store; outside one they are the C library's.
#include <cstring>

#include "internal.hpp"
#include "memcheck.hpp"

extern "C" {

void* __simt_memcpy(void* dst, const void* src, std::size_t bytes) noexcept {
    if (bytes != 0 && simt::detail::in_kernel()) {
        simt::detail::on_access(src, bytes, false, __builtin_return_address(0));
        simt::detail::on_access(dst, bytes, true, __builtin_return_address(0));
    }
    return std::memcpy(dst, src, bytes);
}

void* __simt_memmove(void* dst, const void* src, std::size_t bytes) noexcept {
    if (bytes != 0 && simt::detail::in_kernel()) {
        simt::detail::on_access(src, bytes, false, __builtin_return_address(0));
        simt::detail::on_access(dst, bytes, true, __builtin_return_address(0));
    }
    return std::memmove(dst, src, bytes);
}

void* __simt_memset(void* dst, int value, std::size_t bytes) noexcept {
    if (bytes != 0 && simt::detail::in_kernel())
        simt::detail::on_access(dst, bytes, true, __builtin_return_address(0));
    return std::memset(dst, value, bytes);
}

}  // extern "C"
