// Device assert() whose condition holds for every thread: the kernel completes without error and
// computes its result; also an assert inside a __noinline__ helper.
#include <cstdio>
#include <cassert>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL assert_pass: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__device__ __noinline__ int checked_div(int a, int b) { assert(b != 0); return a / b; }

__global__ void kernel(const int *in, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  assert(blockDim.x == 64);
  if (t >= n) return;
  assert(in[t] >= 1 && in[t] <= n);
  out[t] = checked_div(1000000, in[t]);
}

int main() {
  const int n = 500;
  int hin[n], hout[n];
  for (int i = 0; i < n; i++) hin[i] = i % 37 + 1;
  int *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<(n + 63) / 64, 64>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (hout[i] != 1000000 / hin[i]) { printf("FAIL assert_pass: out[%d] = %d\n", i, hout[i]); return 1; }
  printf("PASS assert_pass\n");
  return 0;
}
