// clock() and clock64(): per-thread readings are monotonic around a busy loop (32-bit clock compared
// modulo 2^32); the busy loop's result is checked so it is not optimised away.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL clock: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(int *ok, unsigned *work, int iters) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  long long a = clock64();
  clock_t c0 = clock();
  unsigned x = (unsigned)t + 1;
  for (int i = 0; i < iters; i++) x = x * 1664525u + 1013904223u;
  work[t] = x;
  clock_t c1 = clock();
  long long b = clock64();
  long long c = clock64();
  unsigned d32 = (unsigned)c1 - (unsigned)c0;
  ok[t] = (b >= a) && (c >= b) && (b - a < (1LL << 40)) && d32 < 0x80000000u;
}

int main() {
  const int n = 256, iters = 1000;
  int *dok, hok[n]; unsigned *dw, hw[n];
  CK(cudaMalloc(&dok, sizeof(hok))); CK(cudaMalloc(&dw, sizeof(hw)));
  kernel<<<2, 128>>>(dok, dw, iters);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hok, dok, sizeof(hok), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hw, dw, sizeof(hw), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    unsigned x = (unsigned)t + 1;
    for (int i = 0; i < iters; i++) x = x * 1664525u + 1013904223u;
    if (!hok[t] || hw[t] != x) { printf("FAIL clock: thread %d ok=%d work %u want %u\n", t, hok[t], hw[t], x); return 1; }
  }
  printf("PASS clock\n");
  return 0;
}
