// Test kernels for the emulator (issue 49): accesses of less than a word
// (checked per byte), device memcpy/memset and struct copies (checked as the
// loads and stores they are), and reads of device memory nothing wrote.
// test_bytes.cpp asserts the line numbers below.
#include <cstring>

#include "kernels.hpp"

// Each thread writes its own byte (or 2-byte half): neighbours share a
// word but no byte, in shared memory and in global memory. No finding.
struct Chars {
    char a, b, c, d;
};

__global__ void adjacent_bytes(unsigned char* out, unsigned short* halves, Chars* quads) {
    __shared__ unsigned char flags[128];
    __shared__ short pairs[128];
    const unsigned t = threadIdx.x;
    flags[t] = static_cast<unsigned char>(t);
    pairs[t] = static_cast<short>(t * 3);
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = flags[127 - t] + static_cast<unsigned char>(pairs[t ^ 1]);
    halves[blockIdx.x * blockDim.x + t] = static_cast<unsigned short>(t);
    Chars& q = quads[(blockIdx.x * blockDim.x + t) / 4];
    switch (t % 4) {
        case 0: q.a = 'a'; break;
        case 1: q.b = 'b'; break;
        case 2: q.c = 'c'; break;
        default: q.d = 'd'; break;
    }
}

// Thread 0 stores a whole word, thread 1 one byte of it, with no barrier
// between: they overlap, a race (lines 38 and 39), in shared or global memory.
__global__ void word_and_byte(unsigned* out, bool shared) {
    __shared__ unsigned words[4];
    unsigned* w = shared ? words : out;
    if (threadIdx.x == 0) w[1] = 0x01020304u;                                   // line 38
    if (threadIdx.x == 1) reinterpret_cast<unsigned char*>(w)[6] = 9;         // line 39
    __syncthreads();
    if (shared && threadIdx.x == 0) out[0] = words[1];
}

// Blocks write neighbouring bytes of one word (no race), then block 1 reads
// block 0's byte (a race across blocks: lines 47 and 48).
__global__ void bytes_across_blocks(unsigned char* out, bool read_other) {
    if (threadIdx.x == 0) out[blockIdx.x] = static_cast<unsigned char>(blockIdx.x + 1);  // line 47
    if (read_other && threadIdx.x == 0 && blockIdx.x == 1) out[4] = out[0];               // line 48
}

cudaError_t launch_adjacent_bytes(unsigned char* out, unsigned short* halves, void* quads, unsigned blocks) {
    adjacent_bytes<<<blocks, 128>>>(out, halves, static_cast<Chars*>(quads));  // line 52
    return cudaGetLastError();
}
cudaError_t launch_word_and_byte(unsigned* out, bool shared) {
    word_and_byte<<<1, 32>>>(out, shared);  // line 56
    return cudaGetLastError();
}
cudaError_t launch_bytes_across_blocks(unsigned char* out, bool read_other) {
    bytes_across_blocks<<<4, 32>>>(out, read_other);  // line 60
    return cudaGetLastError();
}

// memcpy and memset in device code. `which`: 0 every thread copies 32 bytes
// into the same place (a race: GCC expands a constant-size memcpy inline,
// where its instrumentation does not see it); 1 the same with
// __builtin_memcpy into shared memory; 2 memset of a run-time length into
// the same place; 3 __builtin_memset; 4 each thread copies its own 32 bytes
// (no finding); 5 a copy one float past the end (out of bounds); 6 a copy
// from a shared array nothing wrote (uninitialised); 7 a struct copy into
// one element by every thread (a race); 8 a copy one float past the end of
// a shared array (out of bounds).
struct Big {
    float v[10];
};

__global__ void device_memcalls(const float* in, float* out, int which, unsigned n) {
    __shared__ float tile[64];
    __shared__ float fresh[8];
    const unsigned t = threadIdx.x;
    switch (which) {
        case 0: memcpy(out, in + 8 * t, 8 * sizeof(float)); break;                 // line 82
        case 1:
            __builtin_memcpy(tile, in + 8 * t, 8 * sizeof(float));                  // line 84
            __syncthreads();
            out[t] = tile[t % 8];
            break;
        case 2: memset(out, 0, n * sizeof(float)); break;                          // line 88
        case 3: __builtin_memset(out + 4, 0, 16 * sizeof(float)); break;            // line 89
        case 4: std::memcpy(out + 8 * t, in + 8 * t, 8 * sizeof(float)); break;     // line 90
        case 5:
            if (t == 0) memcpy(out, in, (n + 1) * sizeof(float));                   // line 92
            break;
        case 6:
            if (t == 0) memcpy(out, fresh, sizeof fresh);                           // line 95
            break;
        case 7: reinterpret_cast<Big*>(out)[0] = reinterpret_cast<const Big*>(in)[t]; break;  // line 97
        case 8:
            if (t == 0) memcpy(tile, in, sizeof tile + sizeof(float));              // line 99
            break;
    }
}

cudaError_t launch_device_memcalls(const float* in, float* out, int which, unsigned n) {
    device_memcalls<<<1, 8>>>(in, out, which, n);  // line 105
    return cudaGetLastError();
}

// Reads of device memory (initcheck's class). `which`: 0 read element t;
// 1 atomicAdd into element 0; 2 atomicExch into element t, its old value
// discarded; 3 write element t, then (after a barrier) read element t ^ 1.
__global__ void reads_global(int* data, int* out, int which) {
    const unsigned t = threadIdx.x;
    switch (which) {
        case 0: out[t] = data[t]; break;                    // line 115
        case 1: atomicAdd(&data[0], 1); break;              // line 116
        case 2: atomicExch(&data[t], 7); break;             // line 117
        case 3:
            data[t] = static_cast<int>(t);                  // line 119
            __syncthreads();
            out[t] = data[t ^ 1];                           // line 121
            break;
    }
}

// One byte of each word written by a kernel (the rest by nothing), then the
// whole word read by a second launch.
__global__ void write_low_bytes(int* data) { reinterpret_cast<unsigned char*>(data)[4 * threadIdx.x] = 1; }

cudaError_t launch_reads_global(int* data, int* out, int which, unsigned threads) {
    if (which == 4) {
        write_low_bytes<<<1, threads>>>(data);       // line 132
        which = 0;
    }
    reads_global<<<1, threads>>>(data, out, which);  // line 135
    return cudaGetLastError();
}

// A device allocation made in this file (compiled with -g, as a lab's is), so
// a report can name the line that made it.
int* allocate_ints(unsigned n) {
    int* p = nullptr;
    return cudaMalloc(&p, n * sizeof(int)) == cudaSuccess ? p : nullptr;  // line 143
}
