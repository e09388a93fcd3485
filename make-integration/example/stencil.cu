#include "common.h"

#define RADIUS 3

__global__ void stencil(const int *in, int *out, int n) {
  __shared__ int s[BLOCK + 2 * RADIUS];
  int g = global_index(), l = threadIdx.x + RADIUS;
  s[l] = in[clamp_int(g, 0, n - 1)];
  if (threadIdx.x < RADIUS) {
    s[l - RADIUS] = in[clamp_int(g - RADIUS, 0, n - 1)];
    s[l + BLOCK] = in[clamp_int(g + BLOCK, 0, n - 1)];
  }
  __syncthreads();
  int acc = 0;
  for (int o = -RADIUS; o <= RADIUS; o++) acc += s[l + o];
  if (g < n) out[g] = acc;
}

int run_stencil(int n) {
  int *in, *out;
  CHECK(cudaMallocManaged(&in, n * sizeof(int)));
  CHECK(cudaMallocManaged(&out, n * sizeof(int)));
  for (int i = 0; i < n; i++) in[i] = 1;
  stencil<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(in, out, n);
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int i = 0; i < n; i++) bad += out[i] != 2 * RADIUS + 1;
  cudaFree(in); cudaFree(out);
  return bad != 0;
}
