// The emulator cannot run inline PTX: the rewriter builds this file into a
// marker naming it (simt/limits.hpp), and reports it as a warning on its line.
__global__ void k(unsigned* p) {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    p[threadIdx.x] = lane;
}
