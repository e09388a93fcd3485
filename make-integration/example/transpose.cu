#include "common.h"

#define TILE 16

__global__ void transpose(const float *in, float *out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[y * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

int run_transpose(int n) {
  int w = 64, h = n / 64;
  float *in, *out;
  CHECK(cudaMallocManaged(&in, w * h * sizeof(float)));
  CHECK(cudaMallocManaged(&out, w * h * sizeof(float)));
  for (int i = 0; i < w * h; i++) in[i] = (float)i;
  dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, TILE);
  transpose<<<grid, block>>>(in, out, w, h);
  CHECK(cudaDeviceSynchronize());
  int bad = 0;
  for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) bad += out[x * h + y] != in[y * w + x];
  cudaFree(in); cudaFree(out);
  return bad != 0;
}
