// A host function template instantiated explicitly with its arguments left to deduction (FasterTransformer's
// `template void invokeMatrixTranspose(float* dst, const float* src, ...);`): the kernel template it launches is
// specialised for each instantiation's deduced T.
#include <cstdio>
#include <cuda_runtime.h>

namespace ft {
template <typename T> __global__ void transpose(T *dst, const T *src, const int k, const int n) {
  int i = threadIdx.x / n, j = threadIdx.x % n;
  if (i < k) dst[j * k + i] = src[i * n + j];
}

template <typename T> void invokeTranspose(T *dst, const T *src, const int k, const int n, cudaStream_t stream) {
  transpose<<<1, k * n, 0, stream>>>(dst, src, k, n);
}

template void invokeTranspose(float *dst, const float *src, const int k, const int n, cudaStream_t stream);
template void invokeTranspose(int *dst, const int *src, const int k, const int n, cudaStream_t stream);
}  // namespace ft

template <typename T> static bool check() {
  T h[6] = {1, 2, 3, 4, 5, 6}, r[6];
  T *ds, *dd;
  cudaMalloc(&ds, sizeof h);
  cudaMalloc(&dd, sizeof h);
  cudaMemcpy(ds, h, sizeof h, cudaMemcpyHostToDevice);
  ft::invokeTranspose<T>(dd, (const T *)ds, 2, 3, 0);
  cudaMemcpy(r, dd, sizeof r, cudaMemcpyDeviceToHost);
  cudaFree(ds);
  cudaFree(dd);
  return r[0] == 1 && r[1] == 4 && r[2] == 2 && r[3] == 5 && r[4] == 3 && r[5] == 6;
}

int main() {
  bool ok = check<float>() && check<int>();
  if (!ok) { printf("FAIL cxx2_hostinst_deduced_inst\n"); return 1; }
  printf("PASS cxx2_hostinst_deduced_inst\n");
  return 0;
}
