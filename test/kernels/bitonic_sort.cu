// Bitonic sort of 1024 keys per block in shared memory (nested loops with shifting strides, XOR partner
// indices, conditional swaps), with a key/value pair payload; the host checks sortedness and the pairing.
#include <cstdio>
#include <algorithm>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL bitonic_sort: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NPB 1024

__global__ void bitonic(int *keys, int *vals) {
  __shared__ int k[NPB], v[NPB];
  int base = blockIdx.x * NPB;
  for (int i = threadIdx.x; i < NPB; i += blockDim.x) { k[i] = keys[base + i]; v[i] = vals[base + i]; }
  __syncthreads();
  for (int size = 2; size <= NPB; size <<= 1) {
    for (int stride = size >> 1; stride > 0; stride >>= 1) {
      for (int i = threadIdx.x; i < NPB; i += blockDim.x) {
        int j = i ^ stride;
        if (j > i) {
          bool up = (i & size) == 0;
          if ((k[i] > k[j]) == up) { int t = k[i]; k[i] = k[j]; k[j] = t; t = v[i]; v[i] = v[j]; v[j] = t; }
        }
      }
      __syncthreads();
    }
  }
  for (int i = threadIdx.x; i < NPB; i += blockDim.x) { keys[base + i] = k[i]; vals[base + i] = v[i]; }
}

int main() {
  const int blocks = 6, n = blocks * NPB;
  std::vector<int> hk(n), hv(n);
  unsigned s = 99;
  for (int i = 0; i < n; i++) { s = s * 1664525u + 1013904223u; hk[i] = (int)(s % 100000) - 50000; hv[i] = hk[i] * 3 + 1; }
  int *dk, *dv;
  CK(cudaMalloc(&dk, n * sizeof(int))); CK(cudaMalloc(&dv, n * sizeof(int)));
  CK(cudaMemcpy(dk, hk.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dv, hv.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  bitonic<<<blocks, 256>>>(dk, dv);
  CK(cudaGetLastError());
  std::vector<int> gk(n), gv(n);
  CK(cudaMemcpy(gk.data(), dk, n * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gv.data(), dv, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    std::vector<int> want(hk.begin() + b * NPB, hk.begin() + (b + 1) * NPB);
    std::sort(want.begin(), want.end());
    for (int i = 0; i < NPB; i++) {
      int g = b * NPB + i;
      if (gk[g] != want[i] || gv[g] != gk[g] * 3 + 1) { printf("FAIL bitonic_sort: block %d pos %d key %d val %d want key %d\n", b, i, gk[g], gv[g], want[i]); return 1; }
    }
  }
  printf("PASS bitonic_sort\n");
  return 0;
}
