// GPUMD's NEP charge models call erfc on a float after including <cmath>: libstdc++ defines
// `constexpr float erfc(float __x) { return __builtin_erfcf(__x); }` and CUDA's headers redeclare it with a
// parameter named x. The body must be read with its own parameter names (ptxd read `__x` as undefined).
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void screened(const float *r, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float b = r[i];
    const float e = erfc(b);
    out[i] = e * 1000.0f;
  }
}

int main() {
  float hr[3] = {0.0f, 1.0f, 10.0f}, ho[3];
  float *dr, *dout;
  cudaMalloc(&dr, sizeof hr);
  cudaMalloc(&dout, sizeof ho);
  cudaMemcpy(dr, hr, sizeof hr, cudaMemcpyHostToDevice);
  screened<<<1, 32>>>(dr, dout, 3);
  cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost);
  // erfc(0) = 1, erfc(1) = 0.157299..., erfc(10) ~ 2e-45
  bool ok = fabsf(ho[0] - 1000.0f) < 0.01f && fabsf(ho[1] - 157.2992f) < 0.01f && ho[2] >= 0.0f && ho[2] < 1e-30f;
  if (!ok) { printf("FAIL cxx2_corpus_gpumd %f %f %g\n", ho[0], ho[1], ho[2]); return 1; }
  printf("PASS cxx2_corpus_gpumd\n");
  return 0;
}
