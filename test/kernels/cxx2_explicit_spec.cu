// Explicit specialisations of function templates replace the primary template's body: written arguments
// (`reg<1>()`, `size<float>()`), arguments deduced from the parameters (`template <> int twice(double)`),
// non-type arguments reached through another template's parameters (cooperative_groups reads its grid
// workspace through `load_env_reg<LoReg>()` this way), specialisations in a namespace, declared before they
// are defined, and not inlined.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_explicit_spec: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

template <unsigned R> __device__ unsigned reg() { return 100 + R; }
template <> __device__ unsigned reg<1>() { return 1; }
template <> __device__ unsigned reg<2>() { return 2; }
template <unsigned H, unsigned L> __device__ unsigned long long reg64() { return ((unsigned long long)reg<H>() << 32) | reg<L>(); }

template <typename T> __device__ int size() { return -1; }
template <> __device__ int size<float>() { return 4; }
template <> __device__ int size<double>() { return 8; }

template <typename T> __device__ int twice(T x) { return (int)x * 100; }
template <> __device__ int twice<int>(int x) { return 2 * x; }
template <> __device__ int twice(double x) { return (int)(x * 3.0); }

namespace ops {
template <class T> __device__ __noinline__ T combine(T a, T b) { return a + b; }
template <> __device__ __noinline__ int combine(int a, int b);   // declared here, defined below
template <> __device__ __noinline__ int combine(int a, int b) { return a * b - 1; }
}

__global__ void explicitSpec(const int *in, long long *out) {
  int t = threadIdx.x;
  int x = in[t];
  long long *o = out + t * 8;
  o[0] = (long long)reg64<1, 2>();
  o[1] = reg<2>() + reg<7>() + x;
  o[2] = size<float>() + size<double>() * 10 + size<int>() * 100;
  o[3] = twice(x) + twice(0.5 * x) + twice((short)x);
  o[4] = ops::combine(x, x + 1);
  o[5] = (long long)ops::combine(1.5f * x, 2.0f);
  o[6] = ops::combine<long long>(x, 3);
  o[7] = reg64<3, 1>() >> 32;
}

int main() {
  const int T = 32;
  int hin[T];
  long long hout[T * 8];
  for (int i = 0; i < T; i++) hin[i] = i * 5 - 40;
  int *din; long long *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  explicitSpec<<<1, T>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < T; i++) {
    int x = hin[i];
    long long want[8] = {
      (1ll << 32) | 2, 2 + 107 + x, 4 + 80 - 100, 2 * x + (int)(0.5 * x * 3.0) + x * 100,
      (long long)x * (x + 1) - 1, (long long)(1.5f * x + 2.0f), (long long)x + 3, 103,
    };
    for (int k = 0; k < 8; k++)
      if (hout[i * 8 + k] != want[k]) { printf("FAIL cxx2_explicit_spec: [%d][%d] = %lld, expected %lld\n", i, k, hout[i * 8 + k], want[k]); return 1; }
  }
  printf("PASS cxx2_explicit_spec\n");
  return 0;
}
