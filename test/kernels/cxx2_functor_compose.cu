// Composing callables: a compose() function template returning a lambda that captures two callables,
// lambdas returning lambdas (adders made by a factory), function objects with operator() templates,
// and a pipeline applying a pack of callables in order.
#include <cstdio>

template <typename F, typename G> __device__ auto compose(F f, G g) { return [=](auto x) { return f(g(x)); }; }
__device__ auto makeAdder(int n) { return [n](int x) { return x + n; }; }
struct Doubler { template <typename T> __device__ T operator()(T v) const { return v + v; } };
struct Affine { float a, b; template <typename T> __device__ float operator()(T v) const { return a * v + b; } };

template <typename T> __device__ T pipeline(T x) { return x; }
template <typename T, typename F, typename... Fs> __device__ T pipeline(T x, F f, Fs... fs) { return pipeline(f(x), fs...); }

__global__ void functorCompose(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  int v = in[t];
  auto add3 = makeAdder(3);
  auto sq = [](auto x) { return x * x; };
  auto addThenSquare = compose(sq, add3);
  auto squareThenDouble = compose(Doubler(), sq);
  io[t * 4 + 0] = addThenSquare(v);                         // (v + 3)^2
  io[t * 4 + 1] = squareThenDouble(v);                      // 2 v^2
  io[t * 4 + 2] = pipeline(v, add3, Doubler(), makeAdder(-1));   // 2(v + 3) - 1
  io[t * 4 + 3] = compose(makeAdder(10), compose(Doubler(), add3))(v);   // 2(v + 3) + 10
  Affine af{0.5f, 1.0f};
  fo[t * 2 + 0] = compose(af, Doubler())(v);                // 0.5 * 2v + 1
  fo[t * 2 + 1] = pipeline(0.25f * v, sq, Doubler());       // 2 (v/4)^2
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 12 - 6;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 4 * sizeof(int)); cudaMalloc(&df, T * 2 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  functorCompose<<<1, T>>>(din, di, df);
  int hi[T * 4]; float hf[T * 2];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int e[4] = {(v + 3) * (v + 3), 2 * v * v, 2 * (v + 3) - 1, 2 * (v + 3) + 10};
    float q = 0.25f * v;
    float ef[2] = {0.5f * (float)(2 * v) + 1.0f, (q * q) + (q * q)};
    for (int k = 0; k < 4; k++) if (hi[t * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_functor_compose: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 4 + k], e[k]); }
    for (int k = 0; k < 2; k++) if (hf[t * 2 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_functor_compose: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 2 + k], ef[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_functor_compose\n");
  return 0;
}
