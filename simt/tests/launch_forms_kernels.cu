// Test kernels for the emulator (the build rewrites them as kernels.cu's):
// template kernels launched with some template arguments written and the
// rest deduced from the call, as nvcc takes them, through the names and
// spellings people use. test_launch_forms.cpp asserts what each writes.
#include "kernels.hpp"

namespace forms {

// GPU Gems' prescan's shape: B given, T deduced.
template <int B, typename T>
__global__ void scaled(T* out, const T* in, int n) {
    if (static_cast<int>(threadIdx.x) < n) out[threadIdx.x] = in[threadIdx.x] * B;
}

template <typename T, int N>
struct Wrap {
    static constexpr int value = N;
};

// A policy type as the first argument, itself a template's.
template <typename W, int K, typename T>
__global__ void nested(T* out, unsigned n) {
    if (threadIdx.x < n) out[threadIdx.x] = static_cast<T>(W::value * K);
}
template <typename W, typename T>
__global__ void wrapped(T* out) {
    out[threadIdx.x] = static_cast<T>(W::value);
}

// A pack: the first type written, the others deduced.
template <typename... Ts>
__global__ void packed(int* out, Ts... xs) {
    out[threadIdx.x] = (static_cast<int>(xs) + ... + 0);
}

// The kernel's name after an attribute's parentheses.
template <int B, typename T>
__global__ void __launch_bounds__(64) bounded(T* out) {
    out[threadIdx.x] = static_cast<T>(B);
}

template <unsigned N>
constexpr unsigned threads_for = N;

}  // namespace forms

namespace alias = forms;
using forms::scaled;

// A reference to one specialisation: a function, no pointer.
constexpr auto& tripled = forms::scaled<3, float>;

void launch_forms(const float* in, float* out, int* i_out, unsigned which) {
    switch (which) {
        case 0: forms::scaled<2><<<1, 32>>>(out, in, 32); break;
        case 1: scaled<4> <<< 1, 32 >>> (out, in, 32); break;
        case 2:
            alias::scaled<5>
                <<<1,
                   32>>>
                (out, in, 32);
            break;
        case 3: forms::nested<forms::Wrap<int, 5>, 2><<<1, 32>>>(out, 32u); break;
        case 4: forms::wrapped<forms::Wrap<float, 6>><<<1, 32>>>(out); break;
        case 5: tripled<<<1, 32>>>(out, in, 32); break;
        case 6: forms::packed<int><<<1, 32>>>(i_out, 1, 2.5, 3u); break;
        case 7: forms::bounded<7><<<1, forms::threads_for<32> >>>(out); break;
        case 8: forms::scaled<8, float><<<1, 32>>>(out, in, 32); break;  // every argument written: the kernel's address
        case 9: forms::scaled<9><<<dim3(1), dim3(forms::threads_for<16>), 0, cudaStreamPerThread>>>(out, in, 16); break;
    }
}
