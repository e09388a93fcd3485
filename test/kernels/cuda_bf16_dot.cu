// A bfloat16 dot product with float accumulation: __nv_bfloat16 inputs widened with __bfloat162float, a
// grid-stride loop, a warp reduction with __shfl_xor_sync on float, and one atomicAdd per warp. Inputs are
// small multiples of 1/8 so every sum is exact in float and the order does not matter.
#include <cstdio>
#include <cuda_bf16.h>

#define N 3000

__global__ void bf16_dot(const __nv_bfloat16 *x, const __nv_bfloat16 *y, float *sum, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += __bfloat162float(x[i]) * __bfloat162float(y[i]);
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(sum, acc);
}

int main() {
  __nv_bfloat16 hx[N], hy[N];
  double want = 0;
  for (int i = 0; i < N; i++) {
    float a = ((i * 7) % 17 - 8) / 8.0f, b = ((i * 11) % 13 - 6) / 8.0f;
    hx[i] = __float2bfloat16(a); hy[i] = __float2bfloat16(b);
    want += (double)a * b;
  }
  __nv_bfloat16 *dx, *dy; float *ds;
  cudaMalloc(&dx, sizeof(hx)); cudaMalloc(&dy, sizeof(hy)); cudaMalloc(&ds, sizeof(float));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  cudaMemset(ds, 0, sizeof(float));
  bf16_dot<<<3, 128>>>(dx, dy, ds, N);
  float got;
  cudaMemcpy(&got, ds, sizeof(float), cudaMemcpyDeviceToHost);
  if (got != (float)want) { printf("FAIL cuda_bf16_dot: %g, expected %g\n", got, want); return 1; }
  printf("PASS cuda_bf16_dot\n");
  return 0;
}
