// Test kernels for the emulator, in CUDA syntax: the build rewrites this file
// with simt-rewrite exactly as it rewrites a lab's scan.cu. test_simt.cpp
// asserts the line numbers of the barriers below.
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

// Block order: each block takes a ticket as it starts and files its blockIdx
// under it, so order[k] is the k-th block to start.
__global__ void start_order(unsigned* order, unsigned* tickets) {
    if (threadIdx.x == 0) order[atomicAdd(tickets, 1u)] = blockIdx.x + gridDim.x * blockIdx.y;
}

cudaError_t launch_start_order(unsigned* d_order, unsigned* d_tickets, dim3 grid) {
    start_order<<<grid, 32>>>(d_order, d_tickets);
    return cudaGetLastError();
}

// Blocks that wait for the block before them by blockIdx (right only where
// every block gets started): thread 0 spins on the flag of block x - 1, with
// an atomic or a volatile load, then raises its own; out[x] is the running
// count of blocks done when x finished.
__global__ void wait_for_previous(int* flags, int* out, int use_volatile) {
    const unsigned x = blockIdx.x;
    if (threadIdx.x == 0) {
        if (x > 0) {
            if (use_volatile) {
                volatile int* seen = flags;
                while (seen[x - 1] == 0) {
                }
            } else {
                while (atomicAdd(&flags[x - 1], 0) == 0) {
                }
            }
        }
        out[x] = atomicAdd(&flags[gridDim.x], 1);
        __threadfence();
        atomicExch(&flags[x], 1);
    }
    __syncthreads();
}

cudaError_t launch_wait_for_previous(int* d_flags, int* d_out, unsigned blocks, bool use_volatile) {
    wait_for_previous<<<blocks, 64>>>(d_flags, d_out, use_volatile ? 1 : 0);  // line 272
    return cudaGetLastError();
}

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
        const int add = lane >= d ? s[t - d] : 0;  // line 287
        if (use_syncwarp) __syncwarp();
        s[t] += add;  // line 289
        if (use_syncwarp) __syncwarp();
    }
    out[t] = s[t];
}

cudaError_t launch_warp_scan(const int* d_in, int* d_out, bool use_syncwarp) {
    warp_scan<<<1, 64>>>(d_in, d_out, use_syncwarp ? 1 : 0);  // line 296
    return cudaGetLastError();
}

// Two arrays in one declaration: both are checked (a race on the second).
__global__ void two_arrays(int* out) {
    __shared__ int a[32], b[32];
    a[threadIdx.x] = 1;
    b[threadIdx.x] = threadIdx.x;  // line 304
    if (threadIdx.x > 0) out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x - 1];  // line 305
}

cudaError_t launch_two_arrays(int* d_out) {
    two_arrays<<<1, 32>>>(d_out);  // line 309
    return cudaGetLastError();
}

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
            before = data[b - 1];  // line 326
        }
        data[b] = before + 1.0f;  // line 328
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

// The watchdog. endless_loop's update adds `step`, 0 here (as `stride * 2`
// leaves stride as it was), so its loop never ends: with no barrier in it
// (thread 0 would run on alone) or with one (every thread passes it again and
// again). long_loop runs long but ends: with `staggered`, thread t runs
// (t + 1) * rounds rounds with no barrier and exits, so the block's threads
// finish one after another; without, every thread runs `rounds` rounds with
// a barrier in each.
__global__ void endless_loop(int* out, unsigned step, int with_barrier) {
    const unsigned t = threadIdx.x;
    for (unsigned i = 0; i < blockDim.x; i += step) {  // line 391
        out[blockIdx.x * blockDim.x + t] = static_cast<int>(i);
        if (with_barrier) __syncthreads();  // line 393
    }
}

cudaError_t launch_endless_loop(int* d_out, unsigned blocks, unsigned step, bool with_barrier) {
    endless_loop<<<blocks, 64>>>(d_out, step, with_barrier ? 1 : 0);  // line 398
    return cudaGetLastError();
}

__global__ void long_loop(int* out, unsigned rounds, int staggered) {
    const unsigned t = threadIdx.x, mine = blockIdx.x * blockDim.x + t;
    for (unsigned i = 0; i < (staggered ? (t + 1) * rounds : rounds); ++i) {
        out[mine] += 1;
        if (!staggered) __syncthreads();
    }
}

cudaError_t launch_long_loop(int* d_out, unsigned blocks, unsigned rounds, bool staggered) {
    long_loop<<<blocks, 64>>>(d_out, rounds, staggered ? 1 : 0);
    return cudaGetLastError();
}

// Threads the emulator puts aside inside a hook that GCC's instrumentation
// calls, one it declares as never throwing (__tsan_volatile_read4,
// __sanitizer_cov_trace_pc), before the function's first call that may throw
// (threadIdx.x, after which it has a cleanup to run): its unwind table has no
// entry for the hook's call, as in lab 05's look_back when tiles are numbered
// by blockIdx.x. wait_first: blocks wait by blockIdx for the block before
// them, as in wait_for_previous; loop_first: the loop never ends (step 0).
__device__ __noinline__ unsigned wait_for_flag(const int* flags, unsigned x) {
    const volatile int* seen = flags;
    while (seen[x] == 0) {  // line 424
    }
    return threadIdx.x;
}

__device__ __noinline__ unsigned loop_for(int* out, unsigned step) {
    unsigned i = 0;
    for (; i < 64; i += step) out[i % 4] = static_cast<int>(i);  // line 431
    return i + threadIdx.x;
}

__global__ void wait_first(int* flags, int* out, int endless) {
    const unsigned x = blockIdx.x;
    if (threadIdx.x == 0) {
        if (endless) out[x] = static_cast<int>(loop_for(out, 0));
        else if (x > 0) out[x] = static_cast<int>(wait_for_flag(flags, x - 1));
        atomicExch(&flags[x], 1);
    }
    __syncthreads();
}

cudaError_t launch_wait_first(int* d_flags, int* d_out, unsigned blocks, bool endless) {
    wait_first<<<blocks, 64>>>(d_flags, d_out, endless ? 1 : 0);  // line 446
    return cudaGetLastError();
}

// Accesses out of range by a distance (issue 18): thread 5 stores to or loads
// from element `index` of `data`; null_store stores through a pointer that
// holds an address where nothing is mapped (an uninitialised one's garbage);
// library_store stores through __builtin_memset, which the access hooks do not see (the
// SIGSEGV backstop must).
__global__ void store_at(float* data, long long index) {
    if (threadIdx.x == 5) data[index] = 1.0f;  // line 456
}

__global__ void load_at(const float* data, float* out, long long index) {
    if (threadIdx.x == 5) out[0] = data[index];  // line 460
}

__global__ void library_store(float* data, long long index) {
    if (threadIdx.x == 5) __builtin_memset(data + index, 0, sizeof(float));  // line 464
}

cudaError_t launch_at(float* d_data, float* d_out, long long index, unsigned which) {
    switch (which) {
        case 0: store_at<<<1, 32>>>(d_data, index); break;  // line 469
        case 1: load_at<<<1, 32>>>(d_data, d_out, index); break;  // line 470
        case 2: library_store<<<1, 32>>>(d_data, index); break;  // line 471
    }
    return cudaGetLastError();
}

// A float4 made from `in + offset` (issue 15's leftover): at an offset of 1
// or 2 floats its loads fault on a GPU (misaligned address), at 4 they do not.
__global__ void load_float4(const float* in, float* out, unsigned offset) {
    const float4 v = reinterpret_cast<const float4*>(in + offset)[threadIdx.x];  // line 479
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

cudaError_t launch_load_float4(const float* d_in, float* d_out, unsigned offset) {
    load_float4<<<1, 8>>>(d_in, d_out, offset);  // line 484
    return cudaGetLastError();
}

// A float4 view of a __shared__ float array (a kernel's first is at offset 0
// on a GPU) and of a local one (where nvcc puts it is its own): no finding.
__global__ void shared_float4(const float* in, float* out) {
    __shared__ float tile[64];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 16) {
        const float4 v = reinterpret_cast<const float4*>(tile)[threadIdx.x];
        float local[4];
        *reinterpret_cast<float4*>(local) = v;
        out[threadIdx.x] = local[0] + local[1] + local[2] + local[3];
    }
}

// CUDA's __align__ qualifier compiles as nvcc has it.
struct __align__(16) Quad {
    float v[4];
};
static_assert(alignof(Quad) == 16, "__align__(16)");

cudaError_t launch_shared_float4(const float* d_in, float* d_out) {
    shared_float4<<<1, 64>>>(d_in, d_out);
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

// `__device__` variables are device memory to the checks (the rewriter
// registers them): every thread adds into one word without an atomic (a
// race), or thread 0 reads just outside a table (out of bounds).
__device__ int d_total;
__device__ int d_table[8];

__global__ void device_variable_race() {
    d_total += 1;  // line 539
}

__global__ void device_variable_past_end(int index) {
    if (threadIdx.x == 0) d_total = d_table[index];  // line 543
}

__global__ void device_variable_atomic() { atomicAdd(&d_total, 1); }

cudaError_t launch_device_variable(unsigned which, int index) {
    switch (which) {
        case 0: device_variable_race<<<1, 64>>>(); break;  // line 550
        case 1: device_variable_past_end<<<1, 32>>>(index); break;  // line 551
        case 2: device_variable_atomic<<<2, 64>>>(); break;
    }
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

// Vector types loaded or stored whole one past the end of a 96-byte
// allocation: one access of the type's size (a float4 one of 16 bytes, an
// int2 one of 8), as on a GPU.
// (A component is changed in between: GCC would otherwise split such a copy
// into one access per component, with -fno-tree-sra it does not.)
template <typename T>
__global__ void vector_past_end(T* data, bool store) {
    constexpr unsigned n = 96 / sizeof(T);
    T v = data[store ? 0 : n];
    v.x = static_cast<decltype(v.x)>(v.x + 1);
    data[store ? n : 0] = v;
}

cudaError_t launch_vector_past_end(void* d_data, unsigned which, bool store) {
    switch (which) {
        case 0: vector_past_end<char4><<<1, 1>>>(static_cast<char4*>(d_data), store); break;
        case 1: vector_past_end<short4><<<1, 1>>>(static_cast<short4*>(d_data), store); break;
        case 2: vector_past_end<int2><<<1, 1>>>(static_cast<int2*>(d_data), store); break;
        case 3: vector_past_end<float2><<<1, 1>>>(static_cast<float2*>(d_data), store); break;
        case 4: vector_past_end<int3><<<1, 1>>>(static_cast<int3*>(d_data), store); break;
        case 5: vector_past_end<int4><<<1, 1>>>(static_cast<int4*>(d_data), store); break;
        case 6: vector_past_end<float4><<<1, 1>>>(static_cast<float4*>(d_data), store); break;
        case 7: vector_past_end<double2><<<1, 1>>>(static_cast<double2*>(d_data), store); break;
        case 8: vector_past_end<ulonglong2><<<1, 1>>>(static_cast<ulonglong2*>(d_data), store); break;
        case 9: vector_past_end<double4_32a><<<1, 1>>>(static_cast<double4_32a*>(d_data), store); break;
    }
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
