// Small variadic utilities: min/max/clamp over any number of arguments with a common type, all/any/none
// predicates applied to a pack with folds and generic lambdas, a variadic "hash" combining mixed types,
// and a pack of arrays indexed together.
#include <cstdio>

template <typename T> __device__ T vmin(T a) { return a; }
template <typename T, typename... Ts> __device__ T vmin(T a, Ts... rest) { T m = vmin(rest...); return a < m ? a : m; }
template <typename T, typename... Ts> __device__ T vmax(T a, Ts... rest) { T m = a; ((m = rest > m ? rest : m), ...); return m; }
template <typename P, typename... Ts> __device__ bool allOf(P p, Ts... xs) { return (p(xs) && ...); }
template <typename P, typename... Ts> __device__ bool anyOf(P p, Ts... xs) { return (p(xs) || ...); }
template <typename P, typename... Ts> __device__ int countOf(P p, Ts... xs) { return (0 + ... + (p(xs) ? 1 : 0)); }
template <typename... Ts> __device__ unsigned hashAll(Ts... xs) { unsigned h = 2166136261u; ((h = (h ^ (unsigned)xs) * 16777619u), ...); return h; }
template <typename... Arrs> __device__ int sumAt(int i, const Arrs *... arrs) { return (0 + ... + (int)arrs[i]); }

__global__ void variadicUtils(const int *in, int *io) {
  int t = threadIdx.x;
  int a = in[t], b = in[(t + 5) % 32], c = in[(t + 11) % 32];
  io[t * 7 + 0] = vmin(a, b, c, 3);
  io[t * 7 + 1] = vmax(a, b, c);
  auto positive = [](auto x) { return x > 0; };
  io[t * 7 + 2] = allOf(positive, a, b, c) + 2 * anyOf(positive, a, b, c) + 4 * allOf(positive);
  io[t * 7 + 3] = countOf([t](auto x) { return x > t % 5; }, a, b, c, 1.5, 'a');
  io[t * 7 + 4] = (int)(hashAll(a, b, (short)c, 'z') & 0x7fffffff);
  short s[3] = {1, 2, 3};
  char ch[3] = {10, 20, 30};
  int iv[3] = {a, b, c};
  io[t * 7 + 5] = sumAt(t % 3, s, ch, iv);
  io[t * 7 + 6] = vmin(2.5, (double)a) < 0 ? -1 : 1;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 9) % 19 - 9;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 7 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  variadicUtils<<<1, T>>>(din, di);
  int hi[T * 7];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int a = hin[t], b = hin[(t + 5) % 32], c = hin[(t + 11) % 32];
    int mn = a; if (b < mn) mn = b; if (c < mn) mn = c; if (3 < mn) mn = 3;
    int mx = a; if (b > mx) mx = b; if (c > mx) mx = c;
    int all = a > 0 && b > 0 && c > 0, any = a > 0 || b > 0 || c > 0;
    int th = t % 5, cnt = (a > th) + (b > th) + (c > th) + (1.5 > th) + ('a' > th);
    unsigned h = 2166136261u;
    h = (h ^ (unsigned)a) * 16777619u; h = (h ^ (unsigned)b) * 16777619u; h = (h ^ (unsigned)(short)c) * 16777619u; h = (h ^ (unsigned)'z') * 16777619u;
    int iv[3] = {a, b, c};
    int e[7] = {mn, mx, all + 2 * any + 4, cnt, (int)(h & 0x7fffffff), (t % 3 + 1) + (t % 3 + 1) * 10 + iv[t % 3], (a < 2.5 ? a : 2.5) < 0 ? -1 : 1};
    for (int k = 0; k < 7; k++) if (hi[t * 7 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_variadic_utils: [%d][%d] = %d, expected %d\n", t, k, hi[t * 7 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_variadic_utils\n");
  return 0;
}
