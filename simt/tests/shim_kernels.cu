// A kernel that calls the shim's device functions of every family with
// lane-dependent values (lanes that take different paths inside the shim),
// in straight-line code of its own: the shim's code is the emulator's, so no
// warp of it may diverge (a branch inside cg::reduce or an atomic_ref's
// compare_exchange is no divergence of the student's; test_simt.cpp).
// expect-shim-untraced.sh checks the shim's functions carry no trace calls
// at all. The build rewrites this file as it rewrites a lab's scan.cu.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/functional>

#include "kernels.hpp"

namespace cg = cooperative_groups;

__global__ void straight_shim(float* out, unsigned* counters) {
    const unsigned t = threadIdx.x, g = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = static_cast<int>(t) - 16;
    float x = static_cast<float>(t) + static_cast<float>(counters[0]);
    // min/max, the Math API and its intrinsics
    x += min(i, 3) + max(t, 5u) + umin(t, 9u) + llmax(static_cast<long long>(i), 2ll) + abs(i) + fminf(x, 2.0f) +
         fmaxf(x, 7.0f) + min(x, 1.5f) + max(static_cast<double>(x), 0.5);
    x += exp10(x * 0.001f) + rsqrt(x + 1.0f) + sqrtf(x) + expf(-x) + __expf(-x) + __fdividef(x, 3.0f) + rintf(x) +
         __fadd_rn(x, 1.0f) + __fmaf_rn(x, 2.0f, 1.0f) + __saturatef(x) + __float2int_rn(x) + __int_as_float(i & 0xff);
    // integer intrinsics and vector types
    x += __ffs(t) + __popc(t) + __clz(t) + __brev(t) + __byte_perm(t, 7u, 0x3210u) + __vadd2(t, 3u) + __mul24(i, 3);
    const float4 v = make_float4(x, x, x, x);
    const int4 w = make_int4(i, i, i, i);
    x += v.x + static_cast<float>(w.y);
    // warp functions
    x += __shfl_sync(0xffffffffu, x, 0) + __shfl_up_sync(0xffffffffu, x, 1, 16) + __shfl_down_sync(0xffffffffu, x, 3) +
         __shfl_xor_sync(0xffffffffu, x, 5);
    x += __ballot_sync(0xffffffffu, i > 0) + __any_sync(0xffffffffu, i > 0) + __all_sync(0xffffffffu, i > 0) +
         __match_any_sync(0xffffffffu, t % 3) + __reduce_add_sync(0xffffffffu, t) + __reduce_max_sync(0xffffffffu, t) +
         __activemask();
    __syncwarp();
    // cache hints, fences, atomics
    x += __ldcg(out + g) + __ldg(out + g) + __ldcs(out + g);
    __stcg(out + g, x);
    __threadfence();
    __threadfence_block();
    x += atomicAdd(counters + 1, 1u) + atomicMax(counters + 2, t) + atomicCAS(counters + 3, 0u, t) + atomicInc(counters + 4, 7u);
    __nanosleep(t);
    x += static_cast<float>(clock64() & 1);
    // cooperative groups
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    x += tile.shfl_up(x, 1) + tile.shfl_down(x, 2) + tile.shfl(x, 0) + tile.ballot(i > 0) + tile.any(i > 0) +
         tile.match_any(t % 5) + tile.thread_rank() + tile.meta_group_rank() + tile.meta_group_size() + tile.num_threads() +
         block.thread_rank() + block.size() + block.group_index().x + block.thread_index().x + block.dim_threads().x;
    x += cg::reduce(tile, x, cg::plus<float>()) + cg::reduce(tile, t, cg::greater<unsigned>()) +
         cg::reduce(tile, t, cg::bit_xor<unsigned>()) + cg::inclusive_scan(tile, x) + cg::exclusive_scan(tile, x) +
         cg::inclusive_scan(tile, t, cg::bit_or<unsigned>());
    const cg::thread_group eight = cg::tiled_partition(block, 8);
    x += eight.thread_rank() + eight.size();
    const cg::thread_block_tile<4> four = cg::tiled_partition<4>(tile);
    x += four.shfl_xor(x, 1) + four.thread_rank() + four.meta_group_rank();
    const cg::coalesced_group all = cg::coalesced_threads();
    x += all.thread_rank() + all.size() + all.shfl(x, 0) + cg::reduce(all, t, cg::plus<unsigned>());
    tile.sync();
    cg::sync(tile);
    // libcu++
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> a(counters[5]);
    x += a.fetch_add(1u, cuda::memory_order_relaxed) + a.load(cuda::memory_order_acquire) + a.fetch_max(t) + a.fetch_or(t);
    unsigned expected = 0;
    x += a.compare_exchange_strong(expected, t, cuda::memory_order_acq_rel) + expected;
    // One lane of the launch wins, the others fail: the shim's two paths.
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> once(counters[7]);
    unsigned zero = 0;
    x += once.compare_exchange_strong(zero, 1u) + zero;
    cuda::std::atomic_ref<unsigned> b(counters[6]);
    b.store(t, cuda::std::memory_order_release);
    x += b.exchange(t) + b.fetch_sub(1u);
    cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
    x += cuda::std::plus<float>{}(x, 1.0f) + cuda::std::minus<int>{}(i, 2) + cuda::std::multiplies<int>{}(i, 2);
    __syncthreads();
    out[g] = x;
    __syncthreads();
}

cudaError_t launch_straight(float* d_out, unsigned* d_counters) {
    straight_shim<<<2, 64>>>(d_out, d_counters);
    return cudaDeviceSynchronize();
}
