// Warp collectives on half precision: __shfl_xor_sync and __shfl_sync overloads for __half and __half2 from
// cuda_fp16.h, a butterfly maximum with __hmax and a broadcast of lane 0's __half2 to the warp.
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define N 256

__global__ void fp16_warp(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __half v = __float2half(in[i]);
  __half m = v;
  for (int off = 16; off > 0; off >>= 1) m = __hmax(m, __shfl_xor_sync(0xffffffffu, m, off));
  __half2 pair = __halves2half2(v, __hneg(v));
  __half2 first = __shfl_sync(0xffffffffu, pair, 0);
  __half up = __shfl_up_sync(0xffffffffu, v, 1);
  out[i * 4 + 0] = __half2float(m);
  out[i * 4 + 1] = __low2float(first) + __high2float(first) * 2.0f;
  out[i * 4 + 2] = __half2float(up);
  out[i * 4 + 3] = __half2float(__shfl_down_sync(0xffffffffu, v, 3));
}

static float input(int i) { return ((i * 37) % 101 - 50) / 8.0f; }

int main() {
  float h[N], r[N * 4];
  for (int i = 0; i < N; i++) h[i] = input(i);
  float *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  fp16_warp<<<N / 64, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int w = i & ~31, lane = i & 31;
    float mx = -INFINITY;
    for (int k = 0; k < 32; k++) mx = std::fmax(mx, h[w + k]);
    float e[4] = {mx, h[w] - 2.0f * h[w], lane == 0 ? h[i] : h[i - 1], lane + 3 < 32 ? h[i + 3] : h[i]};
    for (int k = 0; k < 4; k++) if (r[i * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_fp16_warp: [%d][%d] = %g, expected %g\n", i, k, r[i * 4 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_fp16_warp\n");
  return 0;
}
