// A device assert() that fails in one thread: the launch must end with cudaErrorAssert (the program checks
// that itself and passes when the assertion really fired), and the assertion message names this file.
// EXPECT-OUTPUT: Assertion
#include <cstdio>
#include <cassert>

__global__ void kernel(const int *in, int *out) {
  int t = threadIdx.x;
  assert(in[t] != 13);
  out[t] = in[t] * 2;
}

int main() {
  int hin[32], *din, *dout;
  for (int i = 0; i < 32; i++) hin[i] = i;
  if (cudaMalloc(&din, sizeof(hin)) != cudaSuccess || cudaMalloc(&dout, sizeof(hin)) != cudaSuccess) { printf("FAIL assert_fail: malloc\n"); return 1; }
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  kernel<<<1, 32>>>(din, dout);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  fflush(stdout);
  if (launch != cudaSuccess) { printf("FAIL assert_fail: launch error %s\n", cudaGetErrorString(launch)); return 1; }
  if (sync != cudaErrorAssert) { printf("FAIL assert_fail: expected cudaErrorAssert, got %s\n", cudaGetErrorString(sync)); return 1; }
  printf("PASS assert_fail\n");
  return 0;
}
