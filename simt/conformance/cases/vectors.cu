// CUDA's built-in vector types (vector_types.h) and their make_ functions:
// each type's size and alignment as a kernel sees them, and each type loaded
// from and stored to device memory whole, its components rebuilt with its
// make_ function; dim3 and uint3 from the launch's indices.
#include <cstring>
#include <string>
#include <vector>

#include "conformance.hpp"

// CUDA 13 deprecates long4, ulong4, longlong4, ulonglong4 and double4 (for
// their _16a and _32a variants); the suite exercises them still. (nvcc's
// front end warns as #1444, the host compiler and g++ as GCC does.)
#pragma nv_diag_suppress 1444
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace {

// Every vector type: X(type, scalar, components).
#define VECTOR_TYPES(X)                     \
    X(char1, signed char, 1)                \
    X(char2, signed char, 2)                \
    X(char3, signed char, 3)                \
    X(char4, signed char, 4)                \
    X(uchar1, unsigned char, 1)             \
    X(uchar2, unsigned char, 2)             \
    X(uchar3, unsigned char, 3)             \
    X(uchar4, unsigned char, 4)             \
    X(short1, short, 1)                     \
    X(short2, short, 2)                     \
    X(short3, short, 3)                     \
    X(short4, short, 4)                     \
    X(ushort1, unsigned short, 1)           \
    X(ushort2, unsigned short, 2)           \
    X(ushort3, unsigned short, 3)           \
    X(ushort4, unsigned short, 4)           \
    X(int1, int, 1)                         \
    X(int2, int, 2)                         \
    X(int3, int, 3)                         \
    X(int4, int, 4)                         \
    X(uint1, unsigned int, 1)               \
    X(uint2, unsigned int, 2)               \
    X(uint3, unsigned int, 3)               \
    X(uint4, unsigned int, 4)               \
    X(long1, long int, 1)                   \
    X(long2, long int, 2)                   \
    X(long3, long int, 3)                   \
    X(long4, long int, 4)                   \
    X(long4_16a, long int, 4)               \
    X(long4_32a, long int, 4)               \
    X(ulong1, unsigned long int, 1)         \
    X(ulong2, unsigned long int, 2)         \
    X(ulong3, unsigned long int, 3)         \
    X(ulong4, unsigned long int, 4)         \
    X(ulong4_16a, unsigned long int, 4)     \
    X(ulong4_32a, unsigned long int, 4)     \
    X(longlong1, long long int, 1)          \
    X(longlong2, long long int, 2)          \
    X(longlong3, long long int, 3)          \
    X(longlong4, long long int, 4)          \
    X(longlong4_16a, long long int, 4)      \
    X(longlong4_32a, long long int, 4)      \
    X(ulonglong1, unsigned long long int, 1) \
    X(ulonglong2, unsigned long long int, 2) \
    X(ulonglong3, unsigned long long int, 3) \
    X(ulonglong4, unsigned long long int, 4) \
    X(ulonglong4_16a, unsigned long long int, 4) \
    X(ulonglong4_32a, unsigned long long int, 4) \
    X(float1, float, 1)                     \
    X(float2, float, 2)                     \
    X(float3, float, 3)                     \
    X(float4, float, 4)                     \
    X(double1, double, 1)                   \
    X(double2, double, 2)                   \
    X(double3, double, 3)                   \
    X(double4, double, 4)                   \
    X(double4_16a, double, 4)               \
    X(double4_32a, double, 4)

// ---- layout: sizeof and alignof of each type (and dim3), two numbers each.
__global__ void k_layout(unsigned* out) {
    unsigned k = 0;
#define LAYOUT(T, S, N)              \
    out[k++] = sizeof(T);            \
    out[k++] = alignof(T);
    VECTOR_TYPES(LAYOUT)
#undef LAYOUT
    out[k++] = sizeof(dim3);
    out[k++] = alignof(dim3);
}

// ---- load and store: thread j loads elements j*g ... j*g + g - 1 whole,
// rotates each one's components with the type's make_ function and stores it
// whole, the groups in reverse order. A group covers whole 4-byte words (g = 4
// for 1- and 3-byte types, 2 for 2- and 6-byte ones): the emulator checks
// races per word, and would take two threads' neighbouring bytes for a race.
#define ROTATE1(T, v) make_##T(v.x)
#define ROTATE2(T, v) make_##T(v.y, v.x)
#define ROTATE3(T, v) make_##T(v.z, v.x, v.y)
#define ROTATE4(T, v) make_##T(v.w, v.x, v.y, v.z)
#define ROTATED(T, S, N) \
    __device__ T rotated(T v) { return ROTATE##N(T, v); }
VECTOR_TYPES(ROTATED)
#undef ROTATED

template <typename T>
__host__ __device__ constexpr unsigned group() {
    return sizeof(T) % 4 == 0 ? 1 : sizeof(T) % 2 == 0 ? 2 : 4;
}

template <typename T>
__global__ void k_load_store(const T* in, T* out, unsigned groups) {
    constexpr unsigned g = group<T>();
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < groups)
        for (unsigned k = 0; k < g; ++k) out[g * (groups - 1 - j) + k] = rotated(in[g * j + k]);
}

// n elements of T made of the bytes of conformance::u64_inputs(), run
// through k_load_store, recorded as their components.
template <typename T, typename S>
void load_store(conformance::Results& r, const char* name) {
    constexpr unsigned n = 64;
    const std::vector<unsigned long long> bytes = conformance::u64_inputs();
    std::vector<T> in(n);
    static_assert(sizeof(T) * n <= 256 * sizeof(unsigned long long), "enough input bytes");
    std::memcpy(in.data(), bytes.data(), sizeof(T) * n);
    conformance::Buffer<T> d_in(in), d_out(n);
    const unsigned groups = n / group<T>();
    k_load_store<T><<<conformance::blocks(groups, 32), 32>>>(d_in, d_out, groups);
    const std::vector<T> out = d_out.get();
    std::vector<S> parts(sizeof(T) / sizeof(S) * n);
    std::memcpy(parts.data(), out.data(), sizeof(T) * n);
    r.exact(name, parts);
}

// ---- dim3 and uint3: the indices as uint3, dim3 made from them and back.
__global__ void k_dims(unsigned* out) {
    const unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    const unsigned i = b * (blockDim.x * blockDim.y * blockDim.z) + t;
    const uint3 block = blockDim;               // dim3 to uint3
    const dim3 thread(threadIdx);               // uint3 to dim3
    const dim3 defaults;                        // 1, 1, 1
    const dim3 partial(7);                      // 7, 1, 1
    const uint3 made = make_uint3(thread.x, thread.y, thread.z);
    unsigned* o = out + 16 * i;
    o[0] = block.x, o[1] = block.y, o[2] = block.z;
    o[3] = thread.x, o[4] = thread.y, o[5] = thread.z;
    o[6] = defaults.x, o[7] = defaults.y, o[8] = defaults.z;
    o[9] = partial.x, o[10] = partial.y, o[11] = partial.z;
    o[12] = made.x + made.y + made.z;
    o[13] = gridDim.x * gridDim.y * gridDim.z;
    o[14] = b;
    o[15] = t;
}

#define NAME(T, S, N) #T " "
#define MAKE_NAME(T, S, N) "make_" #T " "

}  // namespace

CONFORMANCE_CASE(layout, VECTOR_TYPES(NAME) "dim3") {
    std::vector<std::string> names;
#define PUSH(T, S, N) names.push_back(#T);
    VECTOR_TYPES(PUSH)
#undef PUSH
    names.push_back("dim3");
    conformance::Buffer<unsigned> d_out(2 * names.size());
    k_layout<<<1, 1>>>(d_out);
    const std::vector<unsigned> out = d_out.get();
    for (std::size_t i = 0; i < names.size(); ++i)
        r.exact("sizeof, alignof " + names[i], std::vector<unsigned>{out[2 * i], out[2 * i + 1]});
}

CONFORMANCE_CASE(load_store, VECTOR_TYPES(NAME) VECTOR_TYPES(MAKE_NAME)) {
#define LOAD_STORE(T, S, N) load_store<T, S>(r, #T);
    VECTOR_TYPES(LOAD_STORE)
#undef LOAD_STORE
}

CONFORMANCE_CASE(dims, "dim3 uint3 make_uint3") {
    const dim3 grid(2, 3, 1), block(4, 2, 2);
    conformance::Buffer<unsigned> d_out(16 * 6 * 16);
    k_dims<<<grid, block>>>(d_out);
    r.exact("blockDim, threadIdx, dim3(), dim3(7), sums, grid size, block, thread", d_out.get());
}
