// The usual arithmetic conversions: signed/unsigned mixing, integer promotion of small types,
// truncation, sign/zero extension, float<->int (truncation toward zero), int->float rounding, double<->float.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL conversions: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 20

__host__ __device__ void compute(int t, long long *o) {
  int i = t - 50;
  unsigned u = 3u;
  o[0] = (i < u);                          // i converted to unsigned
  o[1] = i + u;                            // unsigned result
  o[2] = (long long)(i * 1LL + u);         // long long wins
  unsigned char uc = (unsigned char)(200 + t);
  signed char sc = (signed char)(200 + t);
  o[3] = uc + sc;                          // both promoted to int
  o[4] = (unsigned short)(t * 1000) >> 3;
  o[5] = (short)(t * 1000) >> 3;
  o[6] = (int)(float)(i * 0.75f);           // float->int truncates toward 0
  o[7] = (int)(-2.75f + (float)(t % 5));
  o[8] = (long long)((double)i * 1e6 + 0.5);
  o[9] = (unsigned)(float)(t * 3 + 1);
  float big = (float)(16777216 + 2 * t + 1);  // int->float rounds to even
  o[10] = (long long)big;
  double dd = (double)(0x7fffffffLL + t);
  o[11] = (long long)dd;
  o[12] = (long long)(float)dd;
  o[13] = (int)(char)(t * 7);               // char truncation, sign extension
  o[14] = (unsigned)(unsigned char)(-t);
  unsigned long long ull = (unsigned long long)(long long)i; // sign extension into 64 bits
  o[15] = (long long)(ull >> 32);
  o[16] = (long long)(unsigned)i;            // zero extension
  o[17] = (i / (int)u) + (i / u == 0);
  float f = (float)t / 4.0f;
  double d = f;                              // float->double exact
  o[18] = (long long)(d * 1024.0);
  o[19] = (bool)(t % 3) + (bool)f;
}

__global__ void kernel(long long *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) compute(t, out + t * NOUT);
}

int main() {
  const int n = 200;
  long long *d, *h = new long long[n * NOUT], *r = new long long[n * NOUT];
  CK(cudaMalloc(&d, n * NOUT * sizeof(long long)));
  kernel<<<2, 128>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * NOUT * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) compute(t, r + t * NOUT);
  for (int k = 0; k < n * NOUT; k++)
    if (h[k] != r[k]) { printf("FAIL conversions: t=%d slot=%d got %lld want %lld\n", k / NOUT, k % NOUT, h[k], r[k]); return 1; }
  printf("PASS conversions\n");
  return 0;
}
