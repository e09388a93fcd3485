// CUB's block-wide scans in device code (cub::BlockScan, its default raking algorithm with a warp-synchronous
// scan): ExclusiveSum, an inclusive scan with cuda::maximum, an exclusive scan with an initial value and the
// block aggregate. Overload resolution among CUB's ExclusiveScan overloads needs `const T &initial_value` to tie
// with a by-value parameter and lose by partial ordering, not by its added const.
// Also InclusiveSum over an items array per thread (its ThreadReduce path: libcu++'s invoke traits, CUB's SIMD
// reduction checks), in a kernel template named with the host function's local constants.
#include <cstdio>
#include <cub/block/block_scan.cuh>

#define BLOCK 128

__global__ void cubScan(const int *in, int *out) {
  using BS = cub::BlockScan<int, BLOCK>;
  __shared__ typename BS::TempStorage ts;
  int t = threadIdx.x, i = blockIdx.x * BLOCK + t;
  int x = in[i];
  int ex, inc, ex2, agg;
  BS(ts).ExclusiveSum(x, ex);
  __syncthreads();
  BS(ts).InclusiveScan(x, inc, cuda::maximum<int>{});
  __syncthreads();
  BS(ts).ExclusiveScan(x, ex2, 1000, cuda::std::plus<>{}, agg);
  out[i * 4 + 0] = ex;
  out[i * 4 + 1] = inc;
  out[i * 4 + 2] = ex2;
  out[i * 4 + 3] = agg;
}

template <int THREADS, int ITEMS>
__global__ void cubScanItems(const int *in, int *out) {
  typedef cub::BlockScan<int, THREADS> Scan;
  __shared__ typename Scan::TempStorage ts;
  int items[ITEMS];
  int base = (blockIdx.x * THREADS + threadIdx.x) * ITEMS;
  for (int k = 0; k < ITEMS; ++k) items[k] = in[base + k];
  Scan(ts).InclusiveSum(items, items);
  for (int k = 0; k < ITEMS; ++k) out[base + k] = items[k];
}

int main() {
  const int G = 2, N = G * BLOCK;
  int h[N], r[N * 4];
  for (int i = 0; i < N; i++) h[i] = (i * 53) % 97 - 48;
  int *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cubScan<<<G, BLOCK>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int b = 0; b < G; b++) {
    int total = 0;
    for (int t = 0; t < BLOCK; t++) total += h[b * BLOCK + t];
    int s = 0, m = -1000;
    for (int t = 0; t < BLOCK; t++) {
      int i = b * BLOCK + t, x = h[i];
      m = x > m ? x : m;
      int e[4] = {s, m, 1000 + s, total};
      s += x;
      for (int k = 0; k < 4; k++)
        if (r[i * 4 + k] != e[k] && bad++ < 5) printf("FAIL cuda_cub_scan: [%d][%d] = %d, expected %d\n", i, k, r[i * 4 + k], e[k]);
    }
  }
  // each block of 64 threads scans its 256 items
  const int TH = 64, IT = 4;
  int *dout2;
  cudaMalloc(&dout2, sizeof(h));
  cubScanItems<TH, IT><<<N / (TH * IT), TH>>>(din, dout2);
  int r2[N];
  cudaMemcpy(r2, dout2, sizeof(r2), cudaMemcpyDeviceToHost);
  for (int b = 0; b < N; b += TH * IT) {
    int s = 0;
    for (int k = 0; k < TH * IT; k++) {
      s += h[b + k];
      if (r2[b + k] != s && bad++ < 5) printf("FAIL cuda_cub_scan: items[%d] = %d, expected %d\n", b + k, r2[b + k], s);
    }
  }
  if (bad) return 1;
  printf("PASS cuda_cub_scan\n");
  return 0;
}
