// An explicit specialisation of a host function template is an ordinary function (FasterTransformer's
// xlnet_attention_kernels.cu: `template <> void invokeCalAttnScore(float *...)` launching a kernel template that
// the primary never launches): cicc instantiates the kernels it launches whether host code calls it or not.
// The primary, called with deduced arguments, launches other specialisations.
#include <cstdio>
#include <cuda_runtime.h>

namespace att {
template <typename T> __global__ void scoreSmall(T *out, const T *in, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = in[i] + in[i];
}

template <typename T> __global__ void scoreWide(T *out, const T *in, int n, T bias) {
  int i = threadIdx.x;
  if (i < n) out[i] = in[i] * (T)3 + bias;
}

template <typename T> __global__ void unused(T *out) { out[threadIdx.x] = (T)0; }

template <typename T> void invokeScore(T *out, const T *in, int n, cudaStream_t stream) {
  scoreSmall<<<1, n, 0, stream>>>(out, in, n);
}

// the float specialisation launches other kernels, with deduced and with written arguments
template <> void invokeScore(float *out, const float *in, int n, cudaStream_t stream) {
  scoreWide<<<1, n, 0, stream>>>(out, in, n, 0.5f);
}

// never called: its kernel is still instantiated
template <> void invokeScore<long long>(long long *out, const long long *in, int n, cudaStream_t stream) {
  unused<long long><<<1, n, 0, stream>>>(out);
}
}  // namespace att

template <typename T> static bool check(T want0, T want5) {
  const int n = 8;
  T h[n], r[n];
  for (int i = 0; i < n; i++) h[i] = (T)i;
  T *din, *dout;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  att::invokeScore(dout, (const T *)din, n, 0);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  return r[0] == want0 && r[5] == want5;
}

int main() {
  bool ok = check<float>(0.5f, 15.5f) && check<int>(0, 10) && check<double>(0.0, 10.0);
  if (!ok) { printf("FAIL cxx2_hostinst_host_spec\n"); return 1; }
  printf("PASS cxx2_hostinst_host_spec\n");
  return 0;
}
