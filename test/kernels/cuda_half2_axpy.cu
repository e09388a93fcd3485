// y = a*x + y on __half2 pairs with __hfma2 in a grid-stride loop, the odd tail element handled as a
// scalar __half with __hfma; the result widened to float2 with __half22float2 for the host.
#include <cstdio>
#include <cuda_fp16.h>

#define N 1001

__global__ void half2_axpy(float a, const __half *x, __half *y, int n) {
  const __half2 a2 = __float2half2_rn(a);
  const __half2 *x2 = reinterpret_cast<const __half2 *>(x);
  __half2 *y2 = reinterpret_cast<__half2 *>(y);
  int pairs = n / 2;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < pairs; i += gridDim.x * blockDim.x) y2[i] = __hfma2(a2, x2[i], y2[i]);
  if (blockIdx.x == 0 && threadIdx.x == 0 && (n & 1)) y[n - 1] = __hfma(__float2half(a), x[n - 1], y[n - 1]);
}

__global__ void widen(const __half2 *y, float2 *out, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) out[i] = __half22float2(y[i]);
}

int main() {
  __half hx[N + 1], hy[N + 1];
  float fx[N], fy[N];
  for (int i = 0; i < N; i++) { fx[i] = ((i * 5) % 32) / 8.0f; fy[i] = ((i * 3) % 16) / 4.0f; hx[i] = __float2half(fx[i]); hy[i] = __float2half(fy[i]); }
  hx[N] = hy[N] = __float2half(0.0f);
  __half *dx, *dy; float2 *dout;
  cudaMalloc(&dx, sizeof(hx)); cudaMalloc(&dy, sizeof(hy)); cudaMalloc(&dout, (N + 1) / 2 * sizeof(float2));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  half2_axpy<<<2, 128>>>(0.5f, dx, dy, N);
  widen<<<2, 256>>>(reinterpret_cast<const __half2 *>(dy), dout, (N + 1) / 2);
  float2 r[(N + 1) / 2];
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float got = i % 2 ? r[i / 2].y : r[i / 2].x;
    float want = 0.5f * fx[i] + fy[i];   // exact: multiples of 1/16 below 8
    if (got != want) { if (bad++ < 5) printf("FAIL cuda_half2_axpy: [%d] = %g, expected %g\n", i, got, want); }
  }
  if (bad) return 1;
  printf("PASS cuda_half2_axpy\n");
  return 0;
}
