// Structs, typedefs and enums defined in host code and used by kernels; structs passed by value as kernel
// parameters (with padding, nested arrays and doubles), struct parameters to device functions.
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL struct_byvalue: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

typedef unsigned int u32;
enum Mode { MODE_ADD = 1, MODE_MUL = 2, MODE_XOR = 7 };
struct Coeffs { int a[4]; double scale; char op; };
typedef struct Params { Mode mode; u32 seed; short bias; Coeffs c; long long offset; } Params;

static int host_only_helper(const Params &p) { return p.c.a[0] + p.bias; }   // host code using the same types

__device__ long long apply(Coeffs c, int x) {
  long long r = 0;
  for (int k = 0; k < 4; k++) r = r * x + c.a[k];
  return (long long)(r * c.scale) + c.op;
}

__global__ void kernel(Params p, Coeffs extra, long long *out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= n) return;
  long long v = apply(p.c, i) + apply(extra, -i);
  switch (p.mode) {
    case MODE_ADD: v += p.seed; break;
    case MODE_MUL: v *= p.seed; break;
    case MODE_XOR: v ^= p.seed; break;
  }
  out[i] = v + p.bias + p.offset;
}

static long long host_apply(Coeffs c, int x) {
  long long r = 0;
  for (int k = 0; k < 4; k++) r = r * x + c.a[k];
  return (long long)(r * c.scale) + c.op;
}

int main() {
  const int n = 150;
  Params p;
  memset(&p, 0, sizeof(p));
  p.mode = MODE_XOR; p.seed = 0xDEADBEEFu; p.bias = -300; p.offset = 1LL << 40;
  p.c.a[0] = 3; p.c.a[1] = -2; p.c.a[2] = 7; p.c.a[3] = 11; p.c.scale = 0.5; p.c.op = 'x';
  Coeffs e = {{1, 0, -1, 5}, 2.0, 3};
  long long *d, h[n];
  CK(cudaMalloc(&d, sizeof(h)));
  kernel<<<3, 64>>>(p, e, d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    long long v = (host_apply(p.c, i) + host_apply(e, -i)) ^ p.seed;
    v += p.bias + p.offset;
    if (h[i] != v) { printf("FAIL struct_byvalue: out[%d] = %lld, want %lld\n", i, h[i], v); return 1; }
  }
  if (host_only_helper(p) != -297) { printf("FAIL struct_byvalue: host helper\n"); return 1; }
  printf("PASS struct_byvalue\n");
  return 0;
}
