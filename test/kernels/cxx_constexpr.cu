// Compile-time evaluation and deduced types: constexpr functions with loops and branches used as
// array bounds, template arguments and static_assert conditions; constexpr variables; if constexpr;
// functions with deduced (auto) and trailing return types.
#include <cstdio>

__host__ __device__ constexpr int fib(int n) { int a = 0, b = 1; for (int i = 0; i < n; i++) { int t = a + b; a = b; b = t; } return a; }
__host__ __device__ constexpr int clampPow2(int v) { int p = 1; while (p < v) p *= 2; return p > 64 ? 64 : p; }
__host__ __device__ constexpr bool isOdd(int v) { return v % 2 != 0; }

constexpr int kTile = clampPow2(20);                 // 32
static_assert(fib(10) == 55, "fib at compile time");
static_assert(kTile == 32, "constexpr variable");

template <int N> struct Buf { int v[N]; __device__ int size() const { return N; } };

__device__ auto half(float x) { return x * 0.5f; }
__device__ auto twiceOf(int x) -> long long { return 2LL * x; }

template <int N> __device__ int parity() {
  if constexpr (isOdd(N)) return 1;
  else return 2;
}

__global__ void consteval_kernel(int *iout, float *fout) {
  int i = threadIdx.x;
  constexpr int n = fib(7);                          // 13
  int local[n];
  for (int k = 0; k < n; k++) local[k] = k;
  Buf<clampPow2(5)> b;                               // 8
  b.v[b.size() - 1] = i;
  static_assert(sizeof(local) == 13 * sizeof(int), "array bound from constexpr call");
  iout[i * 6 + 0] = local[n - 1] + n;                // 25
  iout[i * 6 + 1] = b.size() + b.v[7];               // 8 + i
  iout[i * 6 + 2] = kTile;
  iout[i * 6 + 3] = parity<3>() * 10 + parity<4>();  // 12
  iout[i * 6 + 4] = (int)twiceOf(i);                 // 2i
  iout[i * 6 + 5] = fib(i % 10);
  fout[i] = half((float)i);
}

int main() {
  const int T = 32;
  int *di; float *df;
  cudaMalloc(&di, T * 6 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  consteval_kernel<<<1, T>>>(di, df);
  int hi[T * 6]; float hf[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int fibs[10] = {0, 1, 1, 2, 3, 5, 8, 13, 21, 34};
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[6] = {25, 8 + i, 32, 12, 2 * i, fibs[i % 10]};
    for (int k = 0; k < 6; k++) if (hi[i * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_constexpr: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 6 + k], e[k]); }
    if (hf[i] != 0.5f * i) { if (bad++ < 5) printf("FAIL cxx_constexpr: f[%d] = %f\n", i, hf[i]); }
  }
  if (bad) return 1;
  printf("PASS cxx_constexpr\n");
  return 0;
}
