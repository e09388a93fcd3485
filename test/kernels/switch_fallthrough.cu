// switch statements: fallthrough between cases, default in the middle, a dense jump-table-like switch,
// a sparse switch with large/negative case values, nested switches, break inside a loop inside a case.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL switch_fallthrough: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__host__ __device__ int dense(int v) {
  int r = 0;
  switch (v & 7) {
    case 0: r += 1;        // fall through
    case 1: r += 10;       // fall through
    case 2: r += 100; break;
    default: r = -1;       // fall through
    case 5: r *= 3; break;
    case 6:
    case 7: r = v; break;
  }
  return r;
}

__host__ __device__ int sparse(int v) {
  switch (v) {
    case -1000000: return 1;
    case -7: return 2;
    case 0: return 3;
    case 42: return 4;
    case 65536: return 5;
    case 0x7fffffff: return 6;
  }
  return 0;
}

__host__ __device__ int nested(int a, int b) {
  int r = 0;
  switch (a % 3) {
    case 0:
      switch (b % 2) { case 0: r = 1; break; default: r = 2; }
      break;
    case 1:
      for (int i = 0; i < 10; i++) { if (i == b % 5) break; r += i; }
      r += 100;
      break;
    default:
      r = -5;
  }
  return r;
}

__global__ void kernel(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  out[t * 3] = dense(in[t]);
  out[t * 3 + 1] = sparse(in[t]);
  out[t * 3 + 2] = nested(t, in[t] & 0xff);
}

int main() {
  const int n = 256;
  int hin[n], hout[n * 3];
  int specials[6] = {-1000000, -7, 0, 42, 65536, 0x7fffffff};
  for (int i = 0; i < n; i++) hin[i] = (i % 10 < 6) ? specials[i % 10] : i * 7 - 500;
  int *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<2, 128>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int w[3] = {dense(hin[t]), sparse(hin[t]), nested(t, hin[t] & 0xff)};
    for (int k = 0; k < 3; k++)
      if (hout[t * 3 + k] != w[k]) { printf("FAIL switch_fallthrough: t=%d k=%d got %d want %d\n", t, k, hout[t * 3 + k], w[k]); return 1; }
  }
  printf("PASS switch_fallthrough\n");
  return 0;
}
