// Block tree reduction in shared memory (sum, min, max of ints) with __syncthreads, grid-stride loop,
// per-block partials combined on the host.
#include <cstdio>
#include <climits>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL reduce_shared: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define BS 256

__global__ void reduce(const int *in, int n, long long *sums, int *mins, int *maxs) {
  __shared__ long long s[BS];
  __shared__ int lo[BS], hi[BS];
  int t = threadIdx.x;
  long long acc = 0; int mn = INT_MAX, mx = INT_MIN;
  for (int i = blockIdx.x * BS + t; i < n; i += gridDim.x * BS) {
    int v = in[i];
    acc += v; mn = v < mn ? v : mn; mx = v > mx ? v : mx;
  }
  s[t] = acc; lo[t] = mn; hi[t] = mx;
  __syncthreads();
  for (int stride = BS / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s[t] += s[t + stride];
      if (lo[t + stride] < lo[t]) lo[t] = lo[t + stride];
      if (hi[t + stride] > hi[t]) hi[t] = hi[t + stride];
    }
    __syncthreads();
  }
  if (t == 0) { sums[blockIdx.x] = s[0]; mins[blockIdx.x] = lo[0]; maxs[blockIdx.x] = hi[0]; }
}

int main() {
  const int n = 1 << 20, blocks = 120;
  int *hin = new int[n];
  unsigned st = 7;
  long long want = 0; int wmin = INT_MAX, wmax = INT_MIN;
  for (int i = 0; i < n; i++) {
    st = st * 1664525u + 1013904223u; hin[i] = (int)(st >> 4) - (1 << 27);
    want += hin[i]; if (hin[i] < wmin) wmin = hin[i]; if (hin[i] > wmax) wmax = hin[i];
  }
  int *din, *dmin, *dmax, hmin[blocks], hmax[blocks]; long long *dsum, hsum[blocks];
  CK(cudaMalloc(&din, n * sizeof(int))); CK(cudaMalloc(&dsum, sizeof(hsum)));
  CK(cudaMalloc(&dmin, sizeof(hmin))); CK(cudaMalloc(&dmax, sizeof(hmax)));
  CK(cudaMemcpy(din, hin, n * sizeof(int), cudaMemcpyHostToDevice));
  reduce<<<blocks, BS>>>(din, n, dsum, dmin, dmax);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hsum, dsum, sizeof(hsum), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hmin, dmin, sizeof(hmin), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hmax, dmax, sizeof(hmax), cudaMemcpyDeviceToHost));
  long long got = 0; int gmin = INT_MAX, gmax = INT_MIN;
  for (int b = 0; b < blocks; b++) { got += hsum[b]; if (hmin[b] < gmin) gmin = hmin[b]; if (hmax[b] > gmax) gmax = hmax[b]; }
  if (got != want || gmin != wmin || gmax != wmax) {
    printf("FAIL reduce_shared: sum %lld/%lld min %d/%d max %d/%d\n", got, want, gmin, wmin, gmax, wmax); return 1;
  }
  printf("PASS reduce_shared\n");
  return 0;
}
