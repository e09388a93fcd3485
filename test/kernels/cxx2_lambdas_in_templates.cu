// Lambdas inside templates: generic lambdas in function templates capturing values of the template's
// types, lambdas in member functions of class templates capturing this, a member function template
// taking a callable, and lambdas whose parameter types name the enclosing template's parameters.
#include <cstdio>

template <typename T, int N> struct Grid {
  T cells[N];
  T bias;
  __device__ void fill(T start) { auto f = [this, start](int i) { cells[i] = start + (T)i + bias; }; for (int i = 0; i < N; i++) f(i); }
  template <typename F> __device__ T fold(T init, F f) const { for (int i = 0; i < N; i++) init = f(init, cells[i]); return init; }
  __device__ T sumAbove(T limit) const { return fold(T(0), [=](T acc, T v) { return v > limit ? acc + v : acc; }); }
  __device__ int countIf(T lo, T hi) const {
    int c = 0;
    auto inRange = [&](auto v) { return v >= lo && v <= hi; };
    for (int i = 0; i < N; i++) c += inRange(cells[i]);
    return c;
  }
};

template <typename T> __device__ T scaleAll(T *p, int n, T k) {
  auto scale = [k](auto x) { return x * k; };
  T s = T();
  for (int i = 0; i < n; i++) { p[i] = scale(p[i]); s += p[i]; }
  return s;
}

__global__ void lambdasInTemplates(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  Grid<int, 5> g;
  g.bias = in[t];
  g.fill(t);
  io[t * 4 + 0] = g.fold(0, [](int a, int b) { return a + b; });
  io[t * 4 + 1] = g.sumAbove(t + 2);
  io[t * 4 + 2] = g.countIf(t, t + 3);
  int vals[3] = {in[t], 2, 3};
  io[t * 4 + 3] = scaleAll(vals, 3, 4);
  Grid<float, 3> gf;
  gf.bias = 0.5f;
  gf.fill(0.25f * in[t]);
  fo[t * 2 + 0] = gf.sumAbove(0.0f);
  float fv[2] = {1.5f, -0.5f};
  fo[t * 2 + 1] = scaleAll(fv, 2, 2.0f) + gf.fold(1.0f, [](float a, float b) { return a * 0.5f + b; });
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 3) % 7 - 3;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 4 * sizeof(int)); cudaMalloc(&df, T * 2 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  lambdasInTemplates<<<1, T>>>(din, di, df);
  int hi[T * 4]; float hf[T * 2];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int b = hin[t];
    int cells[5], sum = 0, above = 0, inr = 0;
    for (int i = 0; i < 5; i++) { cells[i] = t + i + b; sum += cells[i]; if (cells[i] > t + 2) above += cells[i]; if (cells[i] >= t && cells[i] <= t + 3) inr++; }
    int e[4] = {sum, above, inr, 4 * b + 8 + 12};
    float fc[3], fabove = 0.0f, fold = 1.0f;
    for (int i = 0; i < 3; i++) { fc[i] = 0.25f * b + (float)i + 0.5f; if (fc[i] > 0.0f) fabove = fabove + fc[i]; fold = fold * 0.5f + fc[i]; }
    float ef[2] = {fabove, (3.0f + -1.0f) + fold};
    for (int k = 0; k < 4; k++) if (hi[t * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_lambdas_in_templates: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 4 + k], e[k]); }
    for (int k = 0; k < 2; k++) if (hf[t * 2 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_lambdas_in_templates: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 2 + k], ef[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_lambdas_in_templates\n");
  return 0;
}
