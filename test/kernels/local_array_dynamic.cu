// Local (stack) arrays indexed with run-time values: a per-thread histogram, a small insertion sort,
// a 2D local array and a lookup table filled in a loop.
#include <cstdio>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL local_array_dynamic: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define K 12

__global__ void kernel(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int v[K];
  for (int i = 0; i < K; i++) v[i] = in[t * K + i];
  for (int i = 1; i < K; i++) {          // insertion sort with data-dependent indices
    int x = v[i], j = i - 1;
    while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
    v[j + 1] = x;
  }
  int hist[8] = {0};
  for (int i = 0; i < K; i++) hist[v[i] & 7]++;
  int m[3][4];
  for (int i = 0; i < 12; i++) m[i % 3][i / 3] = v[i];
  int idx = in[t * K] & 3;
  int acc = 0;
  for (int r = 0; r < 3; r++) acc += m[r][idx] * (r + 1);
  for (int i = 0; i < K; i++) out[t * (K + 9) + i] = v[i];
  for (int i = 0; i < 8; i++) out[t * (K + 9) + K + i] = hist[i];
  out[t * (K + 9) + K + 8] = acc;
}

int main() {
  const int n = 500;
  int *hin = new int[n * K], *hout = new int[n * (K + 9)];
  unsigned s = 12345;
  for (int i = 0; i < n * K; i++) { s = s * 1103515245u + 12345u; hin[i] = (int)((s >> 8) % 1000) - 500; }
  int *din, *dout;
  CK(cudaMalloc(&din, n * K * sizeof(int)));
  CK(cudaMalloc(&dout, n * (K + 9) * sizeof(int)));
  CK(cudaMemcpy(din, hin, n * K * sizeof(int), cudaMemcpyHostToDevice));
  kernel<<<(n + 63) / 64, 64>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, n * (K + 9) * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int v[K]; std::copy(hin + t * K, hin + t * K + K, v); std::sort(v, v + K);
    int w[K + 9] = {0};
    for (int i = 0; i < K; i++) { w[i] = v[i]; w[K + (v[i] & 7)]++; }
    int idx = hin[t * K] & 3;
    for (int r = 0; r < 3; r++) w[K + 8] += v[idx * 3 + r] * (r + 1);
    for (int i = 0; i < K + 9; i++)
      if (hout[t * (K + 9) + i] != w[i]) { printf("FAIL local_array_dynamic: t=%d i=%d got %d want %d\n", t, i, hout[t * (K + 9) + i], w[i]); return 1; }
  }
  printf("PASS local_array_dynamic\n");
  return 0;
}
