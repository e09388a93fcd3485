// Generic lambdas: `auto` parameters deduced per call (one operator() per argument types), by value,
// by reference and const reference, with captures by copy and by reference, in a member function using
// the enclosing object's members, and passed to function templates as functors.
#include <cstdio>

template <typename F, typename T> __device__ T applyTwice(F f, T x) { return f(f(x)); }
template <typename F> __device__ void forEach(int *p, int n, F f) { for (int i = 0; i < n; i++) f(p[i], i); }

struct Scaler {
  int k;
  __device__ float run(int v) {
    auto mul = [=](auto x) { return x * k; };          // captures this for k
    return mul(v) + mul(0.5f);
  }
};

__global__ void genericLambdas(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  int a = in[t];
  auto square = [](auto x) { return x * x; };
  auto addA = [=](auto x, auto y) { return x + y + a; };
  auto bump = [&](auto &x) { x += a; };
  auto maxOf = [](const auto &x, const auto &y) { return x > y ? x : y; };
  io[t * 6 + 0] = square(a) + applyTwice([a](auto x) { return x + a; }, 3);   // a*a + 3 + 2a
  int z = t;
  bump(z);
  io[t * 6 + 1] = z;                                                           // t + a
  io[t * 6 + 2] = maxOf(a, 2) * 10 + maxOf('a', 'b');
  int buf[4] = {1, 2, 3, 4};
  int total = 0;
  forEach(buf, 4, [&](auto v, auto i) { total += v * (i + a); });
  io[t * 6 + 3] = total;                                                       // sum v*(i+a)
  Scaler s{3};
  fo[t * 3 + 0] = s.run(a);                                                   // 3a + 1.5
  fo[t * 3 + 1] = square(0.5f * a) + addA(1.0f, 2);                           // 0.25a^2 + 3 + a
  double d = addA(0.25, 0.5);
  fo[t * 3 + 2] = (float)d;
  io[t * 6 + 4] = (int)sizeof(square(1.0)) + (int)sizeof(square('c'));        // 8 + 4 (char promotes)
  io[t * 6 + 5] = addA(1, 2);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 3) % 11 - 5;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int)); cudaMalloc(&df, T * 3 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  genericLambdas<<<1, T>>>(din, di, df);
  int hi[T * 6]; float hf[T * 3];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int a = hin[t];
    int total = 0;
    for (int i = 0; i < 4; i++) total += (i + 1) * (i + a);
    int e[6] = {a * a + 3 + 2 * a, t + a, (a > 2 ? a : 2) * 10 + 'b', total, 12, 3 + a};
    float ef[3] = {(float)(a * 3) + 0.5f * 3, (0.5f * a) * (0.5f * a) + (1.0f + 2 + a), (float)(0.25 + 0.5 + a)};
    for (int k = 0; k < 6; k++) if (hi[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_generic_lambdas: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 6 + k], e[k]); }
    for (int k = 0; k < 3; k++) if (hf[t * 3 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_generic_lambdas: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 3 + k], ef[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_generic_lambdas\n");
  return 0;
}
