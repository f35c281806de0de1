// Test kernels for the emulator (the build rewrites them as kernels.cu's):
// accesses out of range, misaligned and vector-typed, and `__device__`
// variables. test_memory.cpp asserts the line numbers below.
#include "kernels.hpp"

// Accesses out of range by a distance (issue 18): thread 5 stores to or loads
// from element `index` of `data`; null_store stores through a pointer that
// holds an address where nothing is mapped (an uninitialised one's garbage);
// library_store stores through __builtin_bzero, which GCC expands inline where the
// access hooks do not see it (the SIGSEGV backstop must; memset is checked).
__global__ void store_at(float* data, long long index) {
    if (threadIdx.x == 5) data[index] = 1.0f;  // line 12
}

__global__ void load_at(const float* data, float* out, long long index) {
    if (threadIdx.x == 5) out[0] = data[index];  // line 16
}

__global__ void library_store(float* data, long long index) {
    if (threadIdx.x == 5) __builtin_bzero(data + index, sizeof(float));  // line 20
}

cudaError_t launch_at(float* d_data, float* d_out, long long index, unsigned which) {
    switch (which) {
        case 0: store_at<<<1, 32>>>(d_data, index); break;  // line 25
        case 1: load_at<<<1, 32>>>(d_data, d_out, index); break;  // line 26
        case 2: library_store<<<1, 32>>>(d_data, index); break;  // line 27
    }
    return cudaGetLastError();
}

// A float4 made from `in + offset` (issue 15's leftover): at an offset of 1
// or 2 floats its loads fault on a GPU (misaligned address), at 4 they do not.
__global__ void load_float4(const float* in, float* out, unsigned offset) {
    const float4 v = reinterpret_cast<const float4*>(in + offset)[threadIdx.x];  // line 35
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

cudaError_t launch_load_float4(const float* d_in, float* d_out, unsigned offset) {
    load_float4<<<1, 8>>>(d_in, d_out, offset);  // line 40
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

// `__device__` variables are device memory to the checks (the rewriter
// registers them): every thread adds into one word without an atomic (a
// race), or thread 0 reads just outside a table (out of bounds).
__device__ int d_total;
__device__ int d_table[8];

__global__ void device_variable_race() {
    d_total += 1;  // line 76
}

__global__ void device_variable_past_end(int index) {
    if (threadIdx.x == 0) d_total = d_table[index];  // line 80
}

__global__ void device_variable_atomic() { atomicAdd(&d_total, 1); }

cudaError_t launch_device_variable(unsigned which, int index) {
    switch (which) {
        case 0: device_variable_race<<<1, 64>>>(); break;  // line 87
        case 1: device_variable_past_end<<<1, 32>>>(index); break;  // line 88
        case 2: device_variable_atomic<<<2, 64>>>(); break;
    }
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

// Data through the host (test_memory.cpp): one block copies `n` ints, plainly
// or through atomicAdd(&from[i], 0), whose old value is a read; or the host
// fills d_table with cudaMemcpyToSymbolAsync and a kernel copies it out.
__global__ void copy_ints(int* from, int* to, unsigned n, bool atomic) {
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x) to[i] = atomic ? atomicAdd(&from[i], 0) : from[i];
}

cudaError_t launch_copy_ints(int* from, int* to, unsigned n, bool atomic) {
    copy_ints<<<1, 64>>>(from, to, n, atomic);
    return cudaGetLastError();
}

__global__ void copy_table(int* to) { to[threadIdx.x] = d_table[threadIdx.x]; }

cudaError_t upload_and_copy_table(const int* host, int* to) {
    if (cudaMemcpyToSymbolAsync(d_table, host, sizeof d_table, 0, cudaMemcpyHostToDevice, 0) != cudaSuccess)
        return cudaGetLastError();
    copy_table<<<1, 8>>>(to);
    return cudaGetLastError();
}
