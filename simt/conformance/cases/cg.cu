// Cooperative groups as a course uses them: the thread block and its
// members; tiles of 1 to 32 threads (tiled_partition<N>, of the block and
// of a tile) and the dynamic tiled_partition(g, n); coalesced groups in a
// divergent branch and their partitions; cg::reduce, cg::inclusive_scan and
// cg::exclusive_scan with CUDA's operators and lambdas (floating-point sums
// in the GPU's order, bit for bit); the grid of a cooperative launch and its
// sync().
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>

#include <string>
#include <vector>

#include "conformance.hpp"

namespace cg = cooperative_groups;

namespace {

// ---- the thread block: a 3-D block in a 2-D grid ------------------------------
__global__ void k_block(unsigned* out) {
    __shared__ unsigned s[64];
    cg::thread_block block = cg::this_thread_block();
    const unsigned r = block.thread_rank();
    const unsigned b = blockIdx.x + gridDim.x * blockIdx.y;
    unsigned* o = out + (b * 64 + r) * 16;
    o[0] = r;
    o[1] = block.size();
    o[2] = block.num_threads();
    o[3] = block.group_index().x + 10 * block.group_index().y + 100 * block.group_index().z;
    o[4] = block.thread_index().x + 10 * block.thread_index().y + 100 * block.thread_index().z;
    o[5] = block.dim_threads().x + 10 * block.dim_threads().y + 100 * block.dim_threads().z;
    o[6] = block.group_dim().x + 10 * block.group_dim().y + 100 * block.group_dim().z;
    o[7] = static_cast<unsigned>(cg::thread_rank(block));
    o[8] = static_cast<unsigned>(cg::group_size(block));
    s[r] = 1000 * b + r;
    block.sync();
    o[9] = s[(r + 1) % 64];  // ordered by block.sync()
    block.sync();
    s[r] += 1;
    cg::sync(block);
    o[10] = s[63 - r];
    const cg::thread_group g = block;  // the block as a thread_group
    o[11] = static_cast<unsigned>(g.size());
    o[12] = static_cast<unsigned>(g.thread_rank());
    o[13] = g.get_type() == cg::this_thread_block().get_type() ? 1u : 0u;
    g.sync();
    o[14] = s[(r + 7) % 64];
    o[15] = 0;
}

// ---- static tiles: tiled_partition<S>(block) and its members --------------------
constexpr unsigned kTileThreads = 128;
constexpr unsigned kTileValues = 18;

template <unsigned S, typename Tile>
__device__ void tile_members(const Tile& tile, unsigned v, unsigned* o) {
    o[0] = tile.thread_rank();
    o[1] = tile.size() + 100 * tile.num_threads();
    o[2] = tile.meta_group_rank();
    o[3] = tile.meta_group_size();
    o[4] = tile.shfl(v, 1 % S);
    o[5] = tile.shfl(v, -1);  // the tile's last thread
    o[6] = tile.shfl_up(v, 1);
    o[7] = tile.shfl_down(v, 1);
    o[8] = tile.shfl_xor(v, S > 1 ? 1 : 0);
    o[9] = tile.any(v & 1u);
    o[10] = tile.all(v != 3u);
    o[11] = tile.ballot(v & 1u);
    o[12] = tile.match_any(v % 3u);
    int pred = -1;
    o[13] = tile.match_all(v % 2u, pred);
    o[14] = static_cast<unsigned>(pred);
    // An 8-byte value; through unsigned long long, as 2v may not fit an unsigned
    // (a double to unsigned conversion out of range is undefined: the H100
    // saturates, x86 wraps).
    o[15] = static_cast<unsigned>(static_cast<unsigned long long>(tile.shfl(static_cast<double>(v) * 0.5, 0) * 4.0));
}

template <unsigned S>
__device__ void tile_case(const cg::thread_block& block, unsigned v, unsigned* out, unsigned k) {
    const unsigned t = block.thread_rank();
    auto tile = cg::tiled_partition<S>(block);
    tile_members<S>(tile, v, out + (k * kTileThreads + t) * kTileValues);
    // The same tile as a value, and with tile.sync() ordering shared memory.
    __shared__ unsigned s[kTileThreads];
    cg::thread_block_tile<S> value = tile;
    unsigned* o = out + (k * kTileThreads + t) * kTileValues;
    o[16] = value.meta_group_rank() + 1000 * value.meta_group_size();
    s[t] = v;
    value.sync();
    o[17] = s[t - tile.thread_rank() + (tile.thread_rank() + 1) % S];
    block.sync();  // before the next size reuses s
}

__global__ void k_tiles(const unsigned* in, unsigned* out) {
    const cg::thread_block block = cg::this_thread_block();
    const unsigned v = in[block.thread_rank()];
    tile_case<32>(block, v, out, 0);
    tile_case<16>(block, v, out, 1);
    tile_case<8>(block, v, out, 2);
    tile_case<4>(block, v, out, 3);
    tile_case<2>(block, v, out, 4);
    tile_case<1>(block, v, out, 5);
    // A tile of a tile: 4 threads of a 32-thread tile.
    const auto warp = cg::tiled_partition<32>(block);
    const auto quad = cg::tiled_partition<4>(warp);
    tile_members<4>(quad, v, out + (6 * kTileThreads + block.thread_rank()) * kTileValues);
    unsigned* o = out + (6 * kTileThreads + block.thread_rank()) * kTileValues;
    o[16] = o[17] = 0;
}

// ---- dynamic tiles: tiled_partition(g, n), a thread_group --------------------------
__global__ void k_dynamic(const unsigned* in, unsigned* out) {
    __shared__ unsigned s[48];
    const cg::thread_block block = cg::this_thread_block();
    const unsigned t = block.thread_rank();
    unsigned* o = out + t * 12;
    const cg::thread_group t32 = cg::tiled_partition(block, 32);  // 48 threads: the second has 16
    o[0] = static_cast<unsigned>(t32.thread_rank());
    o[1] = static_cast<unsigned>(t32.size());
    const cg::thread_group t8 = cg::tiled_partition(block, 8);
    o[2] = static_cast<unsigned>(t8.thread_rank());
    o[3] = static_cast<unsigned>(t8.size());  // (CUDA 13 declares thread_group::num_threads() without defining it)
    const cg::thread_group t2 = cg::tiled_partition(t8, 2);  // a tile of a dynamic tile
    o[4] = static_cast<unsigned>(t2.thread_rank());
    o[5] = static_cast<unsigned>(t2.size());
    const cg::thread_group g = block;
    const cg::thread_group t16 = cg::tiled_partition(g, 16);  // the block through a thread_group
    o[6] = static_cast<unsigned>(t16.thread_rank());
    o[7] = static_cast<unsigned>(t16.size());
    s[t] = in[t];
    t8.sync();
    o[8] = s[t - t8.thread_rank() + (t8.thread_rank() + 3) % 8];
    t8.sync();
    s[t] += 1;
    cg::sync(t32);
    o[9] = s[t - t32.thread_rank() + (t32.thread_rank() + 5) % t32.size()];
    o[10] = t8.get_type() == cg::coalesced_threads().get_type() ? 1u : 0u;
    o[11] = 0;
}

// ---- coalesced groups: the threads of a divergent branch --------------------------
__global__ void k_coalesced(const unsigned* in, const float* fin, unsigned* out, float* fout) {
    const unsigned t = threadIdx.x;
    const unsigned v = in[t];
    const float f = fin[t];
    unsigned* o = out + t * 24;
    float* fo = fout + t * 4;
    for (unsigned k = 0; k < 24; ++k) o[k] = 0;
    for (unsigned k = 0; k < 4; ++k) fo[k] = 0.0f;
    if (t % 4 == 1) {
        const cg::coalesced_group active = cg::coalesced_threads();
        o[0] = active.size() + 100 * active.num_threads();
        o[1] = active.thread_rank();
        o[2] = active.meta_group_rank() + 100 * active.meta_group_size();
        o[3] = active.shfl(v, 2);
        o[4] = active.shfl_up(v, 1);
        o[5] = active.shfl_down(v, 1);
        o[6] = active.any(v & 1u);
        o[7] = active.all(v != 5u);
        o[8] = active.ballot(v & 1u);
        o[9] = active.match_any(v % 3u);
        int pred = -1;
        o[10] = active.match_all(v % 2u, pred);
        o[11] = static_cast<unsigned>(pred);
        o[12] = cg::reduce(active, v, cg::plus<unsigned>());
        o[13] = static_cast<unsigned>(cg::reduce(active, static_cast<int>(v), cg::less<int>()));
        o[14] = cg::inclusive_scan(active, v & 0xffu);
        o[15] = cg::exclusive_scan(active, v & 0xffu);
        o[16] = cg::exclusive_scan(active, v, cg::bit_xor<unsigned>());
        fo[0] = cg::reduce(active, f, cg::plus<float>());
        fo[1] = cg::inclusive_scan(active, f);
        fo[2] = cg::exclusive_scan(active, f);
        const cg::coalesced_group quad = cg::tiled_partition(active, 4);
        o[17] = quad.size() + 100 * quad.thread_rank();
        o[18] = quad.meta_group_rank() + 100 * quad.meta_group_size();
        const cg::coalesced_group half = cg::binary_partition(active, (v & 1u) != 0);
        o[19] = half.size() + 100 * half.thread_rank();
        o[20] = half.meta_group_rank() + 100 * half.meta_group_size();
        o[21] = cg::reduce(half, v, cg::bit_or<unsigned>());
        active.sync();
    }
    // Every lane: a full coalesced group (32 threads) reduces as a tile.
    const cg::coalesced_group all = cg::coalesced_threads();
    fo[3] = cg::reduce(all, f, cg::plus<float>());
    o[22] = all.size();
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    const cg::coalesced_group label = cg::labeled_partition(warp, v % 3u);
    o[23] = label.size() + 100 * label.thread_rank() + 10000 * label.meta_group_rank() + 1000000 * label.meta_group_size();
}

// ---- cg::reduce and the scans on tiles -------------------------------------------
template <unsigned S>
__device__ void reduce_scan(const cg::thread_block& block, unsigned v, float f, double d, unsigned* o, float* fo,
                            double* dout) {
    const auto tile = cg::tiled_partition<S>(block);
    const int i = static_cast<int>(v % 100000u) - 50000;  // sums of 32 that fit
    o[0] = static_cast<unsigned>(cg::reduce(tile, i, cg::plus<int>()));
    o[1] = static_cast<unsigned>(cg::reduce(tile, i, cg::less<int>()));
    o[2] = cg::reduce(tile, v, cg::greater<unsigned>());
    o[3] = cg::reduce(tile, v, cg::bit_and<unsigned>());
    o[4] = cg::reduce(tile, v, cg::bit_or<unsigned>());
    o[5] = cg::reduce(tile, v, cg::bit_xor<unsigned>());
    o[6] = cg::reduce(tile, v, [](unsigned a, unsigned b) { return 3u * a + b; });  // the order shows
    o[7] = static_cast<unsigned>(cg::inclusive_scan(tile, i));
    o[8] = static_cast<unsigned>(cg::exclusive_scan(tile, i));
    o[9] = static_cast<unsigned>(cg::inclusive_scan(tile, i, cg::greater<int>()));
    o[10] = static_cast<unsigned>(cg::exclusive_scan(tile, i, cg::greater<int>()));
    o[11] = cg::inclusive_scan(tile, v, [](unsigned a, unsigned b) { return a * 5u + b; });
    o[12] = cg::reduce(tile, static_cast<unsigned short>(v), cg::plus<unsigned short>());
    fo[0] = cg::reduce(tile, f, cg::plus<float>());
    fo[1] = cg::reduce(tile, f, cg::less<float>());
    fo[2] = cg::reduce(tile, f, [](float a, float b) { return a > b ? a : b; });
    fo[3] = cg::inclusive_scan(tile, f);
    fo[4] = cg::exclusive_scan(tile, f);
    fo[5] = cg::inclusive_scan(tile, f, cg::plus<float>());
    dout[0] = cg::reduce(tile, d, cg::plus<double>());
    dout[1] = cg::inclusive_scan(tile, d);
    dout[2] = cg::exclusive_scan(tile, d, cg::plus<double>());
}

constexpr unsigned kReduceThreads = 256, kInts = 13, kFloats = 6, kDoubles = 3;

__global__ void k_reduce_scan(const unsigned* in, const float* fin, const double* din, unsigned* out, float* fout,
                              double* dout) {
    const cg::thread_block block = cg::this_thread_block();
    const unsigned t = block.thread_rank(), n = kReduceThreads;
    const unsigned v = in[t];
    const float f = fin[t];
    const double d = din[t];
    reduce_scan<32>(block, v, f, d, out + t * kInts, fout + t * kFloats, dout + t * kDoubles);
    reduce_scan<16>(block, v, f, d, out + (n + t) * kInts, fout + (n + t) * kFloats, dout + (n + t) * kDoubles);
    reduce_scan<8>(block, v, f, d, out + (2 * n + t) * kInts, fout + (2 * n + t) * kFloats, dout + (2 * n + t) * kDoubles);
    reduce_scan<4>(block, v, f, d, out + (3 * n + t) * kInts, fout + (3 * n + t) * kFloats, dout + (3 * n + t) * kDoubles);
}

// ---- the grid of a cooperative launch ---------------------------------------------
// Each block sums its inputs, the grid syncs, every block adds up all the
// block sums, the grid syncs again, and each thread checks the total.
__global__ void k_grid(const unsigned* in, unsigned* sums, unsigned* out) {
    __shared__ unsigned partial;
    const cg::grid_group grid = cg::this_grid();
    const cg::thread_block block = cg::this_thread_block();
    const unsigned b = blockIdx.x, t = block.thread_rank();
    const unsigned long long r = grid.thread_rank();
    if (t == 0) partial = 0;
    block.sync();
    atomicAdd(&partial, in[r % 256]);
    block.sync();
    if (t == 0) sums[b] = partial;
    grid.sync();
    unsigned total = 0;
    for (unsigned k = 0; k < gridDim.x; ++k) total += sums[k];
    grid.sync();
    if (t == 0) sums[b] = total;  // overwritten only after every block read them
    cg::sync(grid);
    unsigned* o = out + r * 8;
    o[0] = grid.is_valid() ? 1u : 0u;
    o[1] = static_cast<unsigned>(grid.thread_rank());
    o[2] = static_cast<unsigned>(grid.size() + 1000 * grid.num_threads());
    o[3] = static_cast<unsigned>(grid.num_blocks() + 100 * grid.block_rank());
    o[4] = grid.block_index().x + 100 * grid.dim_blocks().x + 10000 * grid.group_dim().x;
    o[5] = grid.thread_index().x + 10000 * grid.dim_threads().x;
    o[6] = total;
    o[7] = sums[(b + 1) % gridDim.x] == total ? 1u : 0u;
}

template <typename T>
std::vector<T> slice(const std::vector<T>& v, std::size_t from, std::size_t count, std::size_t stride, std::size_t at) {
    std::vector<T> out;
    for (std::size_t i = 0; i < count; ++i) out.push_back(v[(from + i) * stride + at]);
    return out;
}

}  // namespace

CONFORMANCE_CASE(thread_block, "thread_block this_thread_block thread_group cg::sync") {
    conformance::Buffer<unsigned> out(6 * 64 * 16);
    k_block<<<dim3(2, 3), dim3(8, 4, 2)>>>(out);
    const std::vector<unsigned> o = out.get();
    static const char* const names[16] = {"thread_rank", "size", "num_threads", "group_index", "thread_index",
                                          "dim_threads", "group_dim", "cg::thread_rank", "cg::group_size",
                                          "after sync", "after cg::sync", "thread_group size", "thread_group rank",
                                          "thread_group type", "after thread_group sync", "zero"};
    for (unsigned k = 0; k < 15; ++k) r.exact(std::string("thread_block ") + names[k], slice(o, 0, 6 * 64, 16, k));
}

CONFORMANCE_CASE(tiles, "thread_block_tile tiled_partition") {
    const auto u = conformance::u32_inputs();
    conformance::Buffer<unsigned> in(std::vector<unsigned>(u.begin(), u.begin() + kTileThreads)),
        out(7 * kTileThreads * kTileValues);
    k_tiles<<<1, kTileThreads>>>(in, out);
    const std::vector<unsigned> o = out.get();
    static const char* const sizes[7] = {"32", "16", "8", "4", "2", "1", "4 of 32"};
    static const char* const names[kTileValues] = {"thread_rank", "size", "meta_group_rank", "meta_group_size",
                                                   "shfl(v, 1)", "shfl(v, -1)", "shfl_up(v, 1)", "shfl_down(v, 1)",
                                                   "shfl_xor(v, 1)", "any", "all", "ballot", "match_any",
                                                   "match_all", "match_all pred", "shfl(double)",
                                                   "thread_block_tile<S> meta", "after sync"};
    for (unsigned s = 0; s < 7; ++s)
        for (unsigned k = 0; k < (s < 6 ? kTileValues : 16); ++k)
            r.exact(std::string("tile ") + sizes[s] + " " + names[k], slice(o, s * kTileThreads, kTileThreads, kTileValues, k));
}

CONFORMANCE_CASE(dynamic_tiles, "tiled_partition thread_group cg::sync") {
    const auto u = conformance::u32_inputs();
    conformance::Buffer<unsigned> in(std::vector<unsigned>(u.begin(), u.begin() + 48)), out(48 * 12);
    k_dynamic<<<1, 48>>>(in, out);
    r.exact("tiled_partition(block, 32|8), (t8, 2), (thread_group, 16): rank, size; after syncs", out.get());
}

CONFORMANCE_CASE(coalesced, "coalesced_group coalesced_threads tiled_partition binary_partition labeled_partition cg::reduce cg::inclusive_scan cg::exclusive_scan cg::plus cg::less cg::bit_xor cg::bit_or") {
    constexpr unsigned n = 128;
    const auto u = conformance::u32_inputs();
    std::vector<float> f = conformance::f32_inputs();
    conformance::Buffer<unsigned> in(std::vector<unsigned>(u.begin(), u.begin() + n)), out(n * 24);
    conformance::Buffer<float> fin(std::vector<float>(f.begin() + 40, f.begin() + 40 + n)), fout(n * 4);
    k_coalesced<<<1, n>>>(in, fin, out, fout);
    const std::vector<unsigned> o = out.get();
    const std::vector<float> fo = fout.get();
    for (unsigned k = 0; k < 24; ++k) r.exact("coalesced value " + std::to_string(k), slice(o, 0, n, 24, k));
    static const char* const fnames[4] = {"cg::reduce plus<float>", "cg::inclusive_scan float", "cg::exclusive_scan float",
                                          "cg::reduce plus<float>, 32 threads"};
    for (unsigned k = 0; k < 4; ++k) r.exact(std::string("coalesced ") + fnames[k], slice(fo, 0, n, 4, k));
}

CONFORMANCE_CASE(reduce_and_scan, "cg::reduce cg::inclusive_scan cg::exclusive_scan cg::plus cg::less cg::greater cg::bit_and cg::bit_or cg::bit_xor") {
    constexpr unsigned n = kReduceThreads;
    const auto u = conformance::u32_inputs();
    conformance::Buffer<unsigned> in(std::vector<unsigned>(u.begin(), u.begin() + n)), out(4 * n * kInts);
    conformance::Buffer<float> fin(conformance::f32_inputs()), fout(4 * n * kFloats);
    conformance::Buffer<double> din(conformance::f64_inputs()), dout(4 * n * kDoubles);
    k_reduce_scan<<<1, n>>>(in, fin, din, out, fout, dout);
    const std::vector<unsigned> o = out.get();
    const std::vector<float> fo = fout.get();
    const std::vector<double> dv = dout.get();
    static const char* const sizes[4] = {"32", "16", "8", "4"};
    static const char* const inames[kInts] = {"reduce plus<int>", "reduce less<int>", "reduce greater<unsigned>",
                                              "reduce bit_and", "reduce bit_or", "reduce bit_xor", "reduce 3a+b",
                                              "inclusive_scan int", "exclusive_scan int", "inclusive_scan greater<int>",
                                              "exclusive_scan greater<int>", "inclusive_scan 5a+b",
                                              "reduce plus<unsigned short>"};
    static const char* const fnames[kFloats] = {"reduce plus<float>", "reduce less<float>", "reduce max lambda",
                                                "inclusive_scan float", "exclusive_scan float",
                                                "inclusive_scan plus<float>"};
    static const char* const dnames[kDoubles] = {"reduce plus<double>", "inclusive_scan double", "exclusive_scan plus<double>"};
    for (unsigned s = 0; s < 4; ++s) {
        const std::string tile = std::string("tile ") + sizes[s] + " ";
        for (unsigned k = 0; k < kInts; ++k) r.exact(tile + inames[k], slice(o, s * n, n, kInts, k));
        for (unsigned k = 0; k < kFloats; ++k) r.exact(tile + fnames[k], slice(fo, s * n, n, kFloats, k));
        for (unsigned k = 0; k < kDoubles; ++k) r.exact(tile + dnames[k], slice(dv, s * n, n, kDoubles, k));
    }
}

CONFORMANCE_CASE(grid, "grid_group this_grid cg::sync cudaLaunchCooperativeKernel") {
    constexpr unsigned kBlocks = 8, kThreadsPerBlock = 64;
    const auto u = conformance::u32_inputs();
    conformance::Buffer<unsigned> in(u), sums(kBlocks), out(kBlocks * kThreadsPerBlock * 8);
    const unsigned* d_in = in;
    unsigned* d_sums = sums;
    unsigned* d_out = out;
    void* args[] = {&d_in, &d_sums, &d_out};
    r.require(cudaLaunchCooperativeKernel((void*)k_grid, dim3(kBlocks), dim3(kThreadsPerBlock), args, 0, nullptr),
              "cudaLaunchCooperativeKernel");
    const std::vector<unsigned> o = out.get();
    static const char* const names[8] = {"is_valid", "thread_rank", "size, num_threads", "num_blocks, block_rank",
                                         "block_index, dim_blocks, group_dim", "thread_index, dim_threads",
                                         "total after grid.sync()", "block sums after grid.sync()"};
    for (unsigned k = 0; k < 8; ++k) r.exact(std::string("grid ") + names[k], slice(o, 0, kBlocks * kThreadsPerBlock, 8, k));
}
