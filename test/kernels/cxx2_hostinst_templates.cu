// Kernel templates launched from host function templates (the cuda-samples simpleTemplates pattern):
// explicit host instantiations, a host template calling another, non-type parameters chosen in a switch,
// and a deduced launch inside a host template.
#include <cstdio>
#include <cuda_runtime.h>

template <class T> __global__ void scaleKernel(const T *in, T *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * (T)3 + (T)1;
}

template <class T, unsigned BLOCK, bool SQUARE> __global__ void blockSum(const T *in, T *out) {
  __shared__ T s[BLOCK];
  unsigned t = threadIdx.x;
  T v = in[blockIdx.x * BLOCK + t];
  s[t] = SQUARE ? v * v : v;
  __syncthreads();
  for (unsigned k = BLOCK / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

template <class T> __global__ void fillKernel(T *out, T v) { out[threadIdx.x] = v + (T)threadIdx.x; }

template <class T> bool runScale(int n) {
  T h[64], r[64];
  for (int i = 0; i < n; i++) h[i] = (T)i;
  T *din, *dout;
  cudaMalloc(&din, n * sizeof(T));
  cudaMalloc(&dout, n * sizeof(T));
  cudaMemcpy(din, h, n * sizeof(T), cudaMemcpyHostToDevice);
  scaleKernel<T><<<1, 64>>>(din, dout, n);
  cudaMemcpy(r, dout, n * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  for (int i = 0; i < n; i++) if (r[i] != (T)i * (T)3 + (T)1) return false;
  return true;
}

template <class T, bool SQUARE> bool runSum(int threads) {
  T h[128], r[2];
  for (int i = 0; i < 128; i++) h[i] = (T)(i % 7);
  T *din, *dout;
  cudaMalloc(&din, 128 * sizeof(T));
  cudaMalloc(&dout, 2 * sizeof(T));
  cudaMemcpy(din, h, 128 * sizeof(T), cudaMemcpyHostToDevice);
  switch (threads) {
    case 64: blockSum<T, 64, SQUARE><<<2, 64>>>(din, dout); break;
    case 32: blockSum<T, 32, SQUARE><<<2, 32>>>(din, dout); break;
  }
  cudaMemcpy(r, dout, 2 * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(din);
  cudaFree(dout);
  T want = 0;
  for (int i = 0; i < threads; i++) want += SQUARE ? h[i] * h[i] : h[i];
  return r[0] == want;
}

template <class T> bool runAll() {
  return runScale<T>(40) && runSum<T, true>(64) && runSum<T, false>(32);
}

template <class T> bool runFill(T v) {
  T *d, r[32];
  cudaMalloc(&d, 32 * sizeof(T));
  fillKernel<<<1, 32>>>(d, v);
  cudaMemcpy(r, d, 32 * sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < 32; i++) if (r[i] != v + (T)i) return false;
  return true;
}

int main() {
  bool ok = runAll<float>() && runAll<int>() && runScale<double>(16);
  ok = ok && runFill<float>(2.5f) && runFill<unsigned>(7u);
  if (!ok) { printf("FAIL cxx2_hostinst_templates\n"); return 1; }
  printf("PASS cxx2_hostinst_templates\n");
  return 0;
}
