// On a GPU (not built by Meson): where nvcc puts a kernel's __shared__
// arrays, and whether float4 loads from in + k fault, the facts the
// emulator's misaligned-pointer check follows (simt/docs/memory.md):
//   nvcc -O2 -arch=sm_90 -o gpu-alignment simt/tests/gpu-alignment.cu
//   ./gpu-alignment; for k in 0 1 2 3 4 8; do ./gpu-alignment $k; done
// (one k a process: a misaligned address ends the CUDA context).
#include <cstdio>
#include <cstdlib>

__global__ void where(unsigned* out) {
    __shared__ float a[3];
    __shared__ float b[5];
    __shared__ unsigned char c[3];
    __shared__ float d[7];
    a[threadIdx.x % 3] = 1;
    b[threadIdx.x % 5] = 2;
    c[threadIdx.x % 3] = 3;
    d[threadIdx.x % 7] = 4;
    if (threadIdx.x == 0) {
        out[0] = static_cast<unsigned>(__cvta_generic_to_shared(a) % 16);
        out[1] = static_cast<unsigned>(__cvta_generic_to_shared(b) % 16);
        out[2] = static_cast<unsigned>(__cvta_generic_to_shared(c) % 16);
        out[3] = static_cast<unsigned>(__cvta_generic_to_shared(d) % 16);
        out[4] = static_cast<unsigned>(a[0] + b[0] + c[0] + d[0]);  // keeps the arrays
    }
}

__global__ void load4(const float* in, float* out, unsigned k) {
    const float4 v = reinterpret_cast<const float4*>(in + k)[threadIdx.x];
    out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        unsigned* d;
        unsigned h[5];
        cudaMalloc(&d, sizeof h);
        where<<<1, 32>>>(d);
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        std::printf("shared offsets mod 16: a %u, b %u, c %u, d %u\n", h[0], h[1], h[2], h[3]);
        return 0;
    }
    const unsigned k = static_cast<unsigned>(std::atoi(argv[1]));
    float *in, *out;
    cudaMalloc(&in, 4096);
    cudaMalloc(&out, 4096);
    cudaMemset(in, 0, 4096);
    load4<<<1, 8>>>(in, out, k);
    std::printf("float4 loads from in + %u: %s\n", k, cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
}
