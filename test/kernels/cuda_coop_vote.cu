// Tile votes: thread_block_tile<N>::any, all, ballot (bits relative to the tile) and match_any on tiles of
// 8, 16 and 32 threads, with thread_block_tile<32>::sync() and meta_group_rank() naming each tile.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 256

template <unsigned Size>
__device__ void votes(cg::thread_block_tile<Size> t, int v, unsigned *out) {
  out[0] = t.any(v > 40);
  out[1] = t.all(v > -45);
  out[2] = t.ballot(v & 1);
  out[3] = t.match_any(v % 4);
  out[4] = t.meta_group_rank();
}

__global__ void vote(const int *in, unsigned *out) {
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  votes<8>(cg::tiled_partition<8>(b), v, out + i * 15);
  votes<16>(cg::tiled_partition<16>(b), v, out + i * 15 + 5);
  cg::thread_block_tile<32> w = cg::tiled_partition<32>(b);
  w.sync();
  votes<32>(w, v, out + i * 15 + 10);
}

int main() {
  int h[N];
  unsigned r[N * 15];
  for (int i = 0; i < N; i++) h[i] = (i * 7919) % 97 - 48;
  int *din; unsigned *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  vote<<<N / 128, 128>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  const int sizes[3] = {8, 16, 32};
  for (int s = 0; s < 3; s++) {
    int n = sizes[s];
    for (int i = 0; i < N; i++) {
      int start = i - i % n;
      unsigned any = 0, all = 1, bal = 0, match = 0;
      for (int k = 0; k < n; k++) {
        int v = h[start + k];
        if (v > 40) any = 1;
        if (!(v > -45)) all = 0;
        if (v & 1) bal |= 1u << k;
        if (v % 4 == h[i] % 4) match |= 1u << k;
      }
      unsigned e[5] = {any, all, bal, match, (unsigned)((i % 128) / n)};
      for (int k = 0; k < 5; k++)
        if (r[i * 15 + s * 5 + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_coop_vote: size %d [%d][%d] = %u, expected %u\n", n, i, k, r[i * 15 + s * 5 + k], e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_coop_vote\n");
  return 0;
}
