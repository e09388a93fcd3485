// CUB's block-wide scans in device code (cub::BlockScan, its default raking algorithm with a warp-synchronous
// scan): ExclusiveSum, an inclusive scan with cuda::maximum, an exclusive scan with an initial value and the
// block aggregate. Overload resolution among CUB's ExclusiveScan overloads needs `const T &initial_value` to tie
// with a by-value parameter and lose by partial ordering, not by its added const.
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
  if (bad) return 1;
  printf("PASS cuda_cub_scan\n");
  return 0;
}
