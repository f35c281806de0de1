// Must not compile on the emulator: __shfl without a mask was removed from
// CUDA for Volta and newer GPUs, and the shim's error says what to use.
__global__ void k(float* p) { p[threadIdx.x] = __shfl(p[threadIdx.x], 0); }
