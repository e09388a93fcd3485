// Every integer scalar type: bool, char, signed/unsigned char, short, unsigned short, int, unsigned,
// long, unsigned long, long long, unsigned long long: arithmetic, wrap-around of unsigned types, promotions.
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL scalar_int_types: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 24

__host__ __device__ void compute(int t, long long *o) {
  bool b = (t & 1) != 0;
  char c = (char)(t + 60);
  signed char sc = (signed char)(t - 100);
  unsigned char uc = (unsigned char)(t * 37);
  short s = (short)(t * 1000 - 20000);
  unsigned short us = (unsigned short)(t * 4099);
  int i = t * 123457 - 5000000;
  unsigned u = (unsigned)t * 2654435761u;
  long l = (long)t * 100000000L - 7;
  unsigned long ul = (unsigned long)t * 0x9E3779B97F4A7C15UL;
  long long ll = (long long)t * -3000000000LL;
  unsigned long long ull = 0xFFFFFFFFFFFFFFFFULL - (unsigned long long)t;
  o[0] = b; o[1] = !b + b * 2;
  o[2] = c; o[3] = (char)(c + 100);
  o[4] = sc; o[5] = (signed char)(sc * 3);
  o[6] = uc; o[7] = (unsigned char)(uc + 200);
  o[8] = s; o[9] = (short)(s * 7);
  o[10] = us; o[11] = (unsigned short)(us + 60000);
  o[12] = i; o[13] = i / 7 + i % 7;
  o[14] = u; o[15] = (unsigned)(u + 0x80000000u);
  o[16] = l; o[17] = l * 3 / 5;
  o[18] = (long long)ul; o[19] = (long long)(ul >> 7);
  o[20] = ll; o[21] = ll ^ (ll >> 13);
  o[22] = (long long)ull; o[23] = (long long)(ull * 3);
}

__global__ void kernel(long long *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) compute(t, out + t * NOUT);
}

int main() {
  const int n = 300;
  long long *d, *h = new long long[n * NOUT], *r = new long long[n * NOUT];
  CK(cudaMalloc(&d, n * NOUT * sizeof(long long)));
  kernel<<<(n + 127) / 128, 128>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * NOUT * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) compute(t, r + t * NOUT);
  for (int k = 0; k < n * NOUT; k++)
    if (h[k] != r[k]) { printf("FAIL scalar_int_types: t=%d slot=%d got %lld want %lld\n", k / NOUT, k % NOUT, h[k], r[k]); return 1; }
  printf("PASS scalar_int_types\n");
  return 0;
}
