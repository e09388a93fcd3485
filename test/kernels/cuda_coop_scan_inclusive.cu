// cooperative_groups/scan.h: cg::inclusive_scan on thread_block_tile<32> and <8> with the default plus and
// with cg::plus, less, greater, bit_and, bit_or and bit_xor on int, plus on unsigned and float (the
// float inputs are multiples of 0.25, so every partial sum is exact and the order of the adds cannot show).
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define N 256

template <class Tile>
__device__ void scans(const Tile &t, int v, unsigned u, float f, int *io, unsigned *uo, float *fo, int i) {
  io[0 * N + i] = cg::inclusive_scan(t, v);
  io[1 * N + i] = cg::inclusive_scan(t, v, cg::plus<int>());
  io[2 * N + i] = cg::inclusive_scan(t, v, cg::less<int>());
  io[3 * N + i] = cg::inclusive_scan(t, v, cg::greater<int>());
  io[4 * N + i] = cg::inclusive_scan(t, v, cg::bit_and<int>());
  io[5 * N + i] = cg::inclusive_scan(t, v, cg::bit_or<int>());
  io[6 * N + i] = cg::inclusive_scan(t, v, cg::bit_xor<int>());
  uo[i] = cg::inclusive_scan(t, u, cg::plus<unsigned>());
  fo[i] = cg::inclusive_scan(t, f);
}

__global__ void scan_kernel(const int *in, const float *fin, int *io, unsigned *uo, float *fo) {
  cg::thread_block b = cg::this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  unsigned u = (unsigned)v * 2654435761u;
  scans(cg::tiled_partition<32>(b), v, u, fin[i], io, uo, fo, i);
  scans(cg::tiled_partition<8>(b), v, u, fin[i], io + 7 * N, uo + N, fo + N, i);
}

static int apply(int k, int a, int b) {
  switch (k) {
    case 0: case 1: return a + b;
    case 2: return b < a ? b : a;
    case 3: return a < b ? b : a;
    case 4: return a & b;
    case 5: return a | b;
    default: return a ^ b;
  }
}

int main() {
  int h[N], io[14 * N];
  unsigned uo[2 * N];
  float fin[N], fo[2 * N];
  for (int i = 0; i < N; i++) { h[i] = (i * 7919) % 2001 - 1000; fin[i] = ((i * 37) % 64 - 32) * 0.25f; }
  int *din, *dio; unsigned *duo; float *dfin, *dfo;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dfin, sizeof(fin)); cudaMalloc(&dio, sizeof(io)); cudaMalloc(&duo, sizeof(uo)); cudaMalloc(&dfo, sizeof(fo));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(dfin, fin, sizeof(fin), cudaMemcpyHostToDevice);
  scan_kernel<<<N / 128, 128>>>(din, dfin, dio, duo, dfo);
  cudaMemcpy(io, dio, sizeof(io), cudaMemcpyDeviceToHost);
  cudaMemcpy(uo, duo, sizeof(uo), cudaMemcpyDeviceToHost);
  cudaMemcpy(fo, dfo, sizeof(fo), cudaMemcpyDeviceToHost);
  int bad = 0;
  const int sizes[2] = {32, 8};
  for (int s = 0; s < 2; s++) {
    int n = sizes[s];
    for (int i = 0; i < N; i++) {
      int start = i - i % n;
      for (int k = 0; k < 7; k++) {
        int acc = h[start];
        for (int j = start + 1; j <= i; j++) acc = apply(k, acc, h[j]);
        int got = io[(s * 7 + k) * N + i];
        if (got != acc && bad++ < 5) printf("FAIL cuda_coop_scan_inclusive: tile %d op %d [%d] = %d, expected %d\n", n, k, i, got, acc);
      }
      unsigned ua = 0; float fa = 0;
      for (int j = start; j <= i; j++) { ua += (unsigned)h[j] * 2654435761u; fa += fin[j]; }
      if (uo[s * N + i] != ua && bad++ < 5) printf("FAIL cuda_coop_scan_inclusive: tile %d unsigned [%d] = %u, expected %u\n", n, i, uo[s * N + i], ua);
      if (fo[s * N + i] != fa && bad++ < 5) printf("FAIL cuda_coop_scan_inclusive: tile %d float [%d] = %g, expected %g\n", n, i, fo[s * N + i], fa);
    }
  }
  if (bad) return 1;
  printf("PASS cuda_coop_scan_inclusive\n");
  return 0;
}
