// Device functions with different linkage and inlining: static, __forceinline__, __noinline__,
// __device__ functions calling each other, functions with pointer out-parameters and void return,
// a __host__ __device__ function used by both sides.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL device_functions: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

static __device__ int sq(int x) { return x * x; }
__device__ __forceinline__ int cube(int x) { return sq(x) * x; }
__device__ __noinline__ int poly(int x, int a, int b, int c) { return a * sq(x) + b * x + c; }
__device__ __noinline__ void divmod(int a, int b, int *q, int *r) { *q = a / b; *r = a % b; }
static __device__ __noinline__ long long mix(long long a, unsigned b, char c, double d) {
  return a * 31 + b + c + (long long)(d * 4.0);
}
__host__ __device__ inline int both(int x) { return (x << 3) - x; }
__device__ void noop(void) {}

__global__ void kernel(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int q, r;
  divmod(t * 13 - 200, 7, &q, &r);
  noop();
  out[t * 5 + 0] = cube(t - 20);
  out[t * 5 + 1] = poly(t, 3, -5, 7);
  out[t * 5 + 2] = q * 10 + r;
  out[t * 5 + 3] = (int)mix(t, 0xffffu, (char)t, t * 0.25);
  out[t * 5 + 4] = both(t);
}

int main() {
  const int n = 200;
  int *d, h[n * 5];
  CK(cudaMalloc(&d, sizeof(h)));
  kernel<<<4, 64>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int x = t - 20, a = t * 13 - 200;
    int w[5] = {x * x * x, 3 * t * t - 5 * t + 7, (a / 7) * 10 + a % 7,
                (int)((long long)t * 31 + 0xffffu + (char)t + (long long)(t * 0.25 * 4.0)), 7 * t};
    for (int k = 0; k < 5; k++)
      if (h[t * 5 + k] != w[k]) { printf("FAIL device_functions: t=%d k=%d got %d want %d\n", t, k, h[t * 5 + k], w[k]); return 1; }
  }
  printf("PASS device_functions\n");
  return 0;
}
