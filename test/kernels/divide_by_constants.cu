// Division and remainder by constants (the backend replaces them with multiplications by a magic
// reciprocal and shifts): unsigned and signed, 32 and 64 bits, powers of two (positive and negative),
// divisors above half the range, INT_MIN, and dividends at the edges (0, -1, INT_MIN, INT_MAX, UINT_MAX).
#include <cstdio>
#include <climits>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL divide_by_constants: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 40
#define NIN 64

__host__ __device__ void compute(unsigned long long bits, long long *o) {
  unsigned u = (unsigned)bits;
  int s = (int)bits;
  unsigned long long lu = bits;
  long long ls = (long long)bits;
  o[0] = u / 3u; o[1] = u % 3u; o[2] = u / 7u; o[3] = u % 7u; o[4] = u / 10u; o[5] = u % 10u;
  o[6] = u / 64u; o[7] = u % 64u; o[8] = u / 0x80000001u; o[9] = u % 0xFFFFFFFFu; o[10] = u / 641u; o[11] = u % 1000000007u;
  o[12] = s / 3; o[13] = s % 3; o[14] = s / -7; o[15] = s % -7; o[16] = s / 100; o[17] = s % 100;
  o[18] = s / 16; o[19] = s % 16; o[20] = s / -8; o[21] = s % -8; o[22] = s / INT_MIN; o[23] = s % INT_MIN;
  o[24] = s / 1000000007; o[25] = s % 65537;
  o[26] = (long long)(lu / 10ull); o[27] = (long long)(lu % 10ull); o[28] = (long long)(lu / 7ull); o[29] = (long long)(lu % 1000000007ull);
  o[30] = (long long)(lu / 0x8000000000000001ull); o[31] = (long long)(lu >> 3) / 4096;
  o[32] = ls / 10; o[33] = ls % 10; o[34] = ls / -3; o[35] = ls % -3; o[36] = ls / 1024; o[37] = ls % -1024;
  o[38] = ls / 6700417; o[39] = ls % 274177;
}

__global__ void divide(const unsigned long long *in, long long *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < NIN) compute(in[t], out + t * NOUT);
}

int main() {
  unsigned long long hin[NIN];
  const unsigned long long edges[] = {0ull, 1ull, 2ull, 3ull, 6ull, 7ull, 9ull, 10ull, 99ull, 100ull, 0x7fffffffull, 0x80000000ull,
    0xffffffffull, 0xfffffffeull, 0x80000001ull, 0xffffffff80000000ull, 0xffffffffffffffffull, 0x7fffffffffffffffull,
    0x8000000000000000ull, 0x8000000000000001ull, 0xfffffffffffffff9ull, 0xffffffffffffff9cull};
  const int ne = sizeof(edges) / sizeof(edges[0]);
  unsigned long long x = 0x9e3779b97f4a7c15ull;
  for (int i = 0; i < NIN; i++) {
    if (i < ne) hin[i] = edges[i];
    else { x ^= x << 13; x ^= x >> 7; x ^= x << 17; hin[i] = (i & 1) ? x : (x >> (i % 40)); }
  }
  unsigned long long *din; long long *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, NIN * NOUT * sizeof(long long)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  divide<<<2, 32>>>(din, dout);
  CK(cudaGetLastError());
  static long long got[NIN * NOUT], want[NOUT];
  CK(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < NIN; i++) {
    compute(hin[i], want);
    for (int k = 0; k < NOUT; k++)
      if (got[i * NOUT + k] != want[k] && bad++ < 5) printf("FAIL divide_by_constants: input %llx, result %d: %lld, expected %lld\n", hin[i], k, got[i * NOUT + k], want[k]);
  }
  if (bad) return 1;
  printf("PASS divide_by_constants\n");
  return 0;
}
