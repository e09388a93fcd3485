#include "common.h"

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = global_index();
  if (i < n) y[i] = a * x[i] + y[i];
}

int run_saxpy(int n) {
  float *x, *y;
  CHECK(cudaMallocManaged(&x, n * sizeof(float)));
  CHECK(cudaMallocManaged(&y, n * sizeof(float)));
  for (int i = 0; i < n; i++) { x[i] = (float)(i % 7); y[i] = 1.0f; }
  saxpy<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(n, 2.0f, x, y);
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n; i++) bad += y[i] != 2.0f * (float)(i % 7) + 1.0f;
  cudaFree(x); cudaFree(y);
  return bad != 0;
}
