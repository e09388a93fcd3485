// Shifts (arithmetic vs logical, 32/64-bit, variable amounts) and division/modulo with negative operands
// for every integer width, including division by constants and by runtime values.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL shifts_divmod: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 22

__host__ __device__ void compute(int t, int k, long long *o) {
  int a = t * 7919 - 800000;
  int b = (k % 17) - 8; if (b == 0) b = 3;
  unsigned ua = (unsigned)a;
  long long la = (long long)a * 100003LL;
  int sh = k & 31;
  o[0] = a >> sh;              // arithmetic shift
  o[1] = ua >> sh;             // logical shift
  o[2] = (long long)(ua << sh);
  o[3] = la >> (k & 63);
  o[4] = (long long)((unsigned long long)la >> (k & 63));
  o[5] = (long long)((unsigned long long)la << (k & 63));
  o[6] = a / b; o[7] = a % b;
  o[8] = a / 7; o[9] = a % 7;
  o[10] = a / -16; o[11] = a % -16;
  o[12] = ua / (unsigned)(b + 20); o[13] = ua % 10u;
  o[14] = la / b; o[15] = la % b;
  o[16] = la / 1000; o[17] = la % 1000;
  short s = (short)(a & 0x7fff) - 16000;
  o[18] = s / (short)b; o[19] = s % (short)b;
  signed char c = (signed char)(t - 128);
  o[20] = c / 3 + c % 3;
  o[21] = (-a) / 2 + ((-a) >> 1);
}

__global__ void kernel(long long *out, int n, int k) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) compute(t, k + t, out + t * NOUT);
}

int main() {
  const int n = 256;
  long long *d, *h = new long long[n * NOUT], *r = new long long[n * NOUT];
  CK(cudaMalloc(&d, n * NOUT * sizeof(long long)));
  kernel<<<4, 64>>>(d, n, 5);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * NOUT * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) compute(t, 5 + t, r + t * NOUT);
  for (int k = 0; k < n * NOUT; k++)
    if (h[k] != r[k]) { printf("FAIL shifts_divmod: t=%d slot=%d got %lld want %lld\n", k / NOUT, k % NOUT, h[k], r[k]); return 1; }
  printf("PASS shifts_divmod\n");
  return 0;
}
