// The runtime API's kernels' attributes and occupancy calculator
// (host_api.hpp; device_api.cpp), cuda_runtime.h's block-size searches among them.
#pragma once

#include <cstddef>
#include "simt/host_device.hpp"
#include "simt/host_types.hpp"

// ---- kernels' attributes and the occupancy calculator --------------------------
// A kernel is known by its address. Its static shared memory is what its last
// launch declared (0 before its first); registers are unknown here and limit
// no occupancy (numRegs is 0); __launch_bounds__ is not seen.

struct cudaFuncAttributes {
    std::size_t sharedSizeBytes;
    std::size_t constSizeBytes;
    std::size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};
enum cudaFuncAttribute {
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10,
    cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12,
    cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15,
    cudaFuncAttributeMax
};
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, const void* func);
cudaError_t cudaFuncSetAttribute(const void* func, enum cudaFuncAttribute attr, int value);
template <class T>
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes* attr, T* entry) {
    return cudaFuncGetAttributes(attr, (const void*)entry);
}
template <class T>
cudaError_t cudaFuncSetAttribute(T* func, enum cudaFuncAttribute attr, int value) {
    return cudaFuncSetAttribute((const void*)func, attr, value);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize,
                                                          std::size_t dynamicSMemSize);
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize,
                                                                   std::size_t dynamicSMemSize, unsigned int flags);
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* dynamicSmemSize, const void* func, int numBlocks,
                                                      int blockSize);
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, T func, int blockSize,
                                                          std::size_t dynamicSMemSize) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void*)func, blockSize,
                                                                  dynamicSMemSize, cudaOccupancyDefault);
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, T func, int blockSize,
                                                                   std::size_t dynamicSMemSize, unsigned int flags) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void*)func, blockSize,
                                                                  dynamicSMemSize, flags);
}
template <class T>
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(std::size_t* dynamicSmemSize, T* func, int numBlocks,
                                                      int blockSize) {
    return cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, (const void*)func, numBlocks, blockSize);
}

// cuda_runtime.h's search for the block size of the highest occupancy: from
// the largest block down, a warp at a time, until one fills the SM.
template <typename UnaryFunction, class T>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(int* minGridSize, int* blockSize, T func,
                                                                    UnaryFunction blockSizeToDynamicSMemSize,
                                                                    int blockSizeLimit = 0, unsigned int flags = 0) {
    if (!minGridSize || !blockSize || !func) return cudaErrorInvalidValue;
    int device = 0, maxThreadsPerMultiProcessor = 0, warp = 0, devMaxThreadsPerBlock = 0, multiProcessorCount = 0;
    cudaError_t status = cudaGetDevice(&device);
    if (status == cudaSuccess)
        status = cudaDeviceGetAttribute(&maxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor, device);
    if (status == cudaSuccess) status = cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device);
    if (status == cudaSuccess)
        status = cudaDeviceGetAttribute(&devMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, device);
    if (status == cudaSuccess)
        status = cudaDeviceGetAttribute(&multiProcessorCount, cudaDevAttrMultiProcessorCount, device);
    cudaFuncAttributes attr;
    if (status == cudaSuccess) status = cudaFuncGetAttributes(&attr, (const void*)func);
    if (status != cudaSuccess) return status;
    if (blockSizeLimit == 0 || devMaxThreadsPerBlock < blockSizeLimit) blockSizeLimit = devMaxThreadsPerBlock;
    if (attr.maxThreadsPerBlock < blockSizeLimit) blockSizeLimit = attr.maxThreadsPerBlock;
    const int aligned_limit = (blockSizeLimit + warp - 1) / warp * warp;
    int bestBlockSize = 0, bestBlocks = 0, bestOccupancy = 0;
    for (int aligned = aligned_limit; aligned > 0; aligned -= warp) {
        const int tryBlockSize = blockSizeLimit < aligned ? blockSizeLimit : aligned;
        int blocks = 0;
        status = cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, (const void*)func, tryBlockSize, blockSizeToDynamicSMemSize(tryBlockSize), flags);
        if (status != cudaSuccess) return status;
        if (tryBlockSize * blocks > bestOccupancy) {
            bestBlockSize = tryBlockSize;
            bestBlocks = blocks;
            bestOccupancy = tryBlockSize * blocks;
        }
        if (bestOccupancy == maxThreadsPerMultiProcessor) break;
    }
    *minGridSize = bestBlocks * multiProcessorCount;
    *blockSize = bestBlockSize;
    return status;
}
template <typename UnaryFunction, class T>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* minGridSize, int* blockSize, T func,
                                                           UnaryFunction blockSizeToDynamicSMemSize,
                                                           int blockSizeLimit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                   blockSizeToDynamicSMemSize, blockSizeLimit,
                                                                   cudaOccupancyDefault);
}
namespace simt {
struct FixedDynamicShared {  // cuda_runtime.h's __cudaOccupancyB2DHelper
    std::size_t bytes;
    std::size_t operator()(int) const { return bytes; }
};
}  // namespace simt
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, T func,
                                               std::size_t dynamicSMemSize = 0, int blockSizeLimit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, simt::FixedDynamicShared{dynamicSMemSize}, blockSizeLimit, cudaOccupancyDefault);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int* minGridSize, int* blockSize, T func,
                                                        std::size_t dynamicSMemSize = 0, int blockSizeLimit = 0,
                                                        unsigned int flags = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
        minGridSize, blockSize, func, simt::FixedDynamicShared{dynamicSMemSize}, blockSizeLimit, flags);
}
