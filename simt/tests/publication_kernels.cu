// Test kernels for the emulator (the build rewrites them as kernels.cu's):
// blocks that publish data to one another through flags, with fences or
// without. test_races.cpp asserts the line numbers below.
#include "kernels.hpp"

// Block b publishes data[b] with a plain store and a flag; block b + 1 waits
// for the flag and reads data[b] with a plain load. Right on a GPU with a
// __threadfence() between the store and the flag (fences & 1) and another
// after the flag's load (fences & 2); without either, a race. Four blocks or
// fewer: the emulator starts them all at once, so none waits for ever.
__global__ void publish_chain(float* data, int* flags, float* out, int fences) {
    const unsigned b = blockIdx.x;
    if (threadIdx.x == 0) {
        float before = 0.0f;
        if (b > 0) {
            while (atomicAdd(&flags[b - 1], 0) == 0) {
            }
            if (fences & 2) __threadfence();
            before = data[b - 1];  // line 19
        }
        data[b] = before + 1.0f;  // line 21
        if (fences & 1) __threadfence();
        atomicExch(&flags[b], 1);
        out[b] = before;
    }
}

cudaError_t launch_publish_chain(float* d_data, int* d_flags, float* d_out, unsigned blocks, int fences) {
    publish_chain<<<blocks, 32>>>(d_data, d_flags, d_out, fences);
    return cudaGetLastError();
}

// Each block's thread 0 publishes twice: 1, then (after looking at the
// others' flags) 2. A block that sees another's 1 saw it between its two
// publications, which a GPU allows; counted in *seen_between.
__global__ void two_publications(int* flags, int* seen_between) {
    const unsigned b = blockIdx.x;
    if (threadIdx.x != 0) return;
    atomicExch(&flags[b], 1);
    for (unsigned other = 0; other < gridDim.x; ++other)
        if (other != b && atomicAdd(&flags[other], 0) == 1) atomicAdd(seen_between, 1);
    atomicExch(&flags[b], 2);
}

cudaError_t launch_two_publications(int* d_flags, int* d_seen_between, unsigned blocks) {
    two_publications<<<blocks, 32>>>(d_flags, d_seen_between);
    return cudaGetLastError();
}

// publish_chain with the flag polled by a volatile load, fences on both
// sides: a poll that spins lets the writer run, and the value the load then
// reads is what the fence after it acquires.
__global__ void publish_chain_volatile(float* data, int* flags, float* out) {
    const unsigned b = blockIdx.x;
    if (threadIdx.x == 0) {
        float before = 0.0f;
        if (b > 0) {
            while (*(volatile int*)&flags[b - 1] == 0) {
            }
            __threadfence();
            before = data[b - 1];
        }
        data[b] = before + 1.0f;
        __threadfence();
        *(volatile int*)&flags[b] = 1;
        out[b] = before;
    }
}

cudaError_t launch_publish_chain_volatile(float* d_data, int* d_flags, float* d_out, unsigned blocks) {
    publish_chain_volatile<<<blocks, 32>>>(d_data, d_flags, d_out);
    return cudaGetLastError();
}

// GCC's own fence (std::atomic_thread_fence is the same), not CUDA's: under
// the instrumentation it reaches the emulator as __tsan_atomic_thread_fence,
// which memcheck_hooks.cpp defines, so a kernel file that writes one links and runs.
// GCC warns that ThreadSanitizer does not model fences: the emulator needs no
// model, one OS thread runs every block.
#pragma GCC diagnostic ignored "-Wtsan"
__global__ void cxx_fence(int* w) {
    if (threadIdx.x == 0) {
        w[1] = 45;
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        atomicExch(&w[0], 1);
    }
}

cudaError_t launch_cxx_fence(int* d_words) {
    cxx_fence<<<1, 64>>>(d_words);
    return cudaGetLastError();
}

// Each block stores its sum, fences and takes a ticket; the last to take one
// fences and totals the sums (the Programming Guide's __threadfence()
// example). Every atomicAdd continues the ticket's release sequence, so the
// last block acquires every block's sum, not only the sum of the block that
// took the ticket before it. Without the first fence (`fenced` false) the
// tickets release nothing, and the last block's reads race.
__global__ void last_block_total(const float* in, float* sums, unsigned* ticket, float* total, bool fenced) {
    if (threadIdx.x != 0) return;
    sums[blockIdx.x] = in[blockIdx.x];
    if (fenced) __threadfence();
    const unsigned mine = atomicAdd(ticket, 1u);
    if (mine != gridDim.x - 1) return;
    __threadfence();
    float t = 0.0f;
    for (unsigned b = 0; b < gridDim.x; ++b) t += sums[b];  // line 108
    *total = t;
}

cudaError_t launch_last_block_total(const float* d_in, float* d_sums, unsigned* d_ticket, float* d_total, unsigned blocks,
                                    bool fenced) {
    last_block_total<<<blocks, 32>>>(d_in, d_sums, d_ticket, d_total, fenced);
    return cudaGetLastError();
}
