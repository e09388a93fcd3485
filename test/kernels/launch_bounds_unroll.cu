// __launch_bounds__ (one and two arguments) and #pragma unroll (full, with a count, unroll 1) on loops
// with constant and run-time trip counts.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL launch_bounds_unroll: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__host__ __device__ unsigned work(unsigned x, int m) {
  unsigned acc = x;
#pragma unroll
  for (int i = 0; i < 8; i++) acc = acc * 33u + (unsigned)i;
#pragma unroll 4
  for (int i = 0; i < m; i++) acc ^= acc >> (i % 7 + 1);
#pragma unroll 1
  for (int i = 0; i < 5; i++) acc += (unsigned)(i * i);
  return acc;
}

__global__ void __launch_bounds__(128) k1(unsigned *out, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = work((unsigned)t, m);
}

__global__ void __launch_bounds__(256, 2) k2(unsigned *out, int m) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v[4];
#pragma unroll
  for (int j = 0; j < 4; j++) v[j] = work((unsigned)(t * 4 + j), m);
  out[t] = v[0] ^ v[1] ^ v[2] ^ v[3];
}

int main() {
  const int n = 1024;
  unsigned *d, h[n];
  CK(cudaMalloc(&d, sizeof(h)));
  k1<<<n / 128, 128>>>(d, 13);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++)
    if (h[t] != work((unsigned)t, 13)) { printf("FAIL launch_bounds_unroll: k1[%d]\n", t); return 1; }
  k2<<<n / 256, 256>>>(d, 6);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    unsigned w = 0;
    for (int j = 0; j < 4; j++) w ^= work((unsigned)(t * 4 + j), 6);
    if (h[t] != w) { printf("FAIL launch_bounds_unroll: k2[%d]\n", t); return 1; }
  }
  printf("PASS launch_bounds_unroll\n");
  return 0;
}
