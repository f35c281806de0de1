/*
 * lab 3 - exclusive prefix sums (kogge stone + brent kung)
 */
#include "scan.hpp"

static unsigned grid_size_for(unsigned cnt, unsigned chunk)
{
  const bool leftover = cnt % chunk != 0;
  const unsigned whole = cnt / chunk;
  return whole + (leftover ? 1 : 0);
}

// heap-style index of the node a thread works on for a given gap
__device__ unsigned bk_slot(unsigned lane, unsigned gap)
{
  return (lane + 1) * 2 * gap - 1;
}

// second half of brent kung: push the prefixes back down the tree
__device__ void sweep_down(float* arr, unsigned lane)
{
  for (unsigned gap = BK_SECTION_SIZE / 2; gap > 0; gap /= 2)
  {
    __syncthreads();
    const unsigned pos = bk_slot(lane, gap);
    if (pos < BK_SECTION_SIZE)
    {
      const unsigned lhs = pos - gap;
      const float saved = arr[lhs];
      arr[lhs] = arr[pos];
      arr[pos] += saved;
    }
  }
}

__device__ void zero_top(float* arr, unsigned lane)
{
  if (lane == 0)
    arr[BK_SECTION_SIZE - 1] = 0.0f;
}

// first half of brent kung: build partial sums up the tree
__device__ void sweep_up(float* arr, unsigned lane)
{
  unsigned gap = 1;
  while (gap < BK_SECTION_SIZE)
  {
    __syncthreads();
    const unsigned pos = bk_slot(lane, gap);
    if (pos < BK_SECTION_SIZE)
      arr[pos] += arr[pos - gap];
    gap *= 2;
  }
}

__device__ unsigned ks_passes(float (*bufs)[KS_SECTION_SIZE], unsigned lane, unsigned cur)
{
  unsigned gap = 1;
  while (gap < KS_SECTION_SIZE)
  {
    __syncthreads();
    float acc = bufs[cur][lane];
    const unsigned nxt = 1 - cur;
    if (lane >= gap)
      acc += bufs[cur][lane - gap];
    bufs[nxt][lane] = acc;
    cur = nxt;
    gap *= 2;
  }
  return cur;
}

__device__ float prev_elem(const float* src_arr, unsigned gidx, unsigned local, unsigned total)
{
  const bool in_range = gidx < total;
  const bool at_head = local == 0;
  if (!in_range || at_head)
    return 0.0f;
  return src_arr[gidx - 1];
}

__global__ void brent_kung_exclusive_kernel(const float* x, float* y, unsigned len)
{
  __shared__ float tile[BK_SECTION_SIZE];
  const unsigned base = blockIdx.x * BK_SECTION_SIZE;
  const unsigned lane = threadIdx.x;
  unsigned j = lane;
  while (j < BK_SECTION_SIZE)
  {
    tile[j] = j < len - base ? x[base + j] : 0.0f;
    j += BK_BLOCK_SIZE;
  }

  sweep_up(tile, lane);
  zero_top(tile, lane);
  sweep_down(tile, lane);

  __syncthreads();
  j = lane;
  while (j < BK_SECTION_SIZE)
  {
    if (j < len - base)
      y[base + j] = tile[j];
    j += BK_BLOCK_SIZE;
  }
}

__global__ void kogge_stone_exclusive_kernel(const float* x, float* y, unsigned len)
{
  __shared__ float pingpong[2][KS_SECTION_SIZE];
  unsigned cur = 0;
  const unsigned g = blockIdx.x * KS_SECTION_SIZE + threadIdx.x;
  pingpong[cur][threadIdx.x] = prev_elem(x, g, threadIdx.x, len);
  cur = ks_passes(pingpong, threadIdx.x, cur);
  if (g < len)
    y[g] = pingpong[cur][threadIdx.x];
}

void brent_kung_exclusive_scan(const float* d_in, float* d_out, unsigned n)
{
  if (n == 0)
    return;
  const unsigned nb = grid_size_for(n, BK_SECTION_SIZE);
  brent_kung_exclusive_kernel<<<nb, BK_BLOCK_SIZE>>>(d_in, d_out, n);
}

void kogge_stone_exclusive_scan(const float* d_in, float* d_out, unsigned n)
{
  if (n == 0)
    return;
  const unsigned nb = grid_size_for(n, KS_SECTION_SIZE);
  kogge_stone_exclusive_kernel<<<nb, KS_BLOCK_SIZE>>>(d_in, d_out, n);
}
