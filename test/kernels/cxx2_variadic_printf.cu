// Variadic templates around printf: a logger forwarding its pack to printf after a prefix, printing each
// element of a pack with a comma fold and an overloaded per-type formatter, and counting the arguments.
#include <cstdio>

__device__ void show(int v) { printf("i%d ", v); }
__device__ void show(float v) { printf("f%.2f ", v); }
__device__ void show(const char *s) { printf("s%s ", s); }

template <typename... Ts> __device__ void showAll(Ts... xs) { (show(xs), ...); printf("(%d)\n", (int)sizeof...(xs)); }
template <typename... Ts> __device__ void logf(int level, const char *fmt, Ts... args) {
  if (level < 2) return;
  printf("[L%d] ", level);
  printf(fmt, args...);
}

__global__ void variadicPrintf(const int *in) {
  int t = threadIdx.x;
  if (t >= 4) return;
  int v = in[t];
  logf(3, "thread %d value %d\n", t, v);
  logf(1, "hidden %d\n", t);
  logf(2, "no args\n");
  if (t == 0) showAll(1, 2.5f, "x", v);
  if (t == 1) showAll();
}

int main() {
  int hin[4] = {10, -3, 7, 42};
  int *din;
  cudaMalloc(&din, sizeof(hin));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  variadicPrintf<<<1, 32>>>(din);
  if (cudaDeviceSynchronize() != cudaSuccess) { printf("FAIL cxx2_variadic_printf: launch\n"); return 1; }
  printf("PASS cxx2_variadic_printf\n");
  return 0;
}
