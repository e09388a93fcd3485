// Kernel template specialisations that host code reaches without a `<<<...>>>` launch of a template-id: through
// cudaLaunchKernel (a pointer to the specialisation, from main and from a host template), through a function
// pointer variable launched with `<<<...>>>`, and through a table of kernel pointers indexed at run time.
#include <cstdio>
#include <cuda_runtime.h>

template <typename T, int K> __global__ void axpb(T *p, T a, int n) {
  int i = threadIdx.x;
  if (i < n) p[i] = p[i] * a + (T)K;
}

template <typename T> __global__ void square(T *p, int n) {
  int i = threadIdx.x;
  if (i < n) p[i] = p[i] * p[i];
}

typedef void (*square_t)(int *, int);

template <typename T> void launchRaw(T *p, T a, int n) {
  void *args[] = {&p, &a, &n};
  cudaLaunchKernel((const void *)axpb<T, 2>, dim3(1), dim3(n), args, 0, 0);
}

int main() {
  const int n = 8;
  float hf[n], rf[n];
  int hi[n], ri[n];
  for (int i = 0; i < n; i++) { hf[i] = (float)i; hi[i] = i; }
  float *df; int *di;
  cudaMalloc(&df, sizeof hf); cudaMalloc(&di, sizeof hi);
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
  launchRaw(df, 3.0f, n);                                  // axpb<float, 2>: 3i + 2
  float a = 2.0f; int nn = n;
  void *args[] = {&df, &a, &nn};
  cudaLaunchKernel((const void *)axpb<float, 1>, dim3(1), dim3(n), args, 0, 0);   // (3i + 2) * 2 + 1
  square_t sq = square<int>;
  sq<<<1, n>>>(di, n);                                     // i * i
  void (*table[])(int *, int, int) = {axpb<int, 5>, axpb<int, 7>};
  table[1]<<<1, n>>>(di, 1, n);                            // i * i + 7
  cudaMemcpy(rf, df, sizeof rf, cudaMemcpyDeviceToHost);
  cudaMemcpy(ri, di, sizeof ri, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) ok = ok && rf[i] == (3.0f * i + 2.0f) * 2.0f + 1.0f && ri[i] == i * i + 7;
  if (!ok) { printf("FAIL cxx2_hostinst_launch_ptrs\n"); return 1; }
  printf("PASS cxx2_hostinst_launch_ptrs\n");
  return 0;
}
