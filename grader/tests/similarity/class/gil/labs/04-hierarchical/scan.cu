/*
 * lab 4 - scan of arbitrary length, done level by level
 */
#include <cuda_runtime.h>

#include <vector>

#include "scan.hpp"

struct Tier
{
  float* data;
  std::size_t count;
  std::size_t chunks;
  float* partials;
};

static std::size_t chunks_needed(std::size_t cnt)
{
  return (cnt + SECTION_SIZE - 1) / SECTION_SIZE;
}

__device__ unsigned tree_slot(unsigned lane, unsigned gap)
{
  return (lane + 1) * 2 * gap - 1;
}

// spread partial sums to the right
__device__ void spread_down(float* arr, unsigned lane)
{
  unsigned gap = SECTION_SIZE / 4;
  while (gap >= 1)
  {
    __syncthreads();
    const unsigned pos = tree_slot(lane, gap);
    const unsigned dst = pos + gap;
    if (dst < SECTION_SIZE)
      arr[dst] += arr[pos];
    gap /= 2;
  }
}

// combine pairs going up
__device__ void combine_up(float* arr, unsigned lane)
{
  unsigned gap = 1;
  while (gap <= SECTION_SIZE / 2)
  {
    __syncthreads();
    const unsigned pos = tree_slot(lane, gap);
    if (pos < SECTION_SIZE)
      arr[pos] += arr[pos - gap];
    gap *= 2;
  }
}

__global__ void add_block_sums_kernel(float* out, std::size_t n, const float* scanned_sums)
{
  __shared__ float shift;
  if (threadIdx.x == 0)
    shift = scanned_sums[blockIdx.x];
  __syncthreads();

  const std::size_t lo = (std::size_t{blockIdx.x} + 1) * SECTION_SIZE;
  const std::size_t hi = lo + SECTION_SIZE < n ? lo + SECTION_SIZE : n;
  std::size_t p = lo + threadIdx.x;
  while (p < hi)
  {
    out[p] += shift;
    p += blockDim.x;
  }
}

__global__ void scan_sections_kernel(const float* in, float* out, std::size_t n, float* block_sums)
{
  __shared__ float tile[SECTION_SIZE];
  const std::size_t base = std::size_t{blockIdx.x} * SECTION_SIZE;
  const unsigned lane = threadIdx.x;
  unsigned j = lane;
  while (j < SECTION_SIZE)
  {
    tile[j] = j < n - base ? in[base + j] : 0.0f;
    j += BLOCK_SIZE;
  }

  combine_up(tile, lane);
  spread_down(tile, lane);

  __syncthreads();
  j = lane;
  while (j < SECTION_SIZE)
  {
    if (j < n - base)
      out[base + j] = tile[j];
    j += BLOCK_SIZE;
  }

  const bool writer = block_sums != nullptr && lane == 0;
  if (writer)
    block_sums[blockIdx.x] = tile[SECTION_SIZE - 1];
}

void hierarchical_scan(const float* d_in, float* d_out, std::size_t n)
{
  if (n == 0)
    return;

  std::vector<Tier> stack;
  std::size_t cnt = n;
  float* dst = d_out;
  const float* src = d_in;
  for (;;)
  {
    const std::size_t nchunks = chunks_needed(cnt);
    if (nchunks == 1)
    {
      scan_sections_kernel<<<1, BLOCK_SIZE>>>(src, dst, cnt, nullptr);
      break;
    }
    float* part = nullptr;
    cudaMalloc(&part, nchunks * sizeof(float));
    scan_sections_kernel<<<static_cast<unsigned>(nchunks), BLOCK_SIZE>>>(src, dst, cnt, part);
    stack.push_back({dst, cnt, nchunks, part});

    src = part;
    dst = part;
    cnt = nchunks;
  }

  for (auto it = stack.rbegin(); it != stack.rend(); ++it)
    add_block_sums_kernel<<<static_cast<unsigned>(it->chunks - 1), BLOCK_SIZE>>>(it->data, it->count, it->partials);

  for (const Tier& tr : stack)
    cudaFree(tr.partials);
}
