// Lab 05: a scan of any length in a single pass, with decoupled look-back.
//
// One block scans one TILE_SIZE-element tile (given below). A tile's
// exclusive prefix (the sum of every earlier tile) comes from its
// predecessors' status: each tile publishes its AGGREGATE (its own sum) as
// soon as it has it, then its INCLUSIVE prefix (everything up to its end)
// once it knows its own prefix. A tile finds its prefix by looking back over
// its predecessors, nearest first, adding AGGREGATEs until it meets an
// INCLUSIVE prefix.
#include <cuda_runtime.h>

#include <thrust/pair.h>

#include <cstdint>

#include "scan.hpp"

namespace {

constexpr unsigned kWarps = BLOCK_SIZE / 32;
constexpr unsigned kVecs = ITEMS_PER_THREAD / 4;        // float4 per thread
constexpr unsigned kWarpItems = 32 * ITEMS_PER_THREAD;  // a warp's contiguous segment
constexpr unsigned kFull = 0xffffffffu;

// Where tiles publish their status, zeroed before the launch. flags[t] says
// what tile t has published: NOT_READY (0), AGGREGATE (its own sum is in
// aggregates[t]) or INCLUSIVE (its inclusive prefix is in prefixes[t] too).
struct TileStatus {
    unsigned* flags;
    float* aggregates;
    float* prefixes;
    unsigned* ticket;  // the next tile number to hand out
};
constexpr unsigned kNotReady = 0, kAggregate = 1, kInclusive = 2;

// Publishes tile `tile`'s aggregate, or (INCLUSIVE) its inclusive prefix.
__device__ void publish(TileStatus status, unsigned tile, unsigned state, float value) {
    if (state == kAggregate)
        status.aggregates[tile] = value;
    else
        status.prefixes[tile] = value;
    __threadfence();  // the value reaches every block before the flag does
    *(volatile unsigned*)&status.flags[tile] = state;
}

// One window of the look-back, run by one whole warp: lane l looks at
// predecessor first - l, the nearest in lane 0. Returns the sum of the
// window's predecessors up to and including its nearest INCLUSIVE one (all
// 32 where it has none) and whether it had one; every lane gets the same.
__device__ thrust::pair<float, bool> window_sum(TileStatus status, long long first, unsigned lane) {
    const long long mine = first - lane;
    unsigned flag = kInclusive;  // past tile 0: counts as a prefix of 0
    int nearest, count;
    unsigned ready;
    do {
        if (mine >= 0) flag = *(volatile unsigned*)&status.flags[mine];
        // The nearest INCLUSIVE predecessor is lane nearest - 1 (0: none).
        nearest = __ffs(__ballot_sync(kFull, flag == kInclusive));
        count = nearest ? nearest : 32;
        ready = __ballot_sync(kFull, flag != kNotReady) & (kFull >> (32 - count));
    } while (__popc(ready) < count);
    __threadfence();  // read the values after their flags
    float x = 0.0f;
    if (mine >= 0 && (int)lane < count) x = flag == kInclusive ? status.prefixes[mine] : status.aggregates[mine];
    for (int d = 16; d >= 1; d /= 2) x += __shfl_down_sync(kFull, x, d);
    return thrust::make_pair(__shfl_sync(kFull, x, 0), nearest != 0);
}

// The exclusive prefix of `tile` (> 0): the sum of tiles 0 .. tile - 1,
// window by window until one holds an INCLUSIVE prefix.
__device__ float look_back(TileStatus status, unsigned tile, unsigned lane) {
    float total = 0.0f;
    for (long long first = (long long)tile - 1;; first -= 32) {
        const thrust::pair<float, bool> window = window_sum(status, first, lane);
        total += window.first;
        if (window.second) return total;
    }
}

// kVector: in and out are 16-byte aligned, so every whole warp segment moves
// as float4; the segment holding n's end goes element by element.
template <bool kVector>
__global__ void lookback_scan_kernel(const float* in, float* out, std::size_t n, TileStatus status) {
    __shared__ unsigned s_tile;
    __shared__ float s_warp[kWarps];  // warp totals, then each warp's exclusive prefix in the tile
    __shared__ float s_prefix;        // the tile's exclusive prefix
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if (threadIdx.x == 0) s_tile = atomicAdd(status.ticket, 1u);  // tiles in the order blocks start
    __syncthreads();
    const unsigned tile = s_tile;

    // The tile scan. Chunk j of a warp is 128 consecutive elements, 4 per
    // lane, so each float4 load or store of a warp is one contiguous 512 B.
    const std::size_t base = std::size_t{tile} * TILE_SIZE + std::size_t{warp} * kWarpItems;
    float v[kVecs][4];
    const bool whole = kVector && base + kWarpItems <= n;
    for (unsigned j = 0; j < kVecs; ++j)
        if (whole) {
            const float4 f = reinterpret_cast<const float4*>(in + base)[j * 32 + lane];
            v[j][0] = f.x;
            v[j][1] = f.y;
            v[j][2] = f.z;
            v[j][3] = f.w;
        } else {
            for (unsigned k = 0; k < 4; ++k) {
                const std::size_t i = base + j * 128 + lane * 4 + k;
                v[j][k] = i < n ? in[i] : 0.0f;
            }
        }
    // Each lane scans its 4 elements of a chunk, a shuffle scan over the lanes
    // gives each lane's offset in the chunk, and the chunks' totals add up.
    float offset[kVecs], carry = 0.0f;
    for (unsigned j = 0; j < kVecs; ++j) {
        v[j][1] += v[j][0];
        v[j][2] += v[j][1];
        v[j][3] += v[j][2];
        float sum = v[j][3];
        for (unsigned d = 1; d < 32; d *= 2) {
            const float y = __shfl_up_sync(kFull, sum, d);
            if (lane >= d) sum += y;
        }
        const float before = __shfl_up_sync(kFull, sum, 1);
        offset[j] = carry + (lane == 0 ? 0.0f : before);
        carry += __shfl_sync(kFull, sum, 31);
    }
    if (lane == 31) s_warp[warp] = carry;
    __syncthreads();

    if (warp == 0) {
        // Warp 0 scans the warp totals; lane kWarps - 1 ends with the tile's aggregate.
        float inclusive = lane < kWarps ? s_warp[lane] : 0.0f;
        for (unsigned d = 1; d < kWarps; d *= 2) {
            const float y = __shfl_up_sync(kFull, inclusive, d);
            if (lane >= d) inclusive += y;
        }
        const float aggregate = __shfl_sync(kFull, inclusive, kWarps - 1);
        const float before = __shfl_up_sync(kFull, inclusive, 1);
        if (lane < kWarps) s_warp[lane] = lane == 0 ? 0.0f : before;
        float prefix = 0.0f;
        if (tile == 0) {
            if (lane == 0) publish(status, 0, kInclusive, aggregate);
        } else {
            if (lane == 0) publish(status, tile, kAggregate, aggregate);
            prefix = look_back(status, tile, lane);
            if (lane == 0) publish(status, tile, kInclusive, prefix + aggregate);
        }
        if (lane == 0) s_prefix = prefix;
    }
    __syncthreads();

    const float add = s_prefix + s_warp[warp];
    for (unsigned j = 0; j < kVecs; ++j) {
        for (unsigned k = 0; k < 4; ++k) v[j][k] += add + offset[j];
        if (whole) {
            reinterpret_cast<float4*>(out + base)[j * 32 + lane] = make_float4(v[j][0], v[j][1], v[j][2], v[j][3]);
        } else {
            for (unsigned k = 0; k < 4; ++k) {
                const std::size_t i = base + j * 128 + lane * 4 + k;
                if (i < n) out[i] = v[j][k];
            }
        }
    }
}

}  // namespace

void single_pass_scan(const float* d_in, float* d_out, std::size_t n) {
    if (n == 0) return;
    const auto tiles = static_cast<unsigned>((n - 1) / TILE_SIZE + 1);
    // The flags, the two value arrays and the ticket: one allocation, zeroed.
    const std::size_t bytes = std::size_t{tiles} * (sizeof(unsigned) + 2 * sizeof(float)) + sizeof(unsigned);
    void* temp = nullptr;
    if (cudaMalloc(&temp, bytes) != cudaSuccess) return;  // the error stays for the caller
    cudaMemset(temp, 0, bytes);
    TileStatus status;
    status.flags = static_cast<unsigned*>(temp);
    status.aggregates = reinterpret_cast<float*>(status.flags + tiles);
    status.prefixes = status.aggregates + tiles;
    status.ticket = reinterpret_cast<unsigned*>(status.prefixes + tiles);
    const bool aligned = reinterpret_cast<std::uintptr_t>(d_in) % 16 == 0 && reinterpret_cast<std::uintptr_t>(d_out) % 16 == 0;
    if (aligned)
        lookback_scan_kernel<true><<<tiles, BLOCK_SIZE>>>(d_in, d_out, n, status);
    else
        lookback_scan_kernel<false><<<tiles, BLOCK_SIZE>>>(d_in, d_out, n, status);
    cudaFree(temp);
}
