// A grid-wide barrier: this_grid() (thread_rank, size, is_valid) and grid.sync() between two phases of a
// two-pass sum, launched with cudaLaunchCooperativeKernel. Phase 1 writes one partial per block, phase 2
// (after the barrier) lets every block read all partials. Compile-only in the differential check: the
// emulator runs blocks one after another and cannot model a barrier that needs every block resident.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCKS 4
#define THREADS 128
#define N (BLOCKS * THREADS)

__global__ void grid_sum(const int *in, int *partial, int *out, unsigned long long *info) {
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  __shared__ int s[THREADS];
  unsigned long long r = grid.thread_rank();
  s[block.thread_rank()] = in[r];
  block.sync();
  if (block.thread_rank() == 0) {
    int acc = 0;
    for (int k = 0; k < THREADS; k++) acc += s[k];
    partial[blockIdx.x] = acc;
  }
  grid.sync();
  int total = 0;
  for (int b = 0; b < BLOCKS; b++) total += partial[b];
  out[r] = total - in[r];
  if (r == 0) { info[0] = grid.size(); info[1] = grid.is_valid(); }
}

int main() {
  int h[N], o[N], *din, *dpartial, *dout;
  unsigned long long info[2], *dinfo;
  for (int i = 0; i < N; i++) h[i] = (i * 7919) % 1001 - 500;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dpartial, BLOCKS * sizeof(int)); cudaMalloc(&dout, sizeof(o)); cudaMalloc(&dinfo, sizeof(info));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  void *args[] = {&din, &dpartial, &dout, &dinfo};
  cudaLaunchCooperativeKernel((void *)grid_sum, dim3(BLOCKS), dim3(THREADS), args, 0, 0);
  cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
  cudaMemcpy(info, dinfo, sizeof(info), cudaMemcpyDeviceToHost);
  int total = 0, bad = 0;
  for (int i = 0; i < N; i++) total += h[i];
  for (int i = 0; i < N; i++) if (o[i] != total - h[i]) { if (bad++ < 5) printf("FAIL cuda_coop_grid_sync: [%d] = %d, expected %d\n", i, o[i], total - h[i]); }
  if (info[0] != N || info[1] != 1) { bad++; printf("FAIL cuda_coop_grid_sync: size %llu valid %llu\n", info[0], info[1]); }
  if (bad) return 1;
  printf("PASS cuda_coop_grid_sync\n");
  return 0;
}
