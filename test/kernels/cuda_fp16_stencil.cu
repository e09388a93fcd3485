// A half-precision 1D stencil through shared memory: __half tiles with halo cells loaded by the block,
// __syncthreads, a 5-point weighted sum with __hfma, and the result widened to float. The weights and inputs
// are multiples of 1/16 below 4, so every partial sum is exact in half precision and the host can compare exactly.
#include <cstdio>
#include <cuda_fp16.h>

#define RADIUS 2
#define BLOCK 64
#define N 1000

__global__ void fp16_stencil(const __half *in, float *out, int n) {
  __shared__ __half tile[BLOCK + 2 * RADIUS];
  const __half w[5] = {__float2half(0.0625f), __float2half(0.25f), __float2half(0.375f), __float2half(0.25f), __float2half(0.0625f)};
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  __half zero = __float2half(0.0f);
  tile[l] = g < n ? in[g] : zero;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + BLOCK;
    tile[l - RADIUS] = left >= 0 ? in[left] : zero;
    tile[l + BLOCK] = right < n ? in[right] : zero;
  }
  __syncthreads();
  if (g >= n) return;
  __half acc = zero;
  for (int k = -RADIUS; k <= RADIUS; k++) acc = __hfma(w[k + RADIUS], tile[l + k], acc);
  out[g] = __half2float(acc);
}

int main() {
  __half h[N]; float hv[N], r[N];
  for (int i = 0; i < N; i++) { hv[i] = ((i * 13) % 64) / 16.0f; h[i] = __float2half(hv[i]); }
  __half *din; float *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  fp16_stencil<<<(N + BLOCK - 1) / BLOCK, BLOCK>>>(din, dout, N);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  const float w[5] = {0.0625f, 0.25f, 0.375f, 0.25f, 0.0625f};
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float e = 0;
    for (int k = -RADIUS; k <= RADIUS; k++) e += w[k + RADIUS] * (i + k >= 0 && i + k < N ? hv[i + k] : 0.0f);
    if (r[i] != e) { if (bad++ < 5) printf("FAIL cuda_fp16_stencil: [%d] = %g, expected %g\n", i, r[i], e); }
  }
  if (bad) return 1;
  printf("PASS cuda_fp16_stencil\n");
  return 0;
}
