// The toolkit's scan where the compiler has it, else nothing: scan.cu has
// kernels of its own for that case.
#pragma once

#if defined(__has_include)
#if __has_include(<cub/cub.cuh>)
#include <cub/cub.cuh>
#define HAVE_TOOLKIT_SCAN 1
namespace toolkit = cub;
#endif
#endif
