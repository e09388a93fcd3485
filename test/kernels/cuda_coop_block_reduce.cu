// Block reduction with cooperative groups: this_thread_block() (thread_rank, size, num_threads, sync,
// group_index, thread_index, dim_threads), tiled_partition<32> with shfl_down inside each warp tile,
// meta_group_rank/meta_group_size to place the per-tile partials in shared memory, and a second tile
// pass that reduces the partials.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCKS 5
#define THREADS 256
#define N 3000

__device__ int tile_sum(cg::thread_block_tile<32> t, int v) {
  for (int off = t.size() / 2; off > 0; off /= 2) v += t.shfl_down(v, off);
  return v;
}

__global__ void block_reduce(const int *in, int *sums, unsigned *info, int n) {
  __shared__ int partial[THREADS / 32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.dim_threads().x + block.thread_index().x;
  int v = i < n ? in[i] : 0;
  v = tile_sum(warp, v);
  if (warp.thread_rank() == 0) partial[warp.meta_group_rank()] = v;
  block.sync();
  if (warp.meta_group_rank() == 0) {
    int p = warp.thread_rank() < warp.meta_group_size() ? partial[warp.thread_rank()] : 0;
    p = tile_sum(warp, p);
    if (block.thread_rank() == 0) sums[blockIdx.x] = p;
  }
  if (block.thread_rank() == 0) {
    info[blockIdx.x * 4 + 0] = block.size();
    info[blockIdx.x * 4 + 1] = block.num_threads();
    info[blockIdx.x * 4 + 2] = warp.meta_group_size();
    info[blockIdx.x * 4 + 3] = warp.num_threads();
  }
}

int main() {
  int h[N], sums[BLOCKS];
  unsigned info[BLOCKS * 4];
  for (int i = 0; i < N; i++) h[i] = (i * 7919) % 2001 - 1000;
  int *din, *dsums;
  unsigned *dinfo;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dsums, sizeof(sums)); cudaMalloc(&dinfo, sizeof(info));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  block_reduce<<<BLOCKS, THREADS>>>(din, dsums, dinfo, N);
  cudaMemcpy(sums, dsums, sizeof(sums), cudaMemcpyDeviceToHost);
  cudaMemcpy(info, dinfo, sizeof(info), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < BLOCKS; b++) {
    int e = 0;
    for (int i = b * THREADS; i < (b + 1) * THREADS && i < N; i++) e += h[i];
    if (sums[b] != e) { bad++; printf("FAIL cuda_coop_block_reduce: block %d sum %d, expected %d\n", b, sums[b], e); }
    unsigned ei[4] = {THREADS, THREADS, THREADS / 32, 32};
    for (int k = 0; k < 4; k++)
      if (info[b * 4 + k] != ei[k]) { bad++; printf("FAIL cuda_coop_block_reduce: info[%d][%d] = %u, expected %u\n", b, k, info[b * 4 + k], ei[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_coop_block_reduce\n");
  return 0;
}
