// The GPU threads' contexts. A switch saves what a function call must keep
// (the callee-saved registers and the stack pointer) and nothing else:
// Boost.Context's switch also saves the x87 and SSE control words, which cost
// about two thirds of each switch, and the emulator switches at every barrier
// of every thread. Kernels never change those words across a switch (the
// directed-rounding intrinsics set and restore the rounding mode inside one
// call). On x86-64 the switch is the emulator's own (fiber.cpp); elsewhere, or
// with SIMT_FIBER_BOOST, it is Boost.Context's.
#pragma once

#include <cstddef>

namespace simt {

// A suspended context: where its stack pointer was left.
struct Context {
    void* sp = nullptr;
};

// What a context's entry receives: the context that switched to it.
struct Transfer {
    void* from;
    void* data;
};

// A context on [low, low + size) that, when first switched to, calls entry
// (which must never return: it ends by switching away for good). entry
// starts with adopt(t).
Context make_context(unsigned char* low, std::size_t size, void (*entry)(Transfer));

// Saves the running context in `from` and runs `to`; returns when some
// context switches back to `from`.
void switch_context(Context& from, const Context& to);

// An entry's first step: records the context that switched to it.
inline void adopt(Transfer t) { static_cast<Context*>(t.data)->sp = t.from; }

}  // namespace simt
