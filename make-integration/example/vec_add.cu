#include "common.h"

__global__ void vec_add(const int *a, const int *b, int *c, int n) {
  int i = global_index();
  if (i < n) c[i] = a[i] + b[i];
}

int run_vec_add(int n) {
  int *a, *b, *c;
  CHECK(cudaMallocManaged(&a, n * sizeof(int)));
  CHECK(cudaMallocManaged(&b, n * sizeof(int)));
  CHECK(cudaMallocManaged(&c, n * sizeof(int)));
  for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; }
  vec_add<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(a, b, c, n);
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n; i++) bad += c[i] != 3 * i;
  cudaFree(a); cudaFree(b); cudaFree(c);
  return bad != 0;
}
