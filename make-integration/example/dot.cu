#include "common.h"

__device__ unsigned long long dot_total;

__global__ void dot(const int *a, const int *b, int n) {
  __shared__ long long s[BLOCK];
  long long acc = 0;
  for (int i = global_index(); i < n; i += gridDim.x * blockDim.x) acc += (long long)a[i] * b[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(&dot_total, (unsigned long long)s[0]);
}

int run_dot(int n) {
  int *a, *b;
  CHECK(cudaMallocManaged(&a, n * sizeof(int)));
  CHECK(cudaMallocManaged(&b, n * sizeof(int)));
  unsigned long long want = 0, zero = 0, got = 0;
  for (int i = 0; i < n; i++) { a[i] = i % 10; b[i] = 3; want += (unsigned long long)(i % 10) * 3; }
  CHECK(cudaMemcpyToSymbol(dot_total, &zero, sizeof(zero)));
  dot<<<8, BLOCK>>>(a, b, n);
  CHECK(cudaMemcpyFromSymbol(&got, dot_total, sizeof(got)));
  cudaFree(a); cudaFree(b);
  return got != want;
}
