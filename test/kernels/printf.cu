// Device printf (lowered to vprintf): integer, unsigned, 64-bit, hex, char, string, float (promoted to
// double) and pointer-free formats from selected threads. The runner checks stdout for these lines:
// EXPECT-OUTPUT: dev: thread 3 of 8 block 1
// EXPECT-OUTPUT: dev: mix -42 4294967295 123456789012 ff c str 2.500000
// EXPECT-OUTPUT: dev: no args
// EXPECT-OUTPUT: dev: percent 100%
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL printf: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(int *ret) {
  if (blockIdx.x == 1 && threadIdx.x == 3) printf("dev: thread %d of %d block %d\n", threadIdx.x, blockDim.x, blockIdx.x);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    float f = 2.5f;
    const char *s = "str";
    int r = printf("dev: mix %d %u %lld %x %c %s %f\n", -42, 0xffffffffu, 123456789012LL, 255, 'c', s, f);
    printf("dev: no args\n");
    printf("dev: percent %d%%\n", 100);
    *ret = r;
  }
}

int main() {
  int *d, h = 0;
  CK(cudaMalloc(&d, sizeof(int)));
  CK(cudaMemset(d, 0, sizeof(int)));
  kernel<<<2, 8>>>(d);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost));
  fflush(stdout);
  // device printf returns the number of arguments parsed (a positive count) on success
  if (h <= 0) { printf("FAIL printf: device printf returned %d\n", h); return 1; }
  printf("PASS printf\n");
  return 0;
}
