// Must not compile on the emulator: streams are not supported.
__global__ void k(float* p) { p[threadIdx.x] = 0; }
void run(float* p) {
    cudaStream_t s;
    cudaStreamCreate(&s);
    k<<<1, 32, 0, s>>>(p);
}
