// How an H100 runs a chained publication, as a look-back scan's, with each
// way of polling, reading and raising the flag: block by block (in ticket
// order) thread 0 waits for the flag of the ticket before its own, reads that
// ticket's running total, adds its input, stores its total, fences and raises
// its flag. 20 launches per variant; a launch is wrong when any total is.
// The emulator's model of the cache-hinted accesses (memcheck_reports.cpp's
// hinted_access) follows what this prints; its record is
// bench/results/2026-11-25-h100-publication.txt.
//   nvcc -O3 -arch=sm_90 -o publication simt/conformance/probes/publication.cu && ./publication
//   cuobjdump -sass publication | grep -E 'Function|LDG|STG|MEMBAR|BRA'
#include <cstdio>
#include <cuda_runtime.h>

enum Wait { kVolatile, kAtomic, kLdcv, kLdcg, kLdcvFenced };            // how the flag is polled
enum Read { kPlain, kVolatileRead, kLdcgRead, kAtomicRead, kLdgRead };  // how the total is read
enum Raise { kVolatileFlag, kAtomicFlag, kStcg, kStwt, kStcs, kStwb };  // how the flag is raised

template <Wait W, Read R, Raise F, bool ReaderFence>
__global__ void chain(unsigned* tickets, unsigned* totals, unsigned* flags, const unsigned* in) {
    if (threadIdx.x != 0) return;
    const unsigned ticket = atomicAdd(tickets, 1u);
    unsigned prior = 0;
    if (ticket > 0) {
        unsigned* flag = &flags[ticket - 1];
        if (W == kVolatile) while (*(volatile unsigned*)flag == 0u) {}
        if (W == kAtomic) while (atomicAdd(flag, 0u) == 0u) {}
        if (W == kLdcv) while (__ldcv(flag) == 0u) {}
        if (W == kLdcg) while (__ldcg(flag) == 0u) {}
        if (W == kLdcvFenced) while (__ldcv(flag) == 0u) __threadfence();
        if (ReaderFence) __threadfence();
        unsigned* total = &totals[ticket - 1];
        if (R == kPlain) prior = *total;
        if (R == kVolatileRead) prior = *(volatile unsigned*)total;
        if (R == kLdcgRead) prior = __ldcg(total);
        if (R == kAtomicRead) prior = atomicAdd(total, 0u);
        if (R == kLdgRead) prior = __ldg(total);
    }
    totals[ticket] = prior + in[ticket];
    __threadfence();
    unsigned* mine = &flags[ticket];
    if (F == kVolatileFlag) *(volatile unsigned*)mine = 1u;
    if (F == kAtomicFlag) atomicExch(mine, 1u);
    if (F == kStcg) __stcg(mine, 1u);
    if (F == kStwt) __stwt(mine, 1u);
    if (F == kStcs) __stcs(mine, 1u);
    if (F == kStwb) __stwb(mine, 1u);
}

template <Wait W, Read R, Raise F, bool ReaderFence = true>
void run(const char* name, int blocks) {
    unsigned *tickets, *totals, *flags, *in;
    cudaMalloc(&tickets, 4);
    cudaMalloc(&totals, 4 * blocks);
    cudaMalloc(&flags, 4 * blocks);
    cudaMalloc(&in, 4 * blocks);
    static unsigned h[4096];
    for (int i = 0; i < blocks; ++i) h[i] = i + 1;
    cudaMemcpy(in, h, 4 * blocks, cudaMemcpyHostToDevice);
    int wrong = 0;
    for (int rep = 0; rep < 20; ++rep) {
        cudaMemset(tickets, 0, 4);
        cudaMemset(totals, 0, 4 * blocks);
        cudaMemset(flags, 0, 4 * blocks);
        chain<W, R, F, ReaderFence><<<blocks, 64>>>(tickets, totals, flags, in);
        cudaMemcpy(h, totals, 4 * blocks, cudaMemcpyDeviceToHost);
        for (int i = 0; i < blocks; ++i)
            if (h[i] != static_cast<unsigned>(i + 1) * (i + 2) / 2) {
                ++wrong;
                break;
            }
    }
    std::printf("%-46s %5d blocks: %2d of 20 launches wrong; first totals %u %u %u %u %u (1 3 6 10 15 right)\n", name,
                blocks, wrong, h[0], h[1], h[2], h[3], h[4]);
    cudaFree(tickets);
    cudaFree(totals);
    cudaFree(flags);
    cudaFree(in);
}

int main() {
    for (int blocks : {16, 256, 2048}) {
        run<kVolatile, kPlain, kVolatileFlag>("volatile poll, plain read, volatile flag", blocks);
        run<kVolatile, kPlain, kVolatileFlag, false>("the same without the reader's fence", blocks);
        run<kAtomic, kPlain, kAtomicFlag>("atomic poll, plain read, atomic flag", blocks);
        run<kVolatile, kVolatileRead, kVolatileFlag>("volatile poll, volatile read, volatile flag", blocks);
        run<kVolatile, kAtomicRead, kVolatileFlag>("volatile poll, atomic read, volatile flag", blocks);
        run<kVolatile, kLdcgRead, kVolatileFlag>("volatile poll, __ldcg read, volatile flag", blocks);
        run<kVolatile, kLdgRead, kVolatileFlag>("volatile poll, __ldg read, volatile flag", blocks);
        run<kVolatile, kPlain, kStcg>("volatile poll, plain read, __stcg flag", blocks);
        run<kVolatile, kPlain, kStwt>("volatile poll, plain read, __stwt flag", blocks);
        run<kVolatile, kPlain, kStcs>("volatile poll, plain read, __stcs flag", blocks);
        run<kVolatile, kPlain, kStwb>("volatile poll, plain read, __stwb flag", blocks);
        run<kLdcv, kPlain, kVolatileFlag>("__ldcv poll, plain read, volatile flag", blocks);
        run<kLdcg, kPlain, kVolatileFlag>("__ldcg poll, plain read, volatile flag", blocks);
        run<kLdcvFenced, kPlain, kVolatileFlag>("__ldcv poll with a fence in the loop", blocks);
    }
    const cudaError_t e = cudaGetLastError();
    std::printf("%s\n", cudaGetErrorString(e));
    return e == cudaSuccess ? 0 : 1;
}
