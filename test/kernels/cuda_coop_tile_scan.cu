// Warp-level inclusive scans with static tiles of 4, 8, 16 and 32 threads (thread_block_tile<N>::shfl_up,
// thread_rank, num_threads), a broadcast of each tile's total with shfl(v, N - 1), a butterfly maximum with
// shfl_xor and tile.sync() between the phases.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 512

template <unsigned Size>
__device__ void scan_tile(cg::thread_block_tile<Size> t, const int *in, int *scan, int *total, int *mx, int base) {
  int i = base;
  int v = in[i];
  for (unsigned d = 1; d < t.num_threads(); d *= 2) {
    int u = t.shfl_up(v, d);
    if (t.thread_rank() >= d) v += u;
  }
  scan[i] = v;
  total[i] = t.shfl(v, Size - 1);
  t.sync();
  int m = in[i];
  for (unsigned k = Size / 2; k > 0; k /= 2) m = max(m, t.shfl_xor(m, k));
  mx[i] = m;
}

__global__ void tile_scan(const int *in, int *out) {
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  scan_tile<4>(cg::tiled_partition<4>(b), in, out, out + N, out + 2 * N, i);
  scan_tile<8>(cg::tiled_partition<8>(b), in, out + 3 * N, out + 4 * N, out + 5 * N, i);
  scan_tile<16>(cg::tiled_partition<16>(b), in, out + 6 * N, out + 7 * N, out + 8 * N, i);
  scan_tile<32>(cg::tiled_partition<32>(b), in, out + 9 * N, out + 10 * N, out + 11 * N, i);
}

int main() {
  int h[N], r[12 * N];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  tile_scan<<<N / 128, 128>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  const int sizes[4] = {4, 8, 16, 32};
  for (int s = 0; s < 4; s++) {
    int n = sizes[s];
    for (int i = 0; i < N; i++) {
      int start = i - i % n, acc = 0, tot = 0, m = -1000;
      for (int k = start; k <= i; k++) acc += h[k];
      for (int k = start; k < start + n; k++) { tot += h[k]; m = h[k] > m ? h[k] : m; }
      int e[3] = {acc, tot, m};
      for (int k = 0; k < 3; k++)
        if (r[(s * 3 + k) * N + i] != e[k]) { if (bad++ < 5) printf("FAIL cuda_coop_tile_scan: size %d [%d][%d] = %d, expected %d\n", n, i, k, r[(s * 3 + k) * N + i], e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_coop_tile_scan\n");
  return 0;
}
