#include "common.h"

// Inclusive scan of one block (Hillis-Steele), per-block totals added on the host.
__global__ void block_scan(const int *in, int *out, int *totals, int n) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x, g = global_index();
  s[t] = g < n ? in[g] : 0;
  __syncthreads();
  for (int off = 1; off < BLOCK; off <<= 1) {
    int v = t >= off ? s[t - off] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (g < n) out[g] = s[t];
  if (t == BLOCK - 1) totals[blockIdx.x] = s[t];
}

int run_scan(int n) {
  int blocks = (n + BLOCK - 1) / BLOCK;
  int *in, *out, *totals;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, n * sizeof(int)));
  CHECK(cudaMallocManaged(&totals, blocks * sizeof(int)));
  for (int i = 0; i < n; i++) in[i] = 1;
  block_scan<<<blocks, BLOCK>>>(in, out, totals, n);
  CHECK(cudaDeviceSynchronize());
  int bad = 0, base = 0;
  for (int i = 0; i < n; i++) {
    if (i % BLOCK == 0 && i > 0) base += totals[i / BLOCK - 1];
    bad += base + out[i] != i + 1;
  }
  cudaFree(in); cudaFree(out); cudaFree(totals);
  return bad != 0;
}
