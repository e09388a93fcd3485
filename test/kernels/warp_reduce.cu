// Two-level reduction with warp shuffles: __shfl_down_sync within each warp, warp totals through shared
// memory, a final warp reduces them, one atomicAdd per block; unsigned long long and int max in one pass.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL warp_reduce: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define FULL 0xffffffffu

__device__ __forceinline__ unsigned long long warp_sum(unsigned long long v) {
  for (int off = warpSize / 2; off > 0; off >>= 1) v += __shfl_down_sync(FULL, v, off);
  return v;
}
__device__ __forceinline__ int warp_max(int v) {
  for (int off = 16; off > 0; off >>= 1) { int o = __shfl_xor_sync(FULL, v, off); v = o > v ? o : v; }
  return v;
}

__global__ void reduce(const unsigned *in, int n, unsigned long long *sum, int *mx) {
  __shared__ unsigned long long ws[32];
  __shared__ int wm[32];
  int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned long long s = 0; int m = -1;
  for (int i = t; i < n; i += gridDim.x * blockDim.x) { s += in[i]; m = max(m, (int)(in[i] >> 1)); }
  s = warp_sum(s); m = warp_max(m);
  if (lane == 0) { ws[warp] = s; wm[warp] = m; }
  __syncthreads();
  int nw = blockDim.x / 32;
  if (warp == 0) {
    s = lane < nw ? ws[lane] : 0; m = lane < nw ? wm[lane] : -1;
    s = warp_sum(s); m = warp_max(m);
    if (lane == 0) { atomicAdd(sum, s); atomicMax(mx, m); }
  }
}

int main() {
  const int n = 1 << 20;
  unsigned *h = new unsigned[n];
  unsigned long long want = 0; int wmax = -1;
  unsigned st = 3;
  for (int i = 0; i < n; i++) { st ^= st << 13; st ^= st >> 17; st ^= st << 5; h[i] = st; want += st; if ((int)(st >> 1) > wmax) wmax = (int)(st >> 1); }
  unsigned *d; unsigned long long *dsum, gsum; int *dmax, gmax;
  CK(cudaMalloc(&d, n * sizeof(unsigned))); CK(cudaMalloc(&dsum, sizeof(gsum))); CK(cudaMalloc(&dmax, sizeof(gmax)));
  CK(cudaMemcpy(d, h, n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CK(cudaMemset(dsum, 0, sizeof(gsum))); CK(cudaMemset(dmax, 0xff, sizeof(gmax)));
  reduce<<<96, 320>>>(d, n, dsum, dmax);
  CK(cudaGetLastError());
  CK(cudaMemcpy(&gsum, dsum, sizeof(gsum), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&gmax, dmax, sizeof(gmax), cudaMemcpyDeviceToHost));
  if (gsum != want || gmax != wmax) { printf("FAIL warp_reduce: sum %llu want %llu, max %d want %d\n", gsum, want, gmax, wmax); return 1; }
  printf("PASS warp_reduce\n");
  return 0;
}
