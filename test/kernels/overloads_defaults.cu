// Overloaded device functions (by type and arity), default arguments, and the CUDA headers' integer
// min/max/abs overloads (int, unsigned, long long, unsigned long long) plus llabs-free abs(long long).
#include <cstdio>
#include <cstdlib>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL overloads_defaults: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__device__ int pick(int x) { return x + 1; }
__device__ int pick(unsigned x) { return (int)(x * 2); }
__device__ int pick(long long x) { return (int)(x - 3); }
__device__ int pick(double x) { return (int)(x * 10.0); }
__device__ int pick(int x, int y) { return x * y; }
__device__ int pick(const char *s) { int n = 0; while (s[n]) n++; return n; }
__device__ int scaled(int x, int mul = 2, int add = 5) { return x * mul + add; }

__global__ void kernel(int *out, long long *out64, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  int *o = out + t * 12;
  o[0] = pick(t); o[1] = pick((unsigned)t); o[2] = pick((long long)t); o[3] = pick(t * 0.5);
  o[4] = pick(t, 3); o[5] = pick("hello") + t;
  o[6] = scaled(t); o[7] = scaled(t, 3); o[8] = scaled(t, 4, -1);
  o[9] = min(t - 10, 20 - t) + max(t * 3, 50);
  o[10] = (int)(min((unsigned)t, 30u) + max(7u, (unsigned)t / 2));
  o[11] = abs(t - 32);
  out64[t * 3] = min((long long)t * -100000000LL, -5LL);
  out64[t * 3 + 1] = (long long)max((unsigned long long)t << 40, 1ULL << 44);
  out64[t * 3 + 2] = abs((long long)t * -3000000000LL);
}

int main() {
  const int n = 64;
  int h[n * 12]; long long h64[n * 3];
  int *d; long long *d64;
  CK(cudaMalloc(&d, sizeof(h))); CK(cudaMalloc(&d64, sizeof(h64)));
  kernel<<<1, n>>>(d, d64, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(h64, d64, sizeof(h64), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int a = t - 10 < 20 - t ? t - 10 : 20 - t, b = t * 3 > 50 ? t * 3 : 50;
    unsigned c = t < 30 ? t : 30, e = 7u > (unsigned)t / 2 ? 7u : (unsigned)t / 2;
    int w[12] = {t + 1, 2 * t, t - 3, (int)(t * 5), 3 * t, 5 + t, 2 * t + 5, 3 * t + 5, 4 * t - 1, a + b, (int)(c + e), abs(t - 32)};
    for (int k = 0; k < 12; k++)
      if (h[t * 12 + k] != w[k]) { printf("FAIL overloads_defaults: t=%d k=%d got %d want %d\n", t, k, h[t * 12 + k], w[k]); return 1; }
    long long m0 = t * -100000000LL < -5 ? t * -100000000LL : -5;
    unsigned long long m1 = ((unsigned long long)t << 40) > (1ULL << 44) ? (unsigned long long)t << 40 : 1ULL << 44;
    long long w64[3] = {m0, (long long)m1, (long long)t * 3000000000LL};
    for (int k = 0; k < 3; k++)
      if (h64[t * 3 + k] != w64[k]) { printf("FAIL overloads_defaults: t=%d k64=%d got %lld want %lld\n", t, k, h64[t * 3 + k], w64[k]); return 1; }
  }
  printf("PASS overloads_defaults\n");
  return 0;
}
