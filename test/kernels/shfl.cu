// Warp shuffles: __shfl_sync (broadcast and arbitrary source lane, with width), __shfl_up_sync,
// __shfl_down_sync, __shfl_xor_sync on int, unsigned, float, long long and double; a warp-level sum.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL shfl: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 9
#define FULL 0xffffffffu

__global__ void kernel(const int *in, long long *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int v = in[t];
  long long *o = out + t * NOUT;
  o[0] = __shfl_sync(FULL, v, 7);                       // broadcast lane 7
  o[1] = __shfl_sync(FULL, v, (lane * 5 + 3) & 31);     // arbitrary permutation
  o[2] = __shfl_sync(FULL, v, lane + 1, 8);             // width 8: wraps inside each group of 8
  o[3] = __shfl_up_sync(FULL, v, 3);                    // lanes < 3 keep their own value
  o[4] = __shfl_down_sync(FULL, (unsigned)v * 3u, 5);   // lanes > 26 keep their own value
  o[5] = (long long)(__shfl_xor_sync(FULL, (float)v * 0.5f, 1) * 4.0f);
  o[6] = __shfl_xor_sync(FULL, (long long)v << 20, 16);
  o[7] = (long long)__shfl_down_sync(FULL, (double)v * 0.25, 2, 16);
  int s = v;
  for (int off = 16; off > 0; off >>= 1) s += __shfl_xor_sync(FULL, s, off);
  o[8] = s;
}

int main() {
  const int n = 256;
  int hin[n]; long long *hout = new long long[n * NOUT];
  for (int i = 0; i < n; i++) hin[i] = (i * 7919) % 2001 - 1000;
  int *din; long long *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, n * NOUT * sizeof(long long)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<2, 128>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, n * NOUT * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int lane = t & 31, base = t - lane;
    const int *w = hin + base;
    long long sum = 0; for (int k = 0; k < 32; k++) sum += w[k];
    int g8 = lane & ~7, l8 = lane & 7, g16 = lane & ~15, l16 = lane & 15;
    long long want[NOUT] = {
      w[7], w[(lane * 5 + 3) & 31], w[g8 + ((l8 + 1) & 7)], lane < 3 ? w[lane] : w[lane - 3],
      (long long)(unsigned)((unsigned)(lane > 26 ? w[lane] : w[lane + 5]) * 3u), (long long)w[lane ^ 1] * 2,
      (long long)w[lane ^ 16] << 20, (long long)((double)(l16 + 2 < 16 ? w[g16 + l16 + 2] : w[lane]) * 0.25), sum};
    for (int k = 0; k < NOUT; k++)
      if (hout[t * NOUT + k] != want[k]) { printf("FAIL shfl: t=%d k=%d got %lld want %lld\n", t, k, hout[t * NOUT + k], want[k]); return 1; }
  }
  printf("PASS shfl\n");
  return 0;
}
