// The device as a program asks about it: cudaGetDeviceProperties' fields,
// cudaDeviceGetAttribute for every attribute, versions, limits and cache
// preferences; kernels' attributes, the dynamic shared memory a kernel may be
// allowed, and the occupancy calculator, for two kernels light enough (14 and
// 12 registers with CUDA 13 for sm_90; up to 32 a thread, 2048 threads still
// fit a multiprocessor) that registers limit nothing there either.
#include <cuda_profiler_api.h>

#include <cstdint>
#include <vector>

#include "conformance.hpp"

namespace {

int code(cudaError_t e) { return static_cast<int>(e); }

// 1024 bytes of static shared memory: each block reverses its 256 values.
__global__ void k_static(const float* in, float* out) {
    __shared__ float tile[256];
    const unsigned t = threadIdx.x, base = blockIdx.x * 256;
    tile[t] = in[base + t];
    __syncthreads();
    out[base + t] = tile[255 - t];
}

// The same through dynamic shared memory (the launch says how much).
__global__ void k_dynamic(const float* in, float* out) {
    extern __shared__ float buffer[];
    const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
    buffer[t] = in[base + t];
    __syncthreads();
    out[base + t] = buffer[blockDim.x - 1 - t];
}

// Only for cudaFuncSetCacheConfig: a kernel that prefers L1 gets a smaller
// shared memory carveout on an H100, which its occupancy then reflects (the
// emulator's occupancy does not model carveouts: simt/docs/runtime-api.md).
__global__ void k_cache(float* out) { out[threadIdx.x] = 1.0f; }

std::vector<float> ramp(unsigned n) {
    std::vector<float> v(n);
    for (unsigned i = 0; i < n; ++i) v[i] = static_cast<float>(i) * 0.5f;
    return v;
}

}  // namespace

CONFORMANCE_CASE(device_properties, "cudaGetDeviceProperties cudaDeviceProp cudaGetDeviceCount cudaGetDevice "
                                    "cudaSetDevice cudaRuntimeGetVersion cudaDriverGetVersion cudaMemGetInfo") {
    int count = 0, device = -1, runtime = 0, driver = 0;
    r.require(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    r.require(cudaSetDevice(0), "cudaSetDevice");
    r.require(cudaGetDevice(&device), "cudaGetDevice");
    r.require(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    r.require(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    r.exact("cudaGetDeviceCount, cudaGetDevice, cudaRuntimeGetVersion, cudaDriverGetVersion",
            std::vector<int>{count, device, runtime, driver});
    std::size_t free_bytes = 0, total_bytes = 0;
    r.require(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    r.exact("cudaMemGetInfo total", static_cast<unsigned long long>(total_bytes));
    r.exact("cudaMemGetInfo free below total", static_cast<std::uint8_t>(free_bytes > 0 && free_bytes < total_bytes));

    cudaDeviceProp p{};
    r.require(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    std::vector<std::uint8_t> name;
    for (const char* c = p.name; *c; ++c) name.push_back(static_cast<std::uint8_t>(*c));
    r.exact("name", name);
    // Every field a device reports the same on every run (not its UUID, LUID
    // or PCI IDs, which name the card).
#define FIELD(f) r.exact("cudaDeviceProp." #f, static_cast<long long>(p.f))
#define ARRAY(f, n) r.exact("cudaDeviceProp." #f, std::vector<long long>(p.f, p.f + n))
    FIELD(totalGlobalMem);
    FIELD(sharedMemPerBlock);
    FIELD(regsPerBlock);
    FIELD(warpSize);
    FIELD(memPitch);
    FIELD(maxThreadsPerBlock);
    ARRAY(maxThreadsDim, 3);
    ARRAY(maxGridSize, 3);
    FIELD(totalConstMem);
    FIELD(major);
    FIELD(minor);
    FIELD(textureAlignment);
    FIELD(texturePitchAlignment);
    FIELD(multiProcessorCount);
    FIELD(integrated);
    FIELD(canMapHostMemory);
    FIELD(maxTexture1D);
    FIELD(maxTexture1DMipmap);
    ARRAY(maxTexture2D, 2);
    ARRAY(maxTexture2DMipmap, 2);
    ARRAY(maxTexture2DLinear, 3);
    ARRAY(maxTexture2DGather, 2);
    ARRAY(maxTexture3D, 3);
    ARRAY(maxTexture3DAlt, 3);
    FIELD(maxTextureCubemap);
    ARRAY(maxTexture1DLayered, 2);
    ARRAY(maxTexture2DLayered, 3);
    ARRAY(maxTextureCubemapLayered, 2);
    FIELD(maxSurface1D);
    ARRAY(maxSurface2D, 2);
    ARRAY(maxSurface3D, 3);
    ARRAY(maxSurface1DLayered, 2);
    ARRAY(maxSurface2DLayered, 3);
    FIELD(maxSurfaceCubemap);
    ARRAY(maxSurfaceCubemapLayered, 2);
    FIELD(surfaceAlignment);
    FIELD(concurrentKernels);
    FIELD(ECCEnabled);
    FIELD(pciBusID);
    FIELD(pciDeviceID);
    FIELD(pciDomainID);
    FIELD(tccDriver);
    FIELD(asyncEngineCount);
    FIELD(unifiedAddressing);
    FIELD(memoryBusWidth);
    FIELD(l2CacheSize);
    FIELD(persistingL2CacheMaxSize);
    FIELD(maxThreadsPerMultiProcessor);
    FIELD(streamPrioritiesSupported);
    FIELD(globalL1CacheSupported);
    FIELD(localL1CacheSupported);
    FIELD(sharedMemPerMultiprocessor);
    FIELD(regsPerMultiprocessor);
    FIELD(managedMemory);
    FIELD(isMultiGpuBoard);
    FIELD(multiGpuBoardGroupID);
    FIELD(hostNativeAtomicSupported);
    FIELD(pageableMemoryAccess);
    FIELD(concurrentManagedAccess);
    FIELD(computePreemptionSupported);
    FIELD(canUseHostPointerForRegisteredMem);
    FIELD(cooperativeLaunch);
    FIELD(sharedMemPerBlockOptin);
    FIELD(pageableMemoryAccessUsesHostPageTables);
    FIELD(directManagedMemAccessFromHost);
    FIELD(maxBlocksPerMultiProcessor);
    FIELD(accessPolicyMaxWindowSize);
    FIELD(reservedSharedMemPerBlock);
    FIELD(hostRegisterSupported);
    FIELD(sparseCudaArraySupported);
    FIELD(hostRegisterReadOnlySupported);
    FIELD(timelineSemaphoreInteropSupported);
    FIELD(memoryPoolsSupported);
    FIELD(gpuDirectRDMASupported);
    FIELD(gpuDirectRDMAFlushWritesOptions);
    FIELD(gpuDirectRDMAWritesOrdering);
    FIELD(memoryPoolSupportedHandleTypes);
    FIELD(deferredMappingCudaArraySupported);
    FIELD(ipcEventSupported);
    FIELD(clusterLaunch);
    FIELD(unifiedFunctionPointers);
    FIELD(deviceNumaConfig);
    FIELD(deviceNumaId);
    FIELD(mpsEnabled);
    FIELD(hostNumaId);
#undef FIELD
#undef ARRAY

    std::vector<int> codes;
    codes.push_back(code(cudaGetDeviceProperties(&p, 1)));
    codes.push_back(code(cudaSetDevice(1)));
    codes.push_back(code(cudaSetDevice(-1)));
    codes.push_back(code(cudaGetDeviceCount(nullptr)));
    r.exact("codes: cudaGetDeviceProperties(device 1), cudaSetDevice(1), cudaSetDevice(-1), cudaGetDeviceCount(null)",
            codes);
    cudaGetLastError();
}

CONFORMANCE_CASE(device_attributes, "cudaDeviceGetAttribute cudaDeviceAttr") {
    // Every attribute up to 138 (139 and 140 are the card's PCI IDs).
    std::vector<int> values, codes;
    for (int a = 1; a <= 138; ++a) {
        int v = -12345;
        codes.push_back(code(cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), 0)));
        values.push_back(v);
    }
    r.exact("cudaDeviceGetAttribute(1 ... 138): codes", codes);
    r.exact("cudaDeviceGetAttribute(1 ... 138): values", values);
    cudaDeviceProp p{};
    int sm = 0, warp = 0;
    r.require(cudaGetDeviceProperties(&p, 0), "cudaGetDeviceProperties");
    r.require(cudaDeviceGetAttribute(&sm, cudaDevAttrMultiProcessorCount, 0), "cudaDeviceGetAttribute");
    r.require(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, 0), "cudaDeviceGetAttribute");
    r.exact("the attributes agree with the properties", static_cast<std::uint8_t>(sm == p.multiProcessorCount && warp == p.warpSize));
    int v = 0;
    r.exact("cudaDeviceGetAttribute(device 1)", code(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1)));
    cudaGetLastError();
}

CONFORMANCE_CASE(device_limits, "cudaDeviceSetLimit cudaDeviceGetLimit cudaLimitStackSize cudaLimitPrintfFifoSize "
                                "cudaLimitMallocHeapSize") {
    const cudaLimit limits[] = {cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize};
    std::vector<unsigned long long> defaults, set;
    for (cudaLimit l : limits) {
        std::size_t v = 0;
        r.require(cudaDeviceGetLimit(&v, l), "cudaDeviceGetLimit");
        defaults.push_back(v);
    }
    r.exact("defaults: stack, printf FIFO, malloc heap", defaults);
    const std::size_t wanted[] = {4096, 2 << 20, 16 << 20};
    std::vector<int> set_codes;
    for (int i = 0; i < 3; ++i) set_codes.push_back(code(cudaDeviceSetLimit(limits[i], wanted[i])));
    r.exact("codes: cudaDeviceSetLimit 4096, 2 MiB, 16 MiB", set_codes);
    cudaGetLastError();
    for (cudaLimit l : limits) {
        std::size_t v = 0;
        r.require(cudaDeviceGetLimit(&v, l), "cudaDeviceGetLimit");
        set.push_back(v);
    }
    r.exact("after setting 4096, 2 MiB, 16 MiB", set);
    std::vector<int> restore_codes;
    for (int i = 0; i < 3; ++i) restore_codes.push_back(code(cudaDeviceSetLimit(limits[i], defaults[i])));
    r.exact("codes: cudaDeviceSetLimit back to the defaults", restore_codes);
    cudaGetLastError();
    std::size_t v = 0;
    std::vector<int> codes;
    codes.push_back(code(cudaDeviceGetLimit(&v, static_cast<cudaLimit>(99))));
    codes.push_back(code(cudaDeviceSetLimit(static_cast<cudaLimit>(99), 1)));
    codes.push_back(code(cudaDeviceGetLimit(nullptr, cudaLimitStackSize)));
    r.exact("codes: cudaDeviceGetLimit(limit 99), cudaDeviceSetLimit(limit 99), cudaDeviceGetLimit(null)", codes);
    cudaGetLastError();
}

CONFORMANCE_CASE(cache_preferences, "cudaDeviceSetCacheConfig cudaDeviceGetCacheConfig cudaFuncSetCacheConfig "
                                    "cudaFuncCachePreferShared cudaProfilerStart cudaProfilerStop") {
    cudaFuncCache before = cudaFuncCachePreferEqual, after = cudaFuncCachePreferEqual;
    r.require(cudaDeviceGetCacheConfig(&before), "cudaDeviceGetCacheConfig");
    std::vector<int> codes;
    codes.push_back(code(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared)));
    r.require(cudaDeviceGetCacheConfig(&after), "cudaDeviceGetCacheConfig");
    codes.push_back(code(cudaFuncSetCacheConfig(k_cache, cudaFuncCachePreferL1)));
    codes.push_back(code(cudaProfilerStart()));
    codes.push_back(code(cudaProfilerStop()));
    codes.push_back(code(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone)));
    r.exact("codes: cudaDeviceSetCacheConfig, cudaFuncSetCacheConfig, cudaProfilerStart, cudaProfilerStop, "
            "cudaDeviceSetCacheConfig",
            codes);
    r.exact("cudaDeviceGetCacheConfig before and after", std::vector<int>{before, after});
    cudaGetLastError();
}

CONFORMANCE_CASE(occupancy, "cudaOccupancyMaxActiveBlocksPerMultiprocessor "
                            "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags cudaOccupancyMaxPotentialBlockSize "
                            "cudaOccupancyAvailableDynamicSMemPerBlock cudaOccupancyDisableCachingOverride "
                            "cudaFuncGetAttributes cudaFuncAttributes cudaFuncSetAttribute "
                            "cudaFuncAttributeMaxDynamicSharedMemorySize") {
    // Each kernel runs first (the emulator learns a kernel's static shared
    // memory from its launches).
    const std::vector<float> in = ramp(1024);
    conformance::Buffer<float> d_in(in), d_out(1024);
    k_static<<<4, 256>>>(d_in, d_out);
    r.exact("k_static's output", d_out.get());
    k_dynamic<<<4, 256, 256 * sizeof(float)>>>(d_in, d_out);
    r.exact("k_dynamic's output", d_out.get());

    const int sizes[] = {32, 64, 128, 256, 512, 1024};
    std::vector<int> on_static, on_dynamic;
    for (int b : sizes) {
        int n = -1, m = -1;
        r.require(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k_static, b, 0), "cudaOccupancyMax...");
        r.require(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&m, k_dynamic, b, 40000), "cudaOccupancyMax...");
        on_static.push_back(n);
        on_dynamic.push_back(m);
    }
    r.exact("blocks a multiprocessor, blocks of 32 ... 1024: k_static", on_static);
    r.exact("the same: k_dynamic with 40000 bytes", on_dynamic);
    int flagged = -1, full = -1, none = -1;
    r.require(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&flagged, k_static, 256, 0,
                                                                     cudaOccupancyDisableCachingOverride),
              "cudaOccupancyMax...WithFlags");
    r.require(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&full, k_dynamic, 256, 49152), "cudaOccupancyMax...");
    r.require(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&none, k_dynamic, 256, 49153), "cudaOccupancyMax...");
    r.exact("k_static, 256, cudaOccupancyDisableCachingOverride; k_dynamic, 256, 48 KiB; k_dynamic, 256, 48 KiB + 1",
            std::vector<int>{flagged, full, none});

    int grid = -1, block = -1, grid2 = -1, block2 = -1, grid3 = -1, block3 = -1;
    r.require(cudaOccupancyMaxPotentialBlockSize(&grid, &block, k_static), "cudaOccupancyMaxPotentialBlockSize");
    r.require(cudaOccupancyMaxPotentialBlockSize(&grid2, &block2, k_dynamic, 40000), "cudaOccupancyMaxPotentialBlockSize");
    r.require(cudaOccupancyMaxPotentialBlockSize(&grid3, &block3, k_static, 0, 200), "cudaOccupancyMaxPotentialBlockSize");
    r.exact("cudaOccupancyMaxPotentialBlockSize: k_static; k_dynamic, 40000 bytes; k_static up to 200 threads",
            std::vector<int>{grid, block, grid2, block2, grid3, block3});

    std::vector<unsigned long long> available;
    for (auto [kernel, blocks] : {std::pair<const void*, int>{reinterpret_cast<const void*>(k_static), 2},
                                  {reinterpret_cast<const void*>(k_dynamic), 1},
                                  {reinterpret_cast<const void*>(k_dynamic), 4},
                                  {reinterpret_cast<const void*>(k_dynamic), 5}}) {
        std::size_t bytes = 0;
        r.require(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, kernel, blocks, 256),
                  "cudaOccupancyAvailableDynamicSMemPerBlock");
        available.push_back(bytes);
    }
    r.exact("cudaOccupancyAvailableDynamicSMemPerBlock, 256 threads: k_static 2 blocks; k_dynamic 1, 4, 5", available);

    cudaFuncAttributes fs{}, fd{};
    r.require(cudaFuncGetAttributes(&fs, k_static), "cudaFuncGetAttributes");
    r.require(cudaFuncGetAttributes(&fd, k_dynamic), "cudaFuncGetAttributes");
    // numRegs is the compiler's (14 and 12 with CUDA 13 for sm_90): not compared.
    for (const auto& [label, f] : {std::pair<const char*, cudaFuncAttributes*>{"k_static", &fs}, {"k_dynamic", &fd}})
        r.exact(std::string("cudaFuncGetAttributes(") + label +
                    "): sharedSizeBytes, maxThreadsPerBlock, maxDynamicSharedSizeBytes, ptxVersion, binaryVersion",
                std::vector<long long>{static_cast<long long>(f->sharedSizeBytes), f->maxThreadsPerBlock,
                                       f->maxDynamicSharedSizeBytes, f->ptxVersion, f->binaryVersion});

    // 100000 bytes of dynamic shared memory, allowed by the attribute.
    std::vector<int> codes;
    codes.push_back(code(cudaFuncSetAttribute(k_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000)));
    const std::size_t big = 100000;
    k_dynamic<<<4, 256, big>>>(d_in, d_out);
    codes.push_back(code(cudaGetLastError()));
    r.exact("k_dynamic's output with 100000 bytes", d_out.get());
    k_dynamic<<<4, 256, big + 4>>>(d_in, d_out);  // more than allowed
    codes.push_back(code(cudaGetLastError()));
    codes.push_back(code(cudaFuncSetAttribute(k_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449)));
    codes.push_back(code(cudaFuncSetAttribute(k_static, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448 - 1024)));
    codes.push_back(code(cudaFuncSetAttribute(k_static, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448 - 1023)));
    codes.push_back(code(cudaFuncSetAttribute(k_static, cudaFuncAttributeMaxDynamicSharedMemorySize, -1)));
    r.exact("codes: set 100000, launch with 100000, launch with 100004, set 232449 (k_dynamic); set 231424, 231425, "
            "-1 (k_static)",
            codes);
    cudaGetLastError();
    int raised = -1;
    std::size_t raised_available = 0;
    r.require(cudaFuncGetAttributes(&fd, k_dynamic), "cudaFuncGetAttributes");
    r.require(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&raised, k_dynamic, 256, big), "cudaOccupancyMax...");
    r.require(cudaOccupancyAvailableDynamicSMemPerBlock(&raised_available, k_dynamic, 2, 256),
              "cudaOccupancyAvailableDynamicSMemPerBlock");
    r.exact("with the attribute: maxDynamicSharedSizeBytes, blocks with 100000 bytes, available to 2 blocks",
            std::vector<long long>{fd.maxDynamicSharedSizeBytes, raised, static_cast<long long>(raised_available)});

    std::vector<int> misuse;
    int n = 0;
    std::size_t bytes = 0;
    misuse.push_back(code(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k_static, 0, 0)));
    misuse.push_back(code(cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, k_static, 9, 256)));  // 8 fit at most
    misuse.push_back(code(cudaFuncGetAttributes(&fs, static_cast<const void*>(nullptr))));
    r.exact("codes: occupancy of 0-thread blocks, dynamic memory for 9 blocks of 256 (8 fit), attributes of null", misuse);
    cudaGetLastError();
}
