// Algorithms as function templates taking lambdas: transform, reduce with an initial value, count_if,
// find_if returning an index, a stable partition into a scratch array, and a generic accumulate whose
// callable is a generic lambda capturing local arrays by reference.
#include <cstdio>

template <typename T, typename F> __device__ void transform(const T *in, T *out, int n, F f) { for (int i = 0; i < n; i++) out[i] = f(in[i]); }
template <typename T, typename A, typename F> __device__ A reduce(const T *p, int n, A init, F f) { for (int i = 0; i < n; i++) init = f(init, p[i]); return init; }
template <typename T, typename P> __device__ int countIf(const T *p, int n, P pred) { int c = 0; for (int i = 0; i < n; i++) c += pred(p[i]) ? 1 : 0; return c; }
template <typename T, typename P> __device__ int findIf(const T *p, int n, P pred) { for (int i = 0; i < n; i++) if (pred(p[i])) return i; return -1; }
template <typename T, typename P> __device__ int partition(T *p, int n, T *scratch, P pred) {
  int k = 0;
  for (int i = 0; i < n; i++) if (pred(p[i])) scratch[k++] = p[i];
  int m = k;
  for (int i = 0; i < n; i++) if (!pred(p[i])) scratch[m++] = p[i];
  for (int i = 0; i < n; i++) p[i] = scratch[i];
  return k;
}

__global__ void lambdaAlgorithms(const int *in, int *io) {
  int t = threadIdx.x;
  int v[8], w[8], tmp[8];
  for (int i = 0; i < 8; i++) v[i] = in[(t + i) % 32];
  int shift = t % 4;
  transform(v, w, 8, [shift](int x) { return (x << shift) - 1; });
  io[t * 6 + 0] = reduce(w, 8, 0, [](int a, int b) { return a + b; });
  io[t * 6 + 1] = reduce(v, 8, -1000, [](int a, int b) { return a > b ? a : b; });
  int limit = in[t];
  io[t * 6 + 2] = countIf(v, 8, [&limit](int x) { return x > limit; });
  io[t * 6 + 3] = findIf(v, 8, [=](int x) { return x == limit + 1; });
  int evens = partition(v, 8, tmp, [](int x) { return (x & 1) == 0; });
  io[t * 6 + 4] = evens * 1000 + v[0] * 10 + (v[7] & 7);
  long long weighted = 0;
  auto acc = [&](auto x, auto k) { weighted += (long long)x * (k + 1); };
  for (int i = 0; i < 8; i++) acc(w[i], i);
  io[t * 6 + 5] = (int)(weighted % 100000);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 11) % 17 - 8;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  lambdaAlgorithms<<<1, T>>>(din, di);
  int hi[T * 6];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v[8], w[8], tmp[8];
    for (int i = 0; i < 8; i++) v[i] = hin[(t + i) % 32];
    int shift = t % 4, limit = hin[t];
    int sum = 0, mx = -1000, cnt = 0, found = -1;
    for (int i = 0; i < 8; i++) { w[i] = (v[i] << shift) - 1; sum += w[i]; if (v[i] > mx) mx = v[i]; if (v[i] > limit) cnt++; if (found < 0 && v[i] == limit + 1) found = i; }
    int k = 0;
    for (int i = 0; i < 8; i++) if ((v[i] & 1) == 0) tmp[k++] = v[i];
    int m = k;
    for (int i = 0; i < 8; i++) if ((v[i] & 1) != 0) tmp[m++] = v[i];
    long long wsum = 0;
    for (int i = 0; i < 8; i++) wsum += (long long)w[i] * (i + 1);
    int e[6] = {sum, mx, cnt, found, k * 1000 + tmp[0] * 10 + (tmp[7] & 7), (int)(wsum % 100000)};
    for (int q = 0; q < 6; q++) if (hi[t * 6 + q] != e[q]) { if (bad++ < 5) printf("FAIL cxx2_lambda_algorithms: [%d][%d] = %d, expected %d\n", t, q, hi[t * 6 + q], e[q]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_lambda_algorithms\n");
  return 0;
}
