// A host function with the name of a kernel template (threadFenceReduction's extern "C" reduceSinglePass),
// and a host template in a namespace launching a kernel template with its parameter.
#include <cstdio>
#include <cuda_runtime.h>

template <unsigned BLOCK, bool ADD_ONE> __global__ void sumBlock(const int *in, int *out) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  s[t] = in[t] + (ADD_ONE ? 1 : 0);
  __syncthreads();
  for (unsigned k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) *out = s[0];
}

extern "C" void sumBlock(int threads, const int *din, int *dout) {
  if (threads == 64) sumBlock<64, true><<<1, 64>>>(din, dout);
  else sumBlock<32, false><<<1, 32>>>(din, dout);
}

namespace work {
template <class T> __global__ void negate(T *p) { p[threadIdx.x] = -p[threadIdx.x]; }
template <class T> bool run() {
  T h[32];
  for (int i = 0; i < 32; i++) h[i] = (T)(i - 10);
  T *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  negate<T><<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < 32; i++) if (h[i] != (T)(10 - i)) return false;
  return true;
}
}  // namespace work

int main() {
  int h[64], r = 0, want = 0;
  for (int i = 0; i < 64; i++) { h[i] = i % 5; want += i % 5 + 1; }
  int *din, *dout;
  cudaMalloc(&din, sizeof(h));
  cudaMalloc(&dout, sizeof(int));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  sumBlock(64, din, dout);
  cudaMemcpy(&r, dout, sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  bool ok = r == want && work::run<float>() && work::run<long long>();
  if (!ok) { printf("FAIL cxx2_hostinst_shadow\n"); return 1; }
  printf("PASS cxx2_hostinst_shadow\n");
  return 0;
}
