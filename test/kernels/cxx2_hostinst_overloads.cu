// Overloaded host function templates instantiated explicitly with their arguments left to deduction
// (FasterTransformer's activation_int8_kernels.cu: two `invokeAddBiasGeluCol32` templates, one launching plain
// kernels and one a kernel template, each instantiated for float and half bias): each explicit instantiation
// names its overload by its parameter types, and only the overload that launches a kernel template adds
// specialisations. Host templates called with deduced arguments, from main and from another host template
// (`scale_narrow<int>` is reached only through `runAll<int>` calling `invokeScale(...)`), add theirs, and so does
// a call naming one of the overloads with written arguments (`invokeScale<short>(...)`).
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

namespace ops {
__global__ void scale_wide(int8_t *out, const int32_t *in, const float *bias, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = (int8_t)(in[i] / 4 + (int)bias[i]);
}

template <typename T> __global__ void scale_narrow(int8_t *out, const int8_t *in, const T *bias, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = (int8_t)(in[i] * 2 + (int)bias[i]);
}

// the plain overload: launches no kernel template
template <typename T> void invokeScale(int8_t *out, const int32_t *in, const T *bias, int n, cudaStream_t stream) {
  scale_wide<<<1, n, 0, stream>>>(out, in, (const float *)bias, n);
}

// the overload of the same name that launches the kernel template
template <typename T> void invokeScale(int8_t *out, const int8_t *in, const T *bias, int n, cudaStream_t stream) {
  scale_narrow<<<1, n, 0, stream>>>(out, in, bias, n);
}

template <typename B> void runAll(int8_t *out, const int8_t *in, const B *bias, int n) {
  invokeScale(out, in, bias, n, 0);
}

template void invokeScale(int8_t *out, const int32_t *in, const float *bias, int n, cudaStream_t stream);
template void invokeScale(int8_t *out, const int8_t *in, const float *bias, int n, cudaStream_t stream);
template void invokeScale(int8_t *out, const int8_t *in, const double *bias, int n, cudaStream_t stream);
}  // namespace ops

int main() {
  const int n = 8;
  int32_t hw[n];
  int8_t hn[n], r1[n], r2[n], r3[n];
  float fb[n];
  double db[n];
  int ib[n];
  int8_t r4[n], r5[n];
  short sb[n];
  for (int i = 0; i < n; i++) { hw[i] = 4 * i; hn[i] = (int8_t)i; fb[i] = 1.0f; db[i] = 2.0; ib[i] = 3; sb[i] = 4; }
  int32_t *dw; int8_t *dn, *dout; float *dfb; double *ddb; int *dib; short *dsb;
  cudaMalloc(&dw, sizeof hw); cudaMalloc(&dn, sizeof hn); cudaMalloc(&dout, n);
  cudaMalloc(&dfb, sizeof fb); cudaMalloc(&ddb, sizeof db); cudaMalloc(&dib, sizeof ib); cudaMalloc(&dsb, sizeof sb);
  cudaMemcpy(dsb, sb, sizeof sb, cudaMemcpyHostToDevice);
  cudaMemcpy(dib, ib, sizeof ib, cudaMemcpyHostToDevice);
  cudaMemcpy(dw, hw, sizeof hw, cudaMemcpyHostToDevice);
  cudaMemcpy(dn, hn, sizeof hn, cudaMemcpyHostToDevice);
  cudaMemcpy(dfb, fb, sizeof fb, cudaMemcpyHostToDevice);
  cudaMemcpy(ddb, db, sizeof db, cudaMemcpyHostToDevice);
  ops::invokeScale(dout, (const int32_t *)dw, (const float *)dfb, n, 0);
  cudaMemcpy(r1, dout, n, cudaMemcpyDeviceToHost);
  ops::invokeScale(dout, (const int8_t *)dn, (const float *)dfb, n, 0);
  cudaMemcpy(r2, dout, n, cudaMemcpyDeviceToHost);
  ops::invokeScale(dout, (const int8_t *)dn, (const double *)ddb, n, 0);
  cudaMemcpy(r3, dout, n, cudaMemcpyDeviceToHost);
  ops::runAll<int>(dout, (const int8_t *)dn, (const int *)dib, n);
  cudaMemcpy(r4, dout, n, cudaMemcpyDeviceToHost);
  ops::invokeScale<short>(dout, (const int8_t *)dn, dsb, n, 0);
  cudaMemcpy(r5, dout, n, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) ok = ok && r1[i] == i + 1 && r2[i] == 2 * i + 1 && r3[i] == 2 * i + 2 && r4[i] == 2 * i + 3 && r5[i] == 2 * i + 4;
  if (!ok) { printf("FAIL cxx2_hostinst_overloads\n"); return 1; }
  printf("PASS cxx2_hostinst_overloads\n");
  return 0;
}
