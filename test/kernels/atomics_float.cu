// atomicAdd on float and double (global and shared) with integer-valued or dyadic operands so that every
// partial sum is exact and the result is independent of the order; atomicExch on float.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL atomics_float: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(float *f, double *d, int n) {
  __shared__ float sf;
  __shared__ double sd;
  if (threadIdx.x == 0) { sf = 0.0f; sd = 0.0; }
  __syncthreads();
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    atomicAdd(&f[0], (float)(t % 100));          // sums stay below 2^24: exact
    atomicAdd(&f[1], (t & 1) ? 0.5f : -0.25f);
    atomicExch(&f[2], 3.75f);
    atomicAdd(&d[0], (double)t * 1024.0);
    atomicAdd(&d[1], (t % 7) * 0.125);
    atomicAdd(&sf, 1.0f);
    atomicAdd(&sd, (double)t);
  }
  __syncthreads();
  if (threadIdx.x == 0) { atomicAdd(&f[3], sf); atomicAdd(&d[2], sd); }
}

int main() {
  const int n = 20000;
  float hf[4] = {0, 0, 0, 0}; double hd[3] = {0.5, 0, 0};
  float *df; double *dd;
  CK(cudaMalloc(&df, sizeof(hf))); CK(cudaMalloc(&dd, sizeof(hd)));
  CK(cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice));
  kernel<<<(n + 255) / 256, 256>>>(df, dd, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost));
  double wf0 = 0, wf1 = 0, wd0 = 0.5, wd1 = 0, wd2 = 0;
  for (int t = 0; t < n; t++) { wf0 += t % 100; wf1 += (t & 1) ? 0.5 : -0.25; wd0 += t * 1024.0; wd1 += (t % 7) * 0.125; wd2 += t; }
  if (hf[0] != (float)wf0 || hf[1] != (float)wf1 || hf[2] != 3.75f || hf[3] != (float)n) {
    printf("FAIL atomics_float: float results %f %f %f %f want %f %f 3.75 %d\n", hf[0], hf[1], hf[2], hf[3], wf0, wf1, n); return 1;
  }
  if (hd[0] != wd0 || hd[1] != wd1 || hd[2] != wd2) {
    printf("FAIL atomics_float: double results %.17g %.17g %.17g want %.17g %.17g %.17g\n", hd[0], hd[1], hd[2], wd0, wd1, wd2); return 1;
  }
  printf("PASS atomics_float\n");
  return 0;
}
