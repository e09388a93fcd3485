// Fold expressions over function parameter packs: unary left and right folds, binary folds with an
// initial value, && / || / comma folds (also over empty packs), and folds of calls and comparisons.
#include <cstdio>

template <typename... Ts> __device__ int sumR(Ts... xs) { return (xs + ...); }
template <typename... Ts> __device__ int subL(Ts... xs) { return (... - xs); }
template <typename... Ts> __device__ int subR(Ts... xs) { return (xs - ...); }
template <typename... Ts> __device__ int subInitL(int init, Ts... xs) { return (init - ... - xs); }
template <typename... Ts> __device__ int subInitR(int init, Ts... xs) { return (xs - ... - init); }
template <typename... Ts> __device__ bool allPositive(Ts... xs) { return (... && (xs > 0)); }
template <typename... Ts> __device__ bool anyZero(Ts... xs) { return ((xs == 0) || ...); }
template <typename... Ts> __device__ unsigned orBits(Ts... xs) { return (0u | ... | (1u << xs)); }
template <typename... Ts> __device__ __noinline__ float product(Ts... xs) { return (xs * ... * 1.0f); }
template <typename... Ts> __device__ void storeAll(int *dst, Ts... xs) { int k = 0; ((dst[k++] = xs * 2), ...); }
__device__ int sq(int v) { return v * v; }
template <typename... Ts> __device__ int sumSquares(Ts... xs) { return (sq(xs) + ... + 0); }

__global__ void foldExpressions(const int *in, int *io, float *fo) {
  int i = threadIdx.x;
  int a = in[i], b = in[(i + 3) % 32], c = in[(i + 7) % 32];
  io[i * 12 + 0] = sumR(a, b, c);
  io[i * 12 + 1] = subL(a, b, c);            // (a - b) - c
  io[i * 12 + 2] = subR(a, b, c);            // a - (b - c)
  io[i * 12 + 3] = subInitL(100, a, b);      // (100 - a) - b
  io[i * 12 + 4] = subInitR(100, a, b);      // a - (b - 100)
  io[i * 12 + 5] = allPositive(a, b, c) + 2 * allPositive() + 4 * anyZero(a, b) + 8 * anyZero();
  io[i * 12 + 6] = (int)orBits(i % 5, (i + 2) % 7, 3);
  io[i * 12 + 7] = sumSquares(a, b, c, 2);
  storeAll(io + i * 12 + 8, a, b, c, 7);
  fo[i] = product(0.5f * a, 2.0f, (float)c) + product();
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 7) % 13 - 5;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 12 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  foldExpressions<<<1, T>>>(din, di, df);
  int hi[T * 12]; float hf[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int a = hin[i], b = hin[(i + 3) % 32], c = hin[(i + 7) % 32];
    int all = a > 0 && b > 0 && c > 0, any = a == 0 || b == 0;
    int e[12] = {a + b + c, a - b - c, a - (b - c), 100 - a - b, a - (b - 100), all + 2 + 4 * any,
                 (int)((1u << (i % 5)) | (1u << ((i + 2) % 7)) | (1u << 3)), a * a + b * b + c * c + 4, 2 * a, 2 * b, 2 * c, 14};
    for (int k = 0; k < 12; k++) if (hi[i * 12 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_fold_expressions: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 12 + k], e[k]); }
    float ef = 0.5f * a * (2.0f * ((float)c * 1.0f)) + 1.0f;
    if (hf[i] != ef) { if (bad++ < 5) printf("FAIL cxx2_fold_expressions: f[%d] = %f, expected %f\n", i, hf[i], ef); }
  }
  if (bad) return 1;
  printf("PASS cxx2_fold_expressions\n");
  return 0;
}
