// Block votes: __syncthreads_count, __syncthreads_and and __syncthreads_or,
// each a barrier too (a thread reads what another wrote before it).
#include <vector>

#include "conformance.hpp"

namespace {

// Three blocks of 1024 threads; per block, the votes of fixed predicates and
// of the inputs' bits; then each thread reads its neighbour's shared word,
// written before the vote.
__global__ void k_block_votes(const unsigned* in, int* out) {
    __shared__ unsigned s[1024];
    const unsigned t = threadIdx.x, n = blockDim.x, i = blockIdx.x * n + t;
    const unsigned v = in[i % 256] ^ (blockIdx.x * 0x9e3779b9u);
    s[t] = v;
    int* o = out + blockIdx.x * 10;  // written by threads 0, 999 and 1000
    const int count3 = __syncthreads_count(t % 3 == 0);
    const int below = __syncthreads_and(t < 1000);
    const int one = __syncthreads_or(t == 77);
    const int bits = __syncthreads_count(v & 1u);
    const int all_set = __syncthreads_and(v != 0x12345u);
    const int none = __syncthreads_or(v == 0x12345u && t > 5000);
    const int first = __syncthreads_count(blockIdx.x == 1 || t < 512);
    const unsigned neighbour = s[(t + 1) % n];  // ordered by the barriers above
    const int odd = __syncthreads_count(neighbour & 1u);
    if (t == 0) {
        o[0] = count3;
        o[1] = below;
        o[2] = one;
        o[3] = bits;
        o[4] = all_set;
        o[5] = none;
        o[6] = first;
        o[7] = odd;
    }
    const int zero = __syncthreads_or(0);
    const int all = __syncthreads_and(1);
    if (t == 1000) o[8] = zero == 0 ? 7 : 8;
    if (t == 999) o[9] = all;
}

// A 2-D block of 32 x 8 and a partial last warp (100 threads): the votes
// count every thread once.
__global__ void k_block_votes_shapes(int* out) {
    const unsigned t = threadIdx.x + blockDim.x * threadIdx.y;
    const int count = __syncthreads_count(threadIdx.y % 2 == 1 && threadIdx.x < 10);
    const int any = __syncthreads_or(threadIdx.y == 7 && threadIdx.x == 31);
    const int all = __syncthreads_and(threadIdx.x < 32);
    if (t == 0) {
        out[blockIdx.x * 3] = count;
        out[blockIdx.x * 3 + 1] = any;
        out[blockIdx.x * 3 + 2] = all;
    }
}

__global__ void k_block_votes_partial(int* out) {
    const int count = __syncthreads_count(threadIdx.x >= 64);
    const int all = __syncthreads_and(threadIdx.x < 100);
    const int any = __syncthreads_or(threadIdx.x == 99);
    if (threadIdx.x == 99) {
        out[0] = count;
        out[1] = all;
        out[2] = any;
    }
}

}  // namespace

CONFORMANCE_CASE(block_votes, "__syncthreads_count __syncthreads_and __syncthreads_or") {
    conformance::Buffer<unsigned> d_in(conformance::u32_inputs());
    conformance::Buffer<int> d_out(3 * 10);
    k_block_votes<<<3, 1024>>>(d_in, d_out);
    r.exact("count(t % 3 == 0), and(t < 1000), or(t == 77), count(v & 1), and(v != 0x12345), or(false), "
            "count(block 1 or t < 512), count(neighbour odd), or(0), and(1), per block",
            d_out.get());
    conformance::Buffer<int> d_shapes(2 * 3), d_partial(3);
    k_block_votes_shapes<<<2, dim3(32, 8)>>>(d_shapes);
    r.exact("count, or, and in 32 x 8 blocks", d_shapes.get());
    k_block_votes_partial<<<1, 100>>>(d_partial);
    r.exact("count, and, or in a block of 100 threads", d_partial.get());
}
