// Kernel templates reached through several levels of host templates, an explicit instantiation of a host
// template, a constexpr local of the host template in the kernel's arguments, and a class type argument.
#include <cstdio>
#include <cuda_runtime.h>

struct Pair { int a, b; };

template <class T, int STRIDE> __global__ void strided(const T *in, T *out) {
  int i = threadIdx.x;
  out[i] = in[(i * STRIDE) % 32];
}

template <class P> __global__ void swapPairs(P *p) {
  int i = threadIdx.x;
  int t = p[i].a;
  p[i].a = p[i].b * 2;
  p[i].b = t - 1;
}

template <class T> bool level2() {
  constexpr int kStride = 3;
  T h[32], r[32];
  for (int i = 0; i < 32; i++) h[i] = (T)(i * 2 + 1);
  T *din, *dout;
  cudaMalloc(&din, sizeof(h));
  cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  strided<T, kStride * 2 - 1><<<1, 32>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  for (int i = 0; i < 32; i++) if (r[i] != h[(i * 5) % 32]) return false;
  return true;
}

template <class T> bool level1() { return level2<T>(); }

template <class P> bool runPairs() {
  P h[32];
  for (int i = 0; i < 32; i++) { h[i].a = i; h[i].b = 100 - i; }
  P *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  swapPairs<P><<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < 32; i++) if (h[i].a != (100 - i) * 2 || h[i].b != i - 1) return false;
  return true;
}

template bool level1<double>();

int main() {
  bool ok = level1<int>() && level1<float>() && level1<double>() && runPairs<Pair>();
  if (!ok) { printf("FAIL cxx2_hostinst_levels\n"); return 1; }
  printf("PASS cxx2_hostinst_levels\n");
  return 0;
}
