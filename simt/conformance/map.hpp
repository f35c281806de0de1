// What the math families' cases share: a kernel that applies Op to each
// element of its inputs, a thread an element, and the host side around it.
// The launch itself stays in each case file (conformance::map's caller), as
// the emulator's rewriter turns only a .cu file's own <<< >>> into a launch.
#pragma once

#include <cstddef>
#include <vector>

#include "conformance.hpp"

namespace conformance {

template <typename Op, typename R, typename... A>
__global__ void k_map(unsigned n, R* out, const A*... a) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = Op{}(a[i]...);
}

// Copies the inputs (all of one length) to the device, calls
// launch(n, out, inputs...) and returns the outputs.
template <typename R, typename Launch, typename... A>
std::vector<R> map_with(Launch launch, const std::vector<A>&... a) {
    const std::size_t sizes[] = {a.size()...};
    const unsigned n = static_cast<unsigned>(sizes[0]);
    return [&](const Buffer<A>&... d) {
        Buffer<R> out(n);
        launch(n, static_cast<R*>(out), static_cast<const A*>(static_cast<A*>(d))...);
        return out.get();
    }(Buffer<A>(a)...);
}

}  // namespace conformance

// A device function object Name whose call is expr of x (y, z).
#define OP1(Name, R, T, expr) \
    struct Name {             \
        __device__ R operator()(T x) const { return expr; } \
    };
#define OP2(Name, R, T, U, expr) \
    struct Name {                \
        __device__ R operator()(T x, U y) const { return expr; } \
    };
#define OP3(Name, R, T, U, V, expr) \
    struct Name {                   \
        __device__ R operator()(T x, U y, V z) const { return expr; } \
    };
