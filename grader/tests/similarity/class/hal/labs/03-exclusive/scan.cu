// Lab 3: exclusive scan, two versions
#include "scan.hpp"

#define CHECK_OK(expr) \
  do { \
    const cudaError_t rc__ = (expr); \
    if (rc__ != cudaSuccess) \
      abort(); \
  } while (0)

namespace {

template <std::size_t Chunk>
constexpr std::size_t grid_for(std::size_t len) { return len / Chunk + (len % Chunk != 0); }

constexpr float ZERO = 0.0f;

// walk back down the tree, producing the exclusive result
template <unsigned N>
__device__ void tree_down(float* buf, unsigned me)
{
  unsigned d = N / 2;
  while (d >= 1) {
    __syncthreads();
    const auto at = (me + 1) * 2 * d - 1;
    if (at < N) {
      const auto tmp = buf[at - d];
      buf[at - d] = buf[at];
      buf[at] += tmp;
    }
    d /= 2;
  }
}

// reduce up the tree, total ends at buf[N-1]
template <unsigned N>
__device__ void tree_up(float* buf, unsigned me)
{
  static_assert((N & (N - 1)) == 0, "N must be a power of 2");
  unsigned d = 1;
  while (d < N) {
    __syncthreads();
    const auto at = (me + 1) * 2 * d - 1;
    if (at < N)
      buf[at] += buf[at - d];
    d *= 2;
  }
}

}  // namespace

__global__ void brent_kung_exclusive_kernel(const float* src, float* dst, unsigned len)
{
  __shared__ float tile[BK_SECTION_SIZE];
  const unsigned off = blockIdx.x * BK_SECTION_SIZE;
  const unsigned me = threadIdx.x;
  for (unsigned q = me; q < BK_SECTION_SIZE; q += BK_BLOCK_SIZE) {
    tile[q] = q < len - off ? src[off + q] : 0.0f;
  }

  tree_up<BK_SECTION_SIZE>(tile, me);

  __syncthreads();
  if (me == BK_BLOCK_SIZE - 1) {
    tile[BK_SECTION_SIZE - 1] = ZERO;
  }

  tree_down<BK_SECTION_SIZE>(tile, me);

  __syncthreads();
  for (unsigned q = me; q < BK_SECTION_SIZE; q += BK_BLOCK_SIZE) {
    if (q < len - off) {
      dst[off + q] = tile[q];
    }
  }
}

__global__ void kogge_stone_exclusive_kernel(const float* src, float* dst, unsigned len)
{
  __shared__ float dbl[2][KS_SECTION_SIZE];
  unsigned rd = 0;
  const unsigned gid = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
  const bool head = threadIdx.x == 0;
  dbl[rd][threadIdx.x] = (!head && gid < len) ? src[gid - 1] : ZERO;

  unsigned d = 1;
  while (d < KS_SECTION_SIZE) {
    __syncthreads();
    auto v = dbl[rd][threadIdx.x];
    const auto wr = rd ^ 1u;
    if (threadIdx.x >= d) {
      v += dbl[rd][threadIdx.x - d];
    }
    dbl[wr][threadIdx.x] = v;
    rd = wr;
    d <<= 1;
  }

  if (gid < len) {
    dst[gid] = dbl[rd][threadIdx.x];
  }
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n)
{
  if (n == 0) {
    return;
  }
  const std::size_t g = grid_for<BK_SECTION_SIZE>(n);
  brent_kung_exclusive_kernel<<<static_cast<unsigned>(g), BK_BLOCK_SIZE>>>(d_in, d_out, n);
  CHECK_OK(cudaGetLastError());
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n)
{
  if (n == 0) {
    return;
  }
  const std::size_t g = grid_for<KS_SECTION_SIZE>(n);
  kogge_stone_exclusive_kernel<<<static_cast<unsigned>(g), KS_BLOCK_SIZE>>>(d_in, d_out, n);
  CHECK_OK(cudaGetLastError());
}
