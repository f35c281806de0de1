// Lab 4: hierarchical (multi-level) inclusive scan
#include <cuda_runtime.h>

#include "scan.hpp"

#define CHECK_OK(expr) \
  do { \
    const cudaError_t rc__ = (expr); \
    if (rc__ != cudaSuccess) \
      abort(); \
  } while (0)

namespace {

constexpr std::size_t divup(std::size_t p, std::size_t q) { return p / q + (p % q != 0); }

constexpr std::size_t ELEMS_PER_THREAD = SECTION_SIZE / BLOCK_SIZE;
constexpr std::size_t CHUNK = SECTION_SIZE;

// second tree: add each partial d slots to the right
template <unsigned N>
__device__ void tree_fill(float* buf, unsigned me)
{
  unsigned d = N / 4;
  while (d >= 1) {
    __syncthreads();
    const auto at = (me + 1) * 2 * d - 1;
    if (at + d < N)
      buf[at + d] += buf[at];
    d /= 2;
  }
}

// first tree: pairwise sums going up
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

__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums)
{
  const auto inc = scanned_sums[blockIdx.x];
  const auto first = (std::size_t{blockIdx.x} + 1) * CHUNK;
  std::size_t r = 0;
  while (r < ELEMS_PER_THREAD) {
    const auto at = first + r * BLOCK_SIZE + threadIdx.x;
    if (at < n) {
      out[at] += inc;
    }
    ++r;
  }
}

__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums)
{
  __shared__ float tile[SECTION_SIZE];
  const std::size_t off = std::size_t{blockIdx.x} * SECTION_SIZE;
  const unsigned me = threadIdx.x;
  for (unsigned q = me; q < SECTION_SIZE; q += BLOCK_SIZE) {
    tile[q] = q < n - off ? in[off + q] : 0.0f;
  }

  tree_up<SECTION_SIZE>(tile, me);
  tree_fill<SECTION_SIZE>(tile, me);

  __syncthreads();
  for (unsigned q = me; q < SECTION_SIZE; q += BLOCK_SIZE) {
    if (q < n - off) {
      out[off + q] = tile[q];
    }
  }

  if (block_sums && me == 0) {
    block_sums[blockIdx.x] = tile[SECTION_SIZE - 1];
  }
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n)
{
  if (n == 0) {
    return;
  }
  const std::size_t nsec = n / SECTION_SIZE + (n % SECTION_SIZE != 0);

  if (nsec == 1) {
    scan_sections_kernel<<<1, BLOCK_SIZE>>>(d_in, d_out, n, nullptr);
    CHECK_OK(cudaGetLastError());
    return;
  }

  const std::size_t nbytes = nsec * sizeof(float);
  float* totals = nullptr;
  CHECK_OK(cudaMalloc(&totals, nbytes));
  float* prefixed = nullptr;
  CHECK_OK(cudaMalloc(&prefixed, nbytes));

  const auto g1 = static_cast<unsigned>(nsec);
  scan_sections_kernel<<<g1, BLOCK_SIZE>>>(d_in, d_out, n, totals);
  CHECK_OK(cudaGetLastError());

  hierarchical_scan(totals, prefixed, nsec);

  const auto g2 = static_cast<unsigned>(divup(n, CHUNK) - 1);
  add_block_sums_kernel<<<g2, BLOCK_SIZE>>>(d_out, n, prefixed);
  CHECK_OK(cudaGetLastError());

  CHECK_OK(cudaFree(totals));
  CHECK_OK(cudaFree(prefixed));
}
