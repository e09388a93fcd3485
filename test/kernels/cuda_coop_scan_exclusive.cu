// cooperative_groups/scan.h: cg::exclusive_scan on thread_block_tile<32> and <8> (the default plus, which
// for integers subtracts the thread's own value from the inclusive result, and less, greater, bit_and, bit_or,
// bit_xor, which shift the inclusive result up one thread with the first thread's result value-initialised),
// on unsigned and float, and on a coalesced group of the threads holding odd values (a compaction index).
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define N 256

template <class Tile>
__device__ void scans(const Tile &t, int v, unsigned u, float f, int *io, unsigned *uo, float *fo, int i) {
  io[0 * N + i] = cg::exclusive_scan(t, v);
  io[1 * N + i] = cg::exclusive_scan(t, v, cg::less<int>());
  io[2 * N + i] = cg::exclusive_scan(t, v, cg::greater<int>());
  io[3 * N + i] = cg::exclusive_scan(t, v, cg::bit_and<int>());
  io[4 * N + i] = cg::exclusive_scan(t, v, cg::bit_or<int>());
  io[5 * N + i] = cg::exclusive_scan(t, v, cg::bit_xor<int>());
  uo[i] = cg::exclusive_scan(t, u);
  fo[i] = cg::exclusive_scan(t, f, cg::plus<float>());
}

__global__ void exscan_kernel(const int *in, const float *fin, int *io, unsigned *uo, float *fo, int *co) {
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned u = (unsigned)v * 2654435761u;
  scans(cg::tiled_partition<32>(b), v, u, fin[i], io, uo, fo, i);
  scans(cg::tiled_partition<8>(b), v, u, fin[i], io + 6 * N, uo + N, fo + N, i);
  co[i] = -1;
  if (v & 1) {
    cg::coalesced_group g = cg::coalesced_threads();
    co[i] = cg::exclusive_scan(g, 1) * 100 + (int)g.num_threads();
  }
}

static int apply(int k, int a, int b) {
  switch (k) {
    case 0: return a + b;
    case 1: return b < a ? b : a;
    case 2: return a < b ? b : a;
    case 3: return a & b;
    case 4: return a | b;
    default: return a ^ b;
  }
}

int main() {
  int h[N], io[12 * N], co[N];
  unsigned uo[2 * N];
  float fin[N], fo[2 * N];
  for (int i = 0; i < N; i++) { h[i] = (i * 7919) % 2001 - 1000; fin[i] = ((i * 37) % 64 - 32) * 0.25f; }
  int *din, *dio, *dco; unsigned *duo; float *dfin, *dfo;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dfin, sizeof(fin)); cudaMalloc(&dio, sizeof(io)); cudaMalloc(&duo, sizeof(uo));
  cudaMalloc(&dfo, sizeof(fo)); cudaMalloc(&dco, sizeof(co));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(dfin, fin, sizeof(fin), cudaMemcpyHostToDevice);
  exscan_kernel<<<N / 128, 128>>>(din, dfin, dio, duo, dfo, dco);
  cudaMemcpy(io, dio, sizeof(io), cudaMemcpyDeviceToHost);
  cudaMemcpy(uo, duo, sizeof(uo), cudaMemcpyDeviceToHost);
  cudaMemcpy(fo, dfo, sizeof(fo), cudaMemcpyDeviceToHost);
  cudaMemcpy(co, dco, sizeof(co), cudaMemcpyDeviceToHost);
  int bad = 0;
  const int sizes[2] = {32, 8};
  for (int s = 0; s < 2; s++) {
    int n = sizes[s];
    for (int i = 0; i < N; i++) {
      int start = i - i % n;
      for (int k = 0; k < 6; k++) {
        int acc = 0;
        if (i > start) { acc = h[start]; for (int j = start + 1; j < i; j++) acc = apply(k, acc, h[j]); }
        int got = io[(s * 6 + k) * N + i];
        if (got != acc && bad++ < 5) printf("FAIL cuda_coop_scan_exclusive: tile %d op %d [%d] = %d, expected %d\n", n, k, i, got, acc);
      }
      unsigned ua = 0; float fa = 0;
      for (int j = start; j < i; j++) { ua += (unsigned)h[j] * 2654435761u; fa += fin[j]; }
      if (uo[s * N + i] != ua && bad++ < 5) printf("FAIL cuda_coop_scan_exclusive: tile %d unsigned [%d] = %u, expected %u\n", n, i, uo[s * N + i], ua);
      if (fo[s * N + i] != fa && bad++ < 5) printf("FAIL cuda_coop_scan_exclusive: tile %d float [%d] = %g, expected %g\n", n, i, fo[s * N + i], fa);
    }
  }
  for (int i = 0; i < N; i++) {
    int w = i - i % 32, before = 0, total = 0;
    for (int j = w; j < w + 32; j++) if (h[j] & 1) { total++; if (j < i) before++; }
    int e = (h[i] & 1) ? before * 100 + total : -1;
    if (co[i] != e && bad++ < 5) printf("FAIL cuda_coop_scan_exclusive: coalesced [%d] = %d, expected %d\n", i, co[i], e);
  }
  if (bad) return 1;
  printf("PASS cuda_coop_scan_exclusive\n");
  return 0;
}
