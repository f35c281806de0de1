// The source rewriter that lets g++ compile a lab's .cu unchanged in meaning:
//   kernel<<<grid, block[, shared[, stream]]>>>(args)
//     -> simt::launch(kernel, {"kernel", __FILE__, __LINE__}, grid, block[, ...])(args)
//        (a template kernel whose template arguments are deduced, all or some:
//        simt::launch_call([&](auto&&... a) { kernel<1>(a...); }, ...)(args))
//   extern __shared__ T name[];  ->  T* name = simt::dynamic_shared_as<T>();
//                                    (at namespace scope: the runtime's buffer,
//                                    declared by its symbol)
//   __shared__ T name[N];        ->  the same, then simt::declare_shared(&name, ...)
//                                    on the same line (at namespace scope a static
//                                    that registers it at start-up), so the
//                                    checks can name the array and its element
//   reinterpret_cast<T>(e)       ->  simt::reinterpret_checked<T>("T", e): the same
//                                    cast, checking a pointer's alignment in kernels
// Comments, string and character literals are left alone. No line is added or
// removed, and the output starts with #line 1 "<original path>", so compiler
// errors and __FILE__/__LINE__ name the student's file and lines.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "limits.hpp"

namespace simt {

struct RewriteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// `path` is what #line names; throws RewriteError ("path:line: ...") for a
// launch it cannot parse.
std::string rewrite(const std::string& source, const std::string& path);

// What a file that uses constructs the emulator cannot run (limits.hpp) is
// built into instead of its code: the records, as the C string
// simt_kit_limits (labs/common/device_emu.cpp reads it).
std::string limits_marker(const std::string& path, const std::vector<Limit>& limits);

}  // namespace simt
