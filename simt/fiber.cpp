// The context switch (fiber.hpp): the emulator's own on x86-64, Boost.Context's
// elsewhere. Both follow one protocol: a jump takes the target's stack
// pointer and a word of data (the switcher's Context), and the resumed side
// receives the switcher's stack pointer and that word, to store it (adopt).
#include "fiber.hpp"

#include <cstdint>

#if defined(__x86_64__) && !defined(SIMT_FIBER_BOOST)

// System V: the callee-saved registers are rbx, rbp and r12-r15; a
// two-pointer struct is passed in rdi:rsi and returned in rax:rdx.
extern "C" simt::Transfer simt_jump_context(void* to, void* data);
extern "C" void simt_context_start();
asm(R"(
    .text
    .globl simt_jump_context
    .hidden simt_jump_context
    .type simt_jump_context, @function
    .p2align 4
simt_jump_context:
    pushq %rbp
    pushq %rbx
    pushq %r15
    pushq %r14
    pushq %r13
    pushq %r12
    movq %rsp, %rax
    movq %rdi, %rsp
    popq %r12
    popq %r13
    popq %r14
    popq %r15
    popq %rbx
    popq %rbp
    movq %rsi, %rdx
    ret
    .size simt_jump_context, .-simt_jump_context

    .globl simt_context_start
    .hidden simt_context_start
    .type simt_context_start, @function
    .p2align 4
simt_context_start:
    movq %rax, %rdi
    movq %rdx, %rsi
    callq *%r12
    ud2
    .size simt_context_start, .-simt_context_start
)");

namespace simt {

// A new context's stack, from its 16-byte aligned top down: the address its
// first jump returns to (simt_context_start, which calls the entry kept in
// r12's slot with the stack aligned as a call expects), then the six saved
// registers, r12 lowest.
Context make_context(unsigned char* low, std::size_t size, void (*entry)(Transfer)) {
    auto top = reinterpret_cast<std::uintptr_t>(low + size) & ~std::uintptr_t{15};
    auto* slots = reinterpret_cast<void**>(top) - 7;
    slots[0] = reinterpret_cast<void*>(entry);  // r12
    for (int i = 1; i < 6; ++i) slots[i] = nullptr;  // r13, r14, r15, rbx, rbp
    slots[6] = reinterpret_cast<void*>(&simt_context_start);
    return {slots};
}

void switch_context(Context& from, const Context& to) { adopt(simt_jump_context(to.sp, &from)); }

}  // namespace simt

#else

#include <boost/context/detail/fcontext.hpp>

namespace simt {
namespace bcd = boost::context::detail;
static_assert(sizeof(Transfer) == sizeof(bcd::transfer_t), "one layout for both");

Context make_context(unsigned char* low, std::size_t size, void (*entry)(Transfer)) {
    // The same two-pointer struct by value: the same calling convention
    // (the cast goes through void (*)(), which g++ accepts as generic).
    const auto generic = reinterpret_cast<void (*)()>(entry);
    return {bcd::make_fcontext(low + size, size, reinterpret_cast<void (*)(bcd::transfer_t)>(generic))};
}

void switch_context(Context& from, const Context& to) {
    const bcd::transfer_t t = bcd::jump_fcontext(to.sp, &from);
    adopt({t.fctx, t.data});
}

}  // namespace simt

#endif
