// Statements: if/else chains, nested for/while/do-while loops, break and continue (also in nested
// loops), early return, the ternary and comma operators, loops with data-dependent trip counts.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL control_flow: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__host__ __device__ int collatz_steps(unsigned x) {
  int steps = 0;
  while (x != 1) {
    if (x & 1) x = 3 * x + 1; else x >>= 1;
    if (++steps > 1000) return -1;
  }
  return steps;
}

__host__ __device__ int classify(int v) {
  if (v < -100) return 0;
  else if (v < 0) return 1;
  else if (v == 0) return 2;
  else if (v < 100) return 3;
  return 4;
}

__host__ __device__ int loops(int t) {
  int acc = 0;
  for (int i = 0; i < 20; i++) {
    if (i % 3 == 0) continue;
    if (i > t % 17 + 3) break;
    for (int j = 0, k = 10; j < k; j++, k--) {
      if (j == 2) continue;
      acc += i * j - k;
      if (acc > 5000) break;
    }
  }
  int d = 0, x = t;
  do { d++; x /= 3; } while (x > 0);
  int w = 0;
  while (true) { w += 7; if (w > t) break; }
  return acc + d * 1000 + (w += 1, w % 13) * 100000;
}

__global__ void kernel(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  out[t * 3 + 0] = collatz_steps((unsigned)t + 1);
  out[t * 3 + 1] = classify(t * 3 - 300) * (t & 1 ? -1 : 1);
  out[t * 3 + 2] = loops(t);
}

int main() {
  const int n = 333;
  int *d, *h = new int[n * 3];
  CK(cudaMalloc(&d, n * 3 * sizeof(int)));
  kernel<<<(n + 31) / 32, 32>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * 3 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int w[3] = {collatz_steps((unsigned)t + 1), classify(t * 3 - 300) * (t & 1 ? -1 : 1), loops(t)};
    for (int k = 0; k < 3; k++)
      if (h[t * 3 + k] != w[k]) { printf("FAIL control_flow: t=%d k=%d got %d want %d\n", t, k, h[t * 3 + k], w[k]); return 1; }
  }
  printf("PASS control_flow\n");
  return 0;
}
