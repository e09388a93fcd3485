// 1D stencil with halo cells loaded into shared memory (radius 3, integer weights), boundary clamping,
// __restrict__ pointers and a weights table in __constant__ memory.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL stencil_1d: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define R 3
#define BS 128

__constant__ int c_w[2 * R + 1] = {1, -2, 3, 10, 3, -2, 1};

__global__ void stencil(const int *__restrict__ in, int *__restrict__ out, int n) {
  __shared__ int s[BS + 2 * R];
  int g = blockIdx.x * BS + threadIdx.x, l = threadIdx.x + R;
  int gi = g < n ? g : n - 1;
  s[l] = in[gi];
  if (threadIdx.x < R) {
    int lo = g - R; s[l - R] = in[lo < 0 ? 0 : lo];
    int hi = g + BS; s[l + BS] = in[hi >= n ? n - 1 : hi];
  }
  __syncthreads();
  if (g >= n) return;
  int acc = 0;
#pragma unroll
  for (int k = -R; k <= R; k++) acc += c_w[k + R] * s[l + k];
  out[g] = acc;
}

int main() {
  const int n = 5000;
  int hin[n], hout[n], w[2 * R + 1] = {1, -2, 3, 10, 3, -2, 1};
  for (int i = 0; i < n; i++) hin[i] = (i * i) % 1013 - 500;
  int *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  stencil<<<(n + BS - 1) / BS, BS>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int acc = 0;
    for (int k = -R; k <= R; k++) { int j = i + k; j = j < 0 ? 0 : (j >= n ? n - 1 : j); acc += w[k + R] * hin[j]; }
    if (hout[i] != acc) { printf("FAIL stencil_1d: out[%d] = %d want %d\n", i, hout[i], acc); return 1; }
  }
  printf("PASS stencil_1d\n");
  return 0;
}
