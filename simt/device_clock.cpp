// C's clock(), which CUDA's device code also calls for the SM's cycle
// counter: inside a kernel the emulator's counter (clock64's, which grows with
// every read), elsewhere the process's CPU time, as glibc's clock() gives it.
// A file of its own in the emulator's library, so only programs that call
// clock() take this definition instead of the C library's.
#include <time.h>

#include "internal.hpp"

extern "C" clock_t clock() noexcept {
    if (simt::detail::in_kernel()) return static_cast<clock_t>(simt::detail::device_clock());
    timespec ts{};
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return static_cast<clock_t>(-1);
    return static_cast<clock_t>(ts.tv_sec * CLOCKS_PER_SEC + ts.tv_nsec / (1000000000 / CLOCKS_PER_SEC));
}
