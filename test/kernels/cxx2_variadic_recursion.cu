// Variadic function templates by recursion: a base case plus `T first, Rest... rest`, sizeof... of a
// template and a function parameter pack, packs of mixed types, and overloads where the non-variadic
// template is more specialised.
#include <cstdio>

template <typename T> __device__ T sumOf(T v) { return v; }
template <typename T, typename... Rest> __device__ T sumOf(T first, Rest... rest) { return first + sumOf(rest...); }

template <typename T> __device__ T minOf(T v) { return v; }
template <typename T, typename... Rest> __device__ __noinline__ T minOf(T first, Rest... rest) { T m = minOf(rest...); return first < m ? first : m; }

template <typename... Ts> __device__ int countArgs(Ts... xs) { return sizeof...(Ts) * 10 + sizeof...(xs); }

__device__ int weigh() { return 0; }
template <typename T, typename... Rest> __device__ int weigh(T first, Rest... rest) { return (int)sizeof(T) + 10 * weigh(rest...); }

template <typename T> __device__ void fillFrom(T *dst, int i) {}
template <typename T, typename U, typename... Rest> __device__ void fillFrom(T *dst, int i, U first, Rest... rest) { dst[i] = static_cast<T>(first); fillFrom<T>(dst, i + 1, rest...); }

__global__ void variadicRecursion(const int *in, int *io, float *fo) {
  int i = threadIdx.x;
  int a = in[i], b = in[(i + 1) % 32], c = in[(i + 2) % 32];
  io[i * 8 + 0] = sumOf(a, b, c, 4);
  io[i * 8 + 1] = minOf(a, b, c);
  io[i * 8 + 2] = countArgs(a, 1.0f, 'x', 2.0) + countArgs();
  io[i * 8 + 3] = weigh('a', (short)1, 1, 1.0);          // 1 + 10*(2 + 10*(4 + 10*8))
  io[i * 8 + 4] = minOf(a, 5);
  io[i * 8 + 5] = sumOf(a);
  fillFrom(io + i * 8 + 6, 0, 2.75f, b);                  // 2, b
  fo[i] = sumOf(0.5f * a, 0.25f, 1.0f);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 11) % 19 - 9;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 8 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  variadicRecursion<<<1, T>>>(din, di, df);
  int hi[T * 8]; float hf[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int a = hin[i], b = hin[(i + 1) % 32], c = hin[(i + 2) % 32];
    int m = a < b ? a : b; m = m < c ? m : c;
    int e[8] = {a + b + c + 4, m, 44, 1 + 10 * (2 + 10 * (4 + 10 * 8)), a < 5 ? a : 5, a, 2, b};
    for (int k = 0; k < 8; k++) if (hi[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_variadic_recursion: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 8 + k], e[k]); }
    float ef = 0.5f * a + (0.25f + 1.0f);
    if (hf[i] != ef) { if (bad++ < 5) printf("FAIL cxx2_variadic_recursion: f[%d] = %f, expected %f\n", i, hf[i], ef); }
  }
  if (bad) return 1;
  printf("PASS cxx2_variadic_recursion\n");
  return 0;
}
