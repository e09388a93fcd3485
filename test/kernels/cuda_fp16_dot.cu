// A half-precision dot product: __half2 loads from global memory, __hfma2 accumulation, a warp reduction of
// the __half2 partial sums with __shfl_down_sync (the header's __half2 overload), then per-block sums in
// float written out. The inputs are small multiples of 1/64 so every partial sum is exact in half precision.
#include <cstdio>
#include <cuda_fp16.h>

#define N 2048

__global__ void fp16_dot(const __half2 *x, const __half2 *y, float *block_sums, int n2) {
  __shared__ float warp_sums[8];
  int tid = threadIdx.x;
  __half2 acc = __float2half2_rn(0.0f);
  for (int i = blockIdx.x * blockDim.x + tid; i < n2; i += gridDim.x * blockDim.x) acc = __hfma2(x[i], y[i], acc);
  for (int off = 16; off > 0; off >>= 1) acc = __hadd2(acc, __shfl_down_sync(0xffffffffu, acc, off));
  if ((tid & 31) == 0) warp_sums[tid >> 5] = __low2float(acc) + __high2float(acc);
  __syncthreads();
  if (tid == 0) {
    float s = 0;
    for (int w = 0; w < blockDim.x / 32; w++) s += warp_sums[w];
    block_sums[blockIdx.x] = s;
  }
}

int main() {
  const int blocks = 4, threads = 256;
  __half hx[N], hy[N];
  double want = 0;
  for (int i = 0; i < N; i++) {
    float a = ((i * 7) % 9 - 4) / 8.0f, b = ((i * 5) % 7 - 3) / 8.0f;
    hx[i] = __float2half(a); hy[i] = __float2half(b);
    want += (double)a * b;
  }
  __half2 *dx, *dy; float *ds;
  cudaMalloc(&dx, sizeof(hx)); cudaMalloc(&dy, sizeof(hy)); cudaMalloc(&ds, blocks * sizeof(float));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  fp16_dot<<<blocks, threads>>>(dx, dy, ds, N / 2);
  float hs[blocks];
  cudaMemcpy(hs, ds, sizeof(hs), cudaMemcpyDeviceToHost);
  double got = 0;
  for (int b = 0; b < blocks; b++) got += hs[b];
  if (got != want) { printf("FAIL cuda_fp16_dot: %g, expected %g\n", got, want); return 1; }
  printf("PASS cuda_fp16_dot\n");
  return 0;
}
