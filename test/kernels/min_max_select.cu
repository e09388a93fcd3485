// Integer minimum and maximum written as conditional expressions (the backend selects min/max for
// `a < b ? a : b` and its mirrored forms, as cicc does after LLVM turns them into smin/smax/umin/umax):
// signed and unsigned, 16, 32 and 64 bits, strict and non-strict comparisons, swapped arms, constants,
// a comparison that is also used on its own, and inputs at the edges of each range.
#include <cstdio>
#include <climits>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL min_max_select: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 16
#define NIN 64

__host__ __device__ void compute(unsigned long long a, unsigned long long b, long long *o) {
  int sa = (int)a, sb = (int)b;
  unsigned ua = (unsigned)a, ub = (unsigned)b;
  long long la = (long long)a, lb = (long long)b;
  short ha = (short)a, hb = (short)b;
  unsigned short va = (unsigned short)a, vb = (unsigned short)b;
  o[0] = sa < sb ? sa : sb;
  o[1] = sa > sb ? sa : sb;
  o[2] = sa <= sb ? sb : sa;            // arms swapped: a maximum
  o[3] = ua < ub ? ua : ub;
  o[4] = ua >= ub ? ua : ub;
  o[5] = la < lb ? la : lb;
  o[6] = (long long)(a > b ? a : b);
  o[7] = ha < hb ? ha : hb;
  o[8] = va > vb ? va : vb;
  o[9] = sa < 100 ? sa : 100;          // clamp to constants
  o[10] = sa > -100 ? sa : -100;
  o[11] = ua > 7u ? 7u : ua;
  bool lt = sa < sb;                   // the comparison also used by itself
  o[12] = lt ? sa : sb;
  o[13] = lt;
  o[14] = sa < sb ? sb : sa;           // mirrored: a maximum from a less-than
  o[15] = la > 0 ? la : 0;
}

__global__ void minmax(const unsigned long long *in, long long *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < NIN) compute(in[t], in[(t * 7 + 3) % NIN], out + t * NOUT);
}

int main() {
  unsigned long long hin[NIN];
  const unsigned long long edges[] = {0ull, 1ull, 2ull, 7ull, 8ull, 99ull, 100ull, 101ull, 0x7fffull, 0x8000ull, 0xffffull,
    0x7fffffffull, 0x80000000ull, 0xffffffffull, 0xffffffffffffff9cull, 0xffffff9bull,
    0xffffffffffffffffull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull};
  const int ne = sizeof(edges) / sizeof(edges[0]);
  unsigned long long x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < NIN; i++) {
    if (i < ne) hin[i] = edges[i];
    else { x ^= x << 13; x ^= x >> 7; x ^= x << 17; hin[i] = (i & 1) ? x : (x >> (i % 40)); }
  }
  unsigned long long *din; long long *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, NIN * NOUT * sizeof(long long)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  minmax<<<2, 32>>>(din, dout);
  CK(cudaGetLastError());
  static long long got[NIN * NOUT], want[NOUT];
  CK(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < NIN; i++) {
    compute(hin[i], hin[(i * 7 + 3) % NIN], want);
    for (int k = 0; k < NOUT; k++)
      if (got[i * NOUT + k] != want[k] && bad++ < 5) printf("FAIL min_max_select: input %d, result %d: %lld, expected %lld\n", i, k, got[i * NOUT + k], want[k]);
  }
  if (bad) return 1;
  printf("PASS min_max_select\n");
  return 0;
}
