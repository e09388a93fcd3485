#include "common.h"

__global__ void reduce_sum(const int *in, int n, int *out) {
  __shared__ int s[BLOCK];
  int t = threadIdx.x;
  int acc = 0;
  for (int i = global_index(); i < n; i += gridDim.x * blockDim.x) acc += in[i];
  s[t] = acc;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}

int run_reduce(int n) {
  int *in, *out;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, sizeof(int)));
  long long want = 0;
  for (int i = 0; i < n; i++) { in[i] = i % 100; want += i % 100; }
  *out = 0;
  reduce_sum<<<32, BLOCK>>>(in, n, out);
  CHECK(cudaDeviceSynchronize());
  int bad = *out != (int)want;
  cudaFree(in); cudaFree(out);
  return bad;
}
