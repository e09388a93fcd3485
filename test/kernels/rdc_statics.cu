// nvcc-flags: -rdc=true
// -rdc=true: kernels and device variables of internal linkage (static, anonymous namespace) are named
// __nv_static_<len>_<module id>_<name> in the PTX, the names the host stub registers them under, so the host
// launches a static kernel and copies to and from static variables by those names. Device functions of
// external linkage are emitted whether this unit uses them or not: another unit may call them.
#include <cstdio>

static __device__ int counter;
namespace {
__device__ int offset = 7;
__device__ __noinline__ int addOffset(int x) { return x + offset; }
__global__ void readCounter(int *out) { *out = counter; }
}
__device__ int unusedHere(int x) { return x * 3; }
extern "C" __device__ int unusedC(int x) { return x - 2; }
__host__ __device__ int twice(int x) { return 2 * x; }
__device__ __noinline__ int used(int x) { return twice(x) + 1; }
static __global__ void bump(int *p) {
  atomicAdd(&counter, 1);
  p[threadIdx.x] = addOffset(used(threadIdx.x));
}

int main() {
  int *d;
  cudaMalloc(&d, 33 * sizeof(int));
  int hundred = 100;
  cudaMemcpyToSymbol(offset, &hundred, sizeof hundred);
  bump<<<1, 32>>>(d);
  readCounter<<<1, 1>>>(d + 32);
  int h[33];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int c = 0;
  cudaMemcpyFromSymbol(&c, counter, sizeof c);
  int bad = 0;
  for (int i = 0; i < 32; i++)
    if (h[i] != twice(i) + 1 + 100) { printf("FAIL rdc_statics: p[%d] = %d, want %d\n", i, h[i], twice(i) + 101); bad = 1; }
  if (h[32] != 32 || c != 32) { printf("FAIL rdc_statics: counter %d / %d, want 32\n", h[32], c); bad = 1; }
  if (bad) return 1;
  printf("PASS rdc_statics\n");
  return 0;
}
