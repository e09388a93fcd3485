// saxpy: float arithmetic, __restrict__ pointers, 1D launch with tail guard.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL saxpy: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 10007;
  float *hx = (float *)malloc(n * sizeof(float)), *hy = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) { hx[i] = (float)(i % 97) * 0.25f; hy[i] = (float)(i % 13) - 6.0f; }
  float *dx, *dy;
  CK(cudaMalloc(&dx, n * sizeof(float)));
  CK(cudaMalloc(&dy, n * sizeof(float)));
  CK(cudaMemcpy(dx, hx, n * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dy, hy, n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.5f, dx, dy);
  CK(cudaGetLastError());
  float *out = (float *)malloc(n * sizeof(float));
  CK(cudaMemcpy(out, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float ref = 2.5f * hx[i] + hy[i];
    if (std::fabs(out[i] - ref) > 1e-4f * (1.0f + std::fabs(ref))) {
      if (bad++ < 5) printf("FAIL saxpy: y[%d] = %f, expected %f\n", i, out[i], ref);
    }
  }
  cudaFree(dx); cudaFree(dy);
  if (bad) return 1;
  printf("PASS saxpy\n");
  return 0;
}
