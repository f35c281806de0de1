// Test kernels for the emulator, in CUDA syntax: the build rewrites this file
// with simt-rewrite exactly as it rewrites a lab's scan.cu (and the other
// *_kernels.cu). The tests assert the line numbers of the barriers below.
#include "kernels.hpp"

// Each block reverses its slice through shared memory: needs block-private
// shared memory and a working barrier.
__global__ void reverse(const int* in, int* out) {
    __shared__ int buf[1024];
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

// The HSH loop shape: the trip count depends on threadIdx.x.
__global__ void exit_early(int* out) {
    int steps = 0;
    for (unsigned stride = 1; stride <= threadIdx.x; stride *= 2) {
        __syncthreads();  /* line 20 */
        ++steps;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = steps;
}

__global__ void two_sites(int* out) {
    if (threadIdx.x < 16) {
        __syncthreads();  // line 28
    } else {
        __syncthreads();  // line 30
    }
    out[threadIdx.x] = 1;
}

__global__ void dynamic_reverse(const int* in, int* out) {
    extern __shared__ int tile[];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

template <typename T>
__global__ void fill(T* out, T value, unsigned n) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = value;
}

__global__ void index_2d(unsigned* out) {
    const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
    const unsigned thread = threadIdx.y * blockDim.x + threadIdx.x;
    out[block * blockDim.x * blockDim.y + thread] = block * 1000 + thread;
}

cudaError_t launch_reverse(const int* d_in, int* d_out, unsigned blocks, unsigned threads) {
    reverse<<<blocks, threads>>>(d_in, d_out);  // "<<<not a launch>>>" in a comment
    return cudaGetLastError();
}

cudaError_t launch_exit_early(int* d_out, unsigned blocks) {
    exit_early<<<blocks, 64>>>(d_out);  // line 60
    return cudaGetLastError();
}

cudaError_t launch_two_sites(int* d_out) {
    two_sites<<<1, 32>>>(d_out);
    return cudaGetLastError();
}

cudaError_t launch_dynamic_reverse(const int* d_in, int* d_out, unsigned threads, std::size_t shared_bytes) {
    dynamic_reverse<<<1, threads, shared_bytes>>>(d_in, d_out);
    return cudaGetLastError();
}

cudaError_t launch_fill(float* d_out, float value, unsigned n) {
    fill<float><<<(n + 255) / 256,
                  256>>>(d_out, value, n);
    return cudaGetLastError();
}

cudaError_t launch_index_2d(unsigned* d_out) {
    index_2d<<<dim3(3, 2), dim3(4, 2)>>>(d_out);
    return cudaGetLastError();
}

// Lab 01's reference with one error put back each: the single buffer (a race,
// every thread still runs every step) ...
__global__ void ks_race_only(const float* in, float* out) {
    __shared__ float partial[256];
    const unsigned t = threadIdx.x;
    partial[t] = in[t];
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        if (t >= stride) partial[t] += partial[t - stride];  // line 93
    }
    out[t] = partial[t];
}

// ... and the loop whose trip count depends on threadIdx.x (double-buffered).
__global__ void ks_barrier_only(const float* in, float* out) {
    __shared__ float buffer[2][256];
    const unsigned t = threadIdx.x;
    unsigned src = 0;
    buffer[src][t] = in[t];
    for (unsigned stride = 1; stride <= t; stride *= 2) {
        __syncthreads();  // line 105
        buffer[src ^ 1][t] = buffer[src][t] + buffer[src][t - stride];
        src ^= 1;
    }
    out[t] = buffer[src][t];
}

// Thread 0 of every block updates one global word: blocks race.
__global__ void cross_block(int* counter) {
    if (threadIdx.x == 0) *counter += 1;  // line 114
}

// Two threads of a block write one global word between the same barriers.
__global__ void same_word(int* out) { out[threadIdx.x / 2] = threadIdx.x; }  // line 118

__global__ void past_the_end(int* out, unsigned n) { out[threadIdx.x + 1] = n; }  // line 120

__global__ void shared_overrun(int* out) {
    __shared__ int tile[32];
    tile[threadIdx.x + 1] = 1;  // line 124
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

__global__ void half_written(int* out) {
    __shared__ int tile[64];
    if (threadIdx.x < 32) tile[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];  // line 133
}

void launch_checks_kernels(const float* f_in, float* f_out, int* i_out, unsigned which) {
    switch (which) {
        case 0: ks_race_only<<<1, 256>>>(f_in, f_out); break;
        case 1: ks_barrier_only<<<1, 256>>>(f_in, f_out); break;
        case 2: cross_block<<<4, 32>>>(i_out); break;
        case 3: same_word<<<1, 64>>>(i_out); break;
        case 4: past_the_end<<<1, 32>>>(i_out, 32); break;
        case 5: shared_overrun<<<1, 32>>>(i_out); break;
        case 6: half_written<<<1, 64>>>(i_out); break;
    }
}

// Divergence references (PMPP exercise 9.1 and sec. 9.4): the double-buffered
// Kogge-Stone with `if (threadIdx.x >= stride)`, and Brent-Kung's reduction
// tree with the modulo test and with the contiguous mapping.
__global__ void ks_double_buffered(const float* in, float* out) {
    __shared__ float buffer[2][1024];
    in += blockIdx.x * 1024;
    out += blockIdx.x * 1024;
    unsigned src = 0;
    buffer[src][threadIdx.x] = in[threadIdx.x];
    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        __syncthreads();
        float value = buffer[src][threadIdx.x];
        if (threadIdx.x >= stride) value += buffer[src][threadIdx.x - stride];
        buffer[src ^ 1][threadIdx.x] = value;
        src ^= 1;
    }
    out[threadIdx.x] = buffer[src][threadIdx.x];
}

__global__ void bk_reduce(const float* in, float* out, int contiguous) {
    __shared__ float section[2048];
    const unsigned t = threadIdx.x;
    in += blockIdx.x * 2048;
    out += blockIdx.x * 2048;
    section[t] = in[t];
    section[t + 1024] = in[t + 1024];
    for (unsigned stride = 1; stride < 2048; stride *= 2) {
        __syncthreads();
        if (contiguous) {
            const unsigned index = (t + 1) * 2 * stride - 1;
            if (index < 2048) section[index] += section[index - stride];
        } else {  // the modulo test, thread t owning elements t and t + 1024
            if ((t + 1) % (2 * stride) == 0) section[t] += section[t - stride];
            if ((t + 1025) % (2 * stride) == 0) section[t + 1024] += section[t + 1024 - stride];
        }
    }
    __syncthreads();
    out[t] = section[t];
    out[t + 1024] = section[t + 1024];
}

void launch_divergence_kernels(const float* in, float* out, unsigned which, unsigned blocks) {
    if (which == 0) ks_double_buffered<<<blocks, 1024>>>(in, out);
    if (which == 1) bk_reduce<<<blocks, 1024>>>(in, out, 0);
    if (which == 2) bk_reduce<<<blocks, 1024>>>(in, out, 1);
}

// Warp functions and atomics.
__global__ void warp_ops(int* out) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    int sum = lane + 1;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    int* row = out + threadIdx.x * 6;
    row[0] = sum;                                          // lane 0: 1 + ... + 32
    row[1] = __shfl_sync(0xffffffffu, lane * 10, 3);       // every lane: 30
    row[2] = __shfl_up_sync(0xffffffffu, lane, 1);         // lane - 1, lane 0 keeps 0
    row[3] = __shfl_xor_sync(0xffffffffu, lane, 1);        // lane ^ 1
    row[4] = static_cast<int>(__ballot_sync(0xffffffffu, lane % 3 == 0));
    row[5] = __shfl_sync(0xffffffffu, lane, 5, 8) + warp;  // width 8: lane 5 of each 8-lane segment
}

__global__ void half_warp_sync(int* out) {
    if (threadIdx.x < 16) __syncwarp();  // line 210
    out[threadIdx.x] = 1;
}

__global__ void atomics(unsigned* counters) {
    atomicAdd(&counters[0], 1u);
    atomicMax(&counters[1], blockIdx.x * blockDim.x + threadIdx.x);
    atomicCAS(&counters[2], 0u, 7u);
}

void launch_warp_kernels(int* out, unsigned* counters, unsigned which) {
    if (which == 0) warp_ops<<<1, 64>>>(out);
    if (which == 1) half_warp_sync<<<1, 32>>>(out);
    if (which == 2) atomics<<<4, 64>>>(counters);
}

// Handed a host pointer, as a student passing h_out instead of d_out.
__global__ void writes_host(int* out) { out[threadIdx.x] = 1; }  // line 227

void launch_writes_host(int* host_out) { writes_host<<<1, 8>>>(host_out); }

// A __noinline__ helper, then a system header that spells the attribute
// __attribute__((__noinline__)) itself (libstdc++'s <memory>): both compile.
__device__ __noinline__ int twice(int x) { return 2 * x; }
#include <memory>

// A warp-synchronous Kogge-Stone scan of each warp's 32 values in shared
// memory. With the two __syncwarp() per step it is right on a GPU (each
// orders the lanes' reads before the writes, and the writes before the next
// reads); without them (use_syncwarp 0) lanes read what others write in the
// same step: a race.
__global__ void warp_scan(const int* in, int* out, int use_syncwarp) {
    __shared__ int s[64];
    const unsigned t = threadIdx.x, lane = t % 32;
    s[t] = in[t];
    if (use_syncwarp) __syncwarp();
    for (unsigned d = 1; d < 32; d *= 2) {
        const int add = lane >= d ? s[t - d] : 0;  // line 247
        if (use_syncwarp) __syncwarp();
        s[t] += add;  // line 249
        if (use_syncwarp) __syncwarp();
    }
    out[t] = s[t];
}

cudaError_t launch_warp_scan(const int* d_in, int* d_out, bool use_syncwarp) {
    warp_scan<<<1, 64>>>(d_in, d_out, use_syncwarp ? 1 : 0);  // line 256
    return cudaGetLastError();
}

// Two arrays in one declaration: both are checked (a race on the second).
__global__ void two_arrays(int* out) {
    __shared__ int a[32], b[32];
    a[threadIdx.x] = 1;
    b[threadIdx.x] = threadIdx.x;  // line 264
    if (threadIdx.x > 0) out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x - 1];  // line 265
}

cudaError_t launch_two_arrays(int* d_out) {
    two_arrays<<<1, 32>>>(d_out);  // line 269
    return cudaGetLastError();
}

// 100000 bytes of dynamic shared memory, allowed by cudaFuncSetAttribute.
cudaError_t launch_big_dynamic(const int* d_in, int* d_out, std::size_t shared_bytes, bool allow) {
    if (allow) cudaFuncSetAttribute(dynamic_reverse, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000);
    dynamic_reverse<<<1, 64, shared_bytes>>>(d_in, d_out);
    return cudaGetLastError();
}

// A launch on a stream, and on one destroyed.
cudaError_t launch_on_stream(float* d_out, unsigned n, cudaStream_t stream) {
    fill<float><<<(n + 63) / 64, 64, 0, stream>>>(d_out, 2.0f, n);
    return cudaGetLastError();
}

// Integer and SIMD intrinsics whose emulation branches or loops on its
// operands (__ffs(0), __clz(0), __fns's search, saturation): on a GPU each is
// an instruction or a few, and here none is a basic block of the kernel's,
// so no warp diverges.
__global__ void intrinsics_by_lane(unsigned* out) {
    const unsigned t = threadIdx.x;
    out[t] = static_cast<unsigned>(__ffs(static_cast<int>(t)) + __clz(static_cast<int>(t)) + __popc(t)) +
             __fns(0xf0f0f0f0u, t % 32, static_cast<int>(t % 5) - 2) + __vabsss2(t * 0x9e3779b9u) +
             __byte_perm(t, ~t, t) + __vsads4(t, ~t * 7u) + __funnelshift_lc(t, ~t, t);
}

cudaError_t launch_intrinsics_by_lane(unsigned* d_out) {
    intrinsics_by_lane<<<1, 64>>>(d_out);
    return cudaGetLastError();
}
