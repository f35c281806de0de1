// The device as CUDA 13 describes an H100 80GB HBM3 (values measured on one,
// driver 13000): its properties and attributes, versions, limits and cache
// preferences, kernels' attributes and the occupancy calculator with the
// H100's rules (cuda_occupancy.h's for compute capability 9.0).
#include <algorithm>
#include <climits>
#include <cstring>
#include <map>

#include "internal.hpp"
#include "simt/cuda.hpp"
#include "simt/runtime.hpp"

using simt::detail::fail;

namespace {

// cudaDeviceGetAttribute(attr) for attr = 1 ... 140, as the H100 answered
// (13: the clock rate in kHz, 36: the memory's; 139 and 140: the PCI device
// and subsystem IDs with NVIDIA's vendor ID).
constexpr int kAttributes[140] = {
    1024, 1024, 1024, 64, 2147483647, 65535, 65535, 49152, 65536, 32,  // 1-10
    2147483647, 65536, 1980000, 512, 1, 132, 0, 0, 1, 0,  // 11-20
    131072, 131072, 65536, 16384, 16384, 16384, 32768, 32768, 2048, 512,  // 21-30
    1, 1, 0, 6, 0, 2619000, 5120, 52428800, 2048, 3,  // 31-40
    1, 32768, 2048, 1, 32768, 32768, 8192, 8192, 32768, 0,  // 41-50
    32, 32768, 32768, 2046, 32768, 131072, 65536, 16384, 16384, 16384,  // 51-60
    32768, 2048, 32768, 32768, 2048, 32768, 32768, 2046, 268435456, 131072,  // 61-70
    65000, 2097120, 32768, 32768, 9, 0, 32768, 1, 1, 1,  // 71-80
    233472, 65536, 1, 0, 0, 0, 2, 0, 1, 1,  // 81-90
    1, 0, 0, 0, 1, 1, 232448, 0, 1, 0,  // 91-100
    0, 1, 1, 0, 0, 32, 1, 32768000, 134217728, 1,  // 101-110
    1024, 1, 1, 1, 1, 1, 1, 100, 9, 1,  // 111-120
    1, 1, 1, 1, 1, 4, 1, 1, 1, 0,  // 121-130
    -1, 0, 0, 0, 0, 0, 0, 0, 590352606, 381751518,  // 131-140
};
constexpr int attribute(int a) { return kAttributes[a - 1]; }

constexpr int kSharedPerBlock = 49152, kSharedPerBlockOptin = 232448, kSharedPerSM = 233472;
constexpr int kReservedShared = 1024, kSharedGranularity = 128;
constexpr int kThreadsPerSM = 2048, kBlocksPerSM = 32, kMaxThreadsPerBlock = 1024, kWarp = 32;

struct Settings {
    // cudaLimit's defaults; the printf FIFO's as the H100 answered (8650752).
    std::size_t limits[7] = {1024, 8650752, 8388608, 2, 2048, 32, 0};
    cudaFuncCache cache = cudaFuncCachePreferNone;
    cudaSharedMemConfig bank = cudaSharedMemBankSizeFourByte;
    unsigned device_flags = 0;
};
Settings g_settings;
std::map<const void*, simt::detail::KernelInfo> g_kernels;

bool valid_device(int device) { return device == 0; }

}  // namespace

namespace simt::detail {

KernelInfo& kernel_info(const void* function) { return g_kernels[function]; }

std::size_t dynamic_shared_limit(const void* function) {
    const auto it = g_kernels.find(function);
    if (it == g_kernels.end()) return kSharedPerBlock;
    const KernelInfo& k = it->second;
    if (k.max_dynamic_shared >= 0)
        return std::min<std::size_t>(k.max_dynamic_shared, kSharedPerBlockOptin - std::min<std::size_t>(k.static_shared, kSharedPerBlockOptin));
    return kSharedPerBlock - std::min<std::size_t>(k.static_shared, kSharedPerBlock);
}

void reset_device_settings() {
    g_settings = Settings{};
    g_kernels.clear();
}

}  // namespace simt::detail

// ---- the device -------------------------------------------------------------------------

cudaError_t cudaGetDeviceCount(int* count) {
    if (count == nullptr) return fail(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
    if (device == nullptr) return fail(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) { return valid_device(device) ? cudaSuccess : fail(cudaErrorInvalidDevice); }

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
    if (runtimeVersion == nullptr) return fail(cudaErrorInvalidValue);
    *runtimeVersion = 13000;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* driverVersion) {
    if (driverVersion == nullptr) return fail(cudaErrorInvalidValue);
    *driverVersion = 13000;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
    if (value == nullptr) return fail(cudaErrorInvalidValue);
    if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
    const int a = static_cast<int>(attr);
    if (a < 1 || a >= cudaDevAttrMax || a == 146) return fail(cudaErrorInvalidValue);
    *value = a <= 140 ? attribute(a) : 0;  // 141-147: not measured
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
    if (prop == nullptr) return fail(cudaErrorInvalidValue);
    if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
    cudaDeviceProp& p = *prop;
    std::memset(&p, 0, sizeof p);
    std::strcpy(p.name, "NVIDIA H100 80GB HBM3");
    p.totalGlobalMem = 85017493504ull;
    p.sharedMemPerBlock = attribute(cudaDevAttrMaxSharedMemoryPerBlock);
    p.regsPerBlock = attribute(cudaDevAttrMaxRegistersPerBlock);
    p.warpSize = attribute(cudaDevAttrWarpSize);
    p.memPitch = attribute(cudaDevAttrMaxPitch);
    p.maxThreadsPerBlock = attribute(cudaDevAttrMaxThreadsPerBlock);
    for (int i = 0; i < 3; ++i) {
        p.maxThreadsDim[i] = attribute(cudaDevAttrMaxBlockDimX + i);
        p.maxGridSize[i] = attribute(cudaDevAttrMaxGridDimX + i);
    }
    p.totalConstMem = attribute(cudaDevAttrTotalConstantMemory);
    p.major = attribute(cudaDevAttrComputeCapabilityMajor);
    p.minor = attribute(cudaDevAttrComputeCapabilityMinor);
    p.textureAlignment = attribute(cudaDevAttrTextureAlignment);
    p.texturePitchAlignment = attribute(cudaDevAttrTexturePitchAlignment);
    p.multiProcessorCount = attribute(cudaDevAttrMultiProcessorCount);
    p.integrated = attribute(cudaDevAttrIntegrated);
    p.canMapHostMemory = attribute(cudaDevAttrCanMapHostMemory);
    p.maxTexture1D = attribute(cudaDevAttrMaxTexture1DWidth);
    p.maxTexture1DMipmap = attribute(cudaDevAttrMaxTexture1DMipmappedWidth);
    p.maxTexture2D[0] = attribute(cudaDevAttrMaxTexture2DWidth);
    p.maxTexture2D[1] = attribute(cudaDevAttrMaxTexture2DHeight);
    p.maxTexture2DMipmap[0] = attribute(cudaDevAttrMaxTexture2DMipmappedWidth);
    p.maxTexture2DMipmap[1] = attribute(cudaDevAttrMaxTexture2DMipmappedHeight);
    p.maxTexture2DLinear[0] = attribute(cudaDevAttrMaxTexture2DLinearWidth);
    p.maxTexture2DLinear[1] = attribute(cudaDevAttrMaxTexture2DLinearHeight);
    p.maxTexture2DLinear[2] = attribute(cudaDevAttrMaxTexture2DLinearPitch);
    p.maxTexture2DGather[0] = attribute(cudaDevAttrMaxTexture2DGatherWidth);
    p.maxTexture2DGather[1] = attribute(cudaDevAttrMaxTexture2DGatherHeight);
    for (int i = 0; i < 3; ++i) {
        p.maxTexture3D[i] = attribute(cudaDevAttrMaxTexture3DWidth + i);
        p.maxTexture3DAlt[i] = attribute(cudaDevAttrMaxTexture3DWidthAlt + i);
        p.maxTexture2DLayered[i] = attribute(cudaDevAttrMaxTexture2DLayeredWidth + i);
        p.maxSurface3D[i] = attribute(cudaDevAttrMaxSurface3DWidth + i);
        p.maxSurface2DLayered[i] = attribute(cudaDevAttrMaxSurface2DLayeredWidth + i);
    }
    p.maxTextureCubemap = attribute(cudaDevAttrMaxTextureCubemapWidth);
    p.maxTexture1DLayered[0] = attribute(cudaDevAttrMaxTexture1DLayeredWidth);
    p.maxTexture1DLayered[1] = attribute(cudaDevAttrMaxTexture1DLayeredLayers);
    p.maxTextureCubemapLayered[0] = attribute(cudaDevAttrMaxTextureCubemapLayeredWidth);
    p.maxTextureCubemapLayered[1] = attribute(cudaDevAttrMaxTextureCubemapLayeredLayers);
    p.maxSurface1D = attribute(cudaDevAttrMaxSurface1DWidth);
    p.maxSurface2D[0] = attribute(cudaDevAttrMaxSurface2DWidth);
    p.maxSurface2D[1] = attribute(cudaDevAttrMaxSurface2DHeight);
    p.maxSurface1DLayered[0] = attribute(cudaDevAttrMaxSurface1DLayeredWidth);
    p.maxSurface1DLayered[1] = attribute(cudaDevAttrMaxSurface1DLayeredLayers);
    p.maxSurfaceCubemap = attribute(cudaDevAttrMaxSurfaceCubemapWidth);
    p.maxSurfaceCubemapLayered[0] = attribute(cudaDevAttrMaxSurfaceCubemapLayeredWidth);
    p.maxSurfaceCubemapLayered[1] = attribute(cudaDevAttrMaxSurfaceCubemapLayeredLayers);
    p.surfaceAlignment = attribute(cudaDevAttrSurfaceAlignment);
    p.concurrentKernels = attribute(cudaDevAttrConcurrentKernels);
    p.ECCEnabled = attribute(cudaDevAttrEccEnabled);
    p.pciBusID = attribute(cudaDevAttrPciBusId);
    p.pciDeviceID = attribute(cudaDevAttrPciDeviceId);
    p.pciDomainID = attribute(cudaDevAttrPciDomainId);
    p.tccDriver = attribute(cudaDevAttrTccDriver);
    p.asyncEngineCount = attribute(cudaDevAttrAsyncEngineCount);
    p.unifiedAddressing = attribute(cudaDevAttrUnifiedAddressing);
    p.memoryBusWidth = attribute(cudaDevAttrGlobalMemoryBusWidth);
    p.l2CacheSize = attribute(cudaDevAttrL2CacheSize);
    p.persistingL2CacheMaxSize = attribute(cudaDevAttrMaxPersistingL2CacheSize);
    p.maxThreadsPerMultiProcessor = attribute(cudaDevAttrMaxThreadsPerMultiProcessor);
    p.streamPrioritiesSupported = attribute(cudaDevAttrStreamPrioritiesSupported);
    p.globalL1CacheSupported = attribute(cudaDevAttrGlobalL1CacheSupported);
    p.localL1CacheSupported = attribute(cudaDevAttrLocalL1CacheSupported);
    p.sharedMemPerMultiprocessor = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor);
    p.regsPerMultiprocessor = attribute(cudaDevAttrMaxRegistersPerMultiprocessor);
    p.managedMemory = attribute(cudaDevAttrManagedMemory);
    p.isMultiGpuBoard = attribute(cudaDevAttrIsMultiGpuBoard);
    p.multiGpuBoardGroupID = attribute(cudaDevAttrMultiGpuBoardGroupID);
    p.hostNativeAtomicSupported = attribute(cudaDevAttrHostNativeAtomicSupported);
    p.pageableMemoryAccess = attribute(cudaDevAttrPageableMemoryAccess);
    p.concurrentManagedAccess = attribute(cudaDevAttrConcurrentManagedAccess);
    p.computePreemptionSupported = attribute(cudaDevAttrComputePreemptionSupported);
    p.canUseHostPointerForRegisteredMem = attribute(cudaDevAttrCanUseHostPointerForRegisteredMem);
    p.cooperativeLaunch = attribute(cudaDevAttrCooperativeLaunch);
    p.sharedMemPerBlockOptin = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin);
    p.pageableMemoryAccessUsesHostPageTables = attribute(cudaDevAttrPageableMemoryAccessUsesHostPageTables);
    p.directManagedMemAccessFromHost = attribute(cudaDevAttrDirectManagedMemAccessFromHost);
    p.maxBlocksPerMultiProcessor = attribute(cudaDevAttrMaxBlocksPerMultiprocessor);
    p.accessPolicyMaxWindowSize = attribute(cudaDevAttrMaxAccessPolicyWindowSize);
    p.reservedSharedMemPerBlock = attribute(cudaDevAttrReservedSharedMemoryPerBlock);
    p.hostRegisterSupported = attribute(cudaDevAttrHostRegisterSupported);
    p.sparseCudaArraySupported = attribute(cudaDevAttrSparseCudaArraySupported);
    p.hostRegisterReadOnlySupported = attribute(cudaDevAttrHostRegisterReadOnlySupported);
    p.timelineSemaphoreInteropSupported = attribute(cudaDevAttrTimelineSemaphoreInteropSupported);
    p.memoryPoolsSupported = attribute(cudaDevAttrMemoryPoolsSupported);
    p.gpuDirectRDMASupported = attribute(cudaDevAttrGPUDirectRDMASupported);
    p.gpuDirectRDMAFlushWritesOptions = attribute(cudaDevAttrGPUDirectRDMAFlushWritesOptions);
    p.gpuDirectRDMAWritesOrdering = attribute(cudaDevAttrGPUDirectRDMAWritesOrdering);
    p.memoryPoolSupportedHandleTypes = attribute(cudaDevAttrMemoryPoolSupportedHandleTypes);
    p.deferredMappingCudaArraySupported = attribute(cudaDevAttrDeferredMappingCudaArraySupported);
    p.ipcEventSupported = attribute(cudaDevAttrIpcEventSupport);
    p.clusterLaunch = attribute(cudaDevAttrClusterLaunch);
    p.unifiedFunctionPointers = 1;
    p.deviceNumaConfig = attribute(cudaDevAttrNumaConfig);
    p.deviceNumaId = attribute(cudaDevAttrNumaId);
    p.mpsEnabled = attribute(cudaDevAttrMpsEnabled);
    p.hostNumaId = attribute(cudaDevAttrHostNumaId);
    p.gpuPciDeviceID = static_cast<unsigned>(attribute(cudaDevAttrGpuPciDeviceId));
    p.gpuPciSubsystemID = static_cast<unsigned>(attribute(cudaDevAttrGpuPciSubsystemId));
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
    if ((flags & ~0xffu) != 0) return fail(cudaErrorInvalidValue);
    g_settings.device_flags = flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
    if (flags == nullptr) return fail(cudaErrorInvalidValue);
    *flags = g_settings.device_flags | cudaDeviceMapHost;  // unified addressing maps pinned memory
    return cudaSuccess;
}

// ---- limits and cache preferences: recorded ---------------------------------------------

// An unknown limit is cudaErrorInvalidValue, and the printf FIFO cannot
// change once a kernel has run, as the H100 answered.
cudaError_t cudaDeviceSetLimit(cudaLimit limit, std::size_t value) {
    const int l = static_cast<int>(limit);
    if (l < 0 || l > cudaLimitPersistingL2CacheSize) return fail(cudaErrorInvalidValue);
    if ((limit == cudaLimitPrintfFifoSize && simt::launches_so_far().launches > 0) ||
        (limit == cudaLimitMaxL2FetchGranularity && value > 128) ||
        (limit == cudaLimitPersistingL2CacheSize && value > static_cast<std::size_t>(attribute(cudaDevAttrMaxPersistingL2CacheSize))))
        return fail(cudaErrorInvalidValue);
    g_settings.limits[l] = value;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(std::size_t* pValue, cudaLimit limit) {
    const int l = static_cast<int>(limit);
    if (l < 0 || l > cudaLimitPersistingL2CacheSize) return fail(cudaErrorInvalidValue);
    if (pValue == nullptr) return fail(cudaErrorInvalidValue);
    *pValue = g_settings.limits[l];
    return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) {
    if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual) return fail(cudaErrorInvalidValue);
    g_settings.cache = cacheConfig;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig) {
    if (pCacheConfig == nullptr) return fail(cudaErrorInvalidValue);
    *pCacheConfig = g_settings.cache;
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
    if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) return fail(cudaErrorInvalidValue);
    return cudaSuccess;  // the H100's banks are four bytes wide whatever is asked
}

cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig) {
    if (pConfig == nullptr) return fail(cudaErrorInvalidValue);
    *pConfig = g_settings.bank;
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
    if (func == nullptr) return fail(cudaErrorInvalidDeviceFunction);
    if (cacheConfig < cudaFuncCachePreferNone || cacheConfig > cudaFuncCachePreferEqual) return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
    if (func == nullptr) return fail(cudaErrorInvalidDeviceFunction);
    if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) return fail(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaProfilerStart() { return cudaSuccess; }
cudaError_t cudaProfilerStop() { return cudaSuccess; }

// ---- kernels' attributes --------------------------------------------------------------------

namespace {

// The kernel's maximum dynamic shared memory: what cudaFuncSetAttribute set,
// or what is left of 48 KiB beside its static shared memory.
int max_dynamic_shared(const simt::detail::KernelInfo& k) {
    return k.max_dynamic_shared >= 0 ? k.max_dynamic_shared
                                     : kSharedPerBlock - static_cast<int>(std::min<std::size_t>(k.static_shared, kSharedPerBlock));
}

}  // namespace

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
    if (func == nullptr) return fail(cudaErrorInvalidDeviceFunction);
    if (attr == nullptr) return fail(cudaErrorInvalidValue);
    const simt::detail::KernelInfo& k = simt::detail::kernel_info(func);
    std::memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = k.static_shared;  // as its last launch declared them (0 before one)
    attr->maxThreadsPerBlock = kMaxThreadsPerBlock;  // __launch_bounds__ is not seen
    attr->numRegs = 0;  // not known on the emulator
    attr->ptxVersion = 90;
    attr->binaryVersion = 90;
    attr->maxDynamicSharedSizeBytes = max_dynamic_shared(k);
    attr->preferredShmemCarveout = k.carveout;
    attr->clusterDimMustBeSet = k.cluster[0];
    attr->requiredClusterWidth = k.cluster[1];
    attr->requiredClusterHeight = k.cluster[2];
    attr->requiredClusterDepth = k.cluster[3];
    attr->nonPortableClusterSizeAllowed = k.cluster[4];
    attr->clusterSchedulingPolicyPreference = k.cluster[5];
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
    if (func == nullptr) return fail(cudaErrorInvalidDeviceFunction);
    simt::detail::KernelInfo& k = simt::detail::kernel_info(func);
    switch (attr) {
        case cudaFuncAttributeMaxDynamicSharedMemorySize:
            // Its static shared memory and this together at most the H100's opt-in maximum.
            if (value < 0 || static_cast<std::size_t>(value) + k.static_shared > kSharedPerBlockOptin)
                return fail(cudaErrorInvalidValue);
            k.max_dynamic_shared = value;
            return cudaSuccess;
        case cudaFuncAttributePreferredSharedMemoryCarveout:
            if (value < -1 || value > 100) return fail(cudaErrorInvalidValue);
            k.carveout = value;
            return cudaSuccess;
        case cudaFuncAttributeClusterDimMustBeSet:
        case cudaFuncAttributeRequiredClusterWidth:
        case cudaFuncAttributeRequiredClusterHeight:
        case cudaFuncAttributeRequiredClusterDepth:
        case cudaFuncAttributeNonPortableClusterSizeAllowed:
        case cudaFuncAttributeClusterSchedulingPolicyPreference:
            k.cluster[attr - cudaFuncAttributeClusterDimMustBeSet] = value;
            return cudaSuccess;
        default: return fail(cudaErrorInvalidValue);
    }
}

// ---- the occupancy calculator: cuda_occupancy.h's rules for compute capability 9.0 ----------
// Warps (64 a multiprocessor), blocks (32) and shared memory (233472 bytes a
// multiprocessor, each block's rounded up to 128 bytes with the 1024 the
// driver reserves) limit it; registers do not here, since the emulator does
// not know a kernel's.

namespace {

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// The shared-memory sizes the H100 can configure a multiprocessor with: the
// smallest that holds `bytes` (cudaOccAlignUpShmemSizeVoltaPlus).
std::size_t configurable_shared(std::size_t bytes) {
    for (std::size_t kib : {0, 8, 16, 32, 64, 100, 132, 164, 196, 228})
        if (bytes <= kib * 1024) return kib * 1024;
    return bytes;
}

// The multiprocessor's shared memory as the kernel's carveout preference asks.
std::size_t preferred_shared(const simt::detail::KernelInfo& k) {
    if (k.carveout < 0) return kSharedPerSM;
    return configurable_shared(static_cast<std::size_t>(k.carveout) * kSharedPerSM / 100);
}

// The largest a block's shared memory may be, reserved bytes included.
std::size_t shared_limit_per_block(const simt::detail::KernelInfo& k, std::size_t most_per_block) {
    const bool optin = k.max_dynamic_shared >= 0 && most_per_block > static_cast<std::size_t>(kSharedPerBlock);
    return (optin ? kSharedPerBlockOptin : kSharedPerBlock) + kReservedShared;
}

int active_blocks(const simt::detail::KernelInfo& k, int block_size, std::size_t dynamic) {
    if (block_size > kMaxThreadsPerBlock) return 0;
    const int by_warps = kThreadsPerSM / kWarp / ((block_size + kWarp - 1) / kWarp);
    const std::size_t static_bytes = k.static_shared + kReservedShared;
    const std::size_t per_block = round_up(static_bytes + dynamic, kSharedGranularity);
    if (k.max_dynamic_shared >= 0 && dynamic > static_cast<std::size_t>(k.max_dynamic_shared)) return 0;
    if (per_block > shared_limit_per_block(k, static_bytes + max_dynamic_shared(k))) return 0;
    const std::size_t preferred = preferred_shared(k);
    const std::size_t on_sm = preferred >= per_block ? preferred : configurable_shared(per_block);
    const int by_shared = static_cast<int>(std::min<std::size_t>(on_sm / per_block, INT_MAX));
    return std::min({by_warps, kBlocksPerSM, by_shared});
}

}  // namespace

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   std::size_t dynamicSMemSize, unsigned int flags) {
    if (func == nullptr) return fail(cudaErrorInvalidDeviceFunction);
    if (numBlocks == nullptr || blockSize <= 0 || (flags & ~cudaOccupancyDisableCachingOverride) != 0)
        return fail(cudaErrorInvalidValue);
    *numBlocks = active_blocks(simt::detail::kernel_info(func), blockSize, dynamicSMemSize);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          std::size_t dynamicSMemSize) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize,
                                                                  cudaOccupancyDefault);
}

// cudaOccAvailableDynamicSMemPerBlock: the multiprocessor's shared memory
// shared out among `numBlocks` blocks, less the kernel's static shared memory.
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* dynamicSmemSize, const void* func, int numBlocks,
                                                      int blockSize) {
    if (func == nullptr) return fail(cudaErrorInvalidDeviceFunction);
    if (dynamicSmemSize == nullptr || numBlocks <= 0 || blockSize <= 0) return fail(cudaErrorInvalidValue);
    const simt::detail::KernelInfo& k = simt::detail::kernel_info(func);
    if (active_blocks(k, blockSize, 0) < numBlocks) return fail(cudaErrorInvalidValue);
    const std::size_t per_block_limit = shared_limit_per_block(k, kSharedPerSM);
    const std::size_t on_sm = numBlocks == 1 ? per_block_limit : std::max<std::size_t>(preferred_shared(k), 8 * 1024);
    std::size_t available = on_sm / numBlocks / kSharedGranularity * kSharedGranularity;
    available = std::min(available, per_block_limit);
    available = available > k.static_shared ? available - k.static_shared : 0;
    *dynamicSmemSize = std::min<std::size_t>(available, max_dynamic_shared(k));
    return cudaSuccess;
}
