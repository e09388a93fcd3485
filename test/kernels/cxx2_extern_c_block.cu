// Declarations inside `extern "C" { }` have C linkage: kernels, device functions and device variables keep
// their plain names (what cuModuleGetFunction looks up), as written in a header guarded by __cplusplus;
// `extern "C++" { }` inside the block restores C++ linkage, and member functions keep theirs. The host stub's
// `__device_stub_` names are C++-mangled for both forms (a block and `extern "C" __global__`).
#include <cstdio>

#ifdef __cplusplus
extern "C" {
#endif

__device__ int bias = 3;

__device__ __noinline__ int scaleC(int x, int k) { return x * k + bias; }

struct Acc {
  int total;
  __device__ __noinline__ void add(int v) { total += v; }
};

extern "C++" {
__device__ __noinline__ int scaleCxx(int x) { return x * 5 - 1; }
}

__global__ void externCFirst(const int *in, int *out) {
  int t = threadIdx.x;
  out[t * 3 + 0] = scaleC(in[t], 2);
}

__global__ void externCSecond(const int *in, int *out) {
  int t = threadIdx.x;
  Acc a = {in[t]};
  a.add(scaleCxx(in[t]));
  out[t * 3 + 1] = a.total;
  out[t * 3 + 2] = scaleC(t, -1);
}

#ifdef __cplusplus
}
#endif

extern "C" __global__ void externCThird(int *out) { out[threadIdx.x * 3 + 2] += scaleC(1, 1); }

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 7) % 13 - 6;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 3 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  externCFirst<<<1, T>>>(din, dout);
  externCSecond<<<1, T>>>(din, dout);
  externCThird<<<1, T>>>(dout);
  int h[T * 3];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = hin[t];
    int e[3] = {x * 2 + 3, x + x * 5 - 1, -t + 3 + 4};
    for (int k = 0; k < 3; k++)
      if (h[t * 3 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_extern_c_block: [%d][%d] = %d, expected %d\n", t, k, h[t * 3 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_extern_c_block\n");
  return 0;
}
