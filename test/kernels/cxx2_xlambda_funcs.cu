// nvcc-flags: --extended-lambda
// Extended lambdas in functions other than main: the wrapper's tag names the enclosing function (its address and
// type, parameters of class type included), numbered per function; a function in a namespace; a trailing
// return type (__nv_dl_trailing_return_tag, Unvdtl); a lambda that is not extended does not take a tag number.
#include <cstdio>

struct Grid { int w, h; };

template <typename F> __global__ void fill(F f, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(i);
}

void stepA(int *d, int n, Grid g) {
  auto host_only = [](int v) { return v + 1; };   // not extended: no tag
  fill<<<1, 64>>>([g] __device__ (int i) { return (i % g.w) * 100 + i / g.w; }, d, host_only(n) - 1);
  fill<<<1, 64>>>([=] __device__ (int i) -> int { return i < n / 2 ? g.h - i : i; }, d + n, n);
}

namespace ops {
void stepB(int *d, int n, const int *table) {
  int k = 3;
  fill<<<1, 64>>>([k, table] __device__ (int i) { return table[i % 8] * k; }, d, n);
  fill<<<1, 64>>>([k] __device__ (int i) { return i * i - k; }, d + n, n);
}
}

int main() {
  const int N = 64;
  int *d, *t;
  int ht[8] = {5, -3, 8, 1, 0, 7, -9, 2};
  cudaMalloc(&d, 4 * N * sizeof(int)); cudaMalloc(&t, sizeof(ht));
  cudaMemcpy(t, ht, sizeof(ht), cudaMemcpyHostToDevice);
  Grid g = {8, 5};
  stepA(d, N, g);
  ops::stepB(d + 2 * N, N, t);
  int r[4 * N];
  cudaMemcpy(r, d, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int w[4] = {(i % 8) * 100 + i / 8, i < N / 2 ? 5 - i : i, ht[i % 8] * 3, i * i - 3};
    for (int j = 0; j < 4; j++)
      if (r[j * N + i] != w[j]) { printf("FAIL cxx2_xlambda_funcs: out[%d][%d] = %d, want %d\n", j, i, r[j * N + i], w[j]); bad = 1; }
  }
  if (bad) return 1;
  printf("PASS cxx2_xlambda_funcs\n");
  return 0;
}
