// nvcc-flags: --extended-lambda
// Extended lambdas written in member functions (defined out of line, and in the class) of a class and of a
// class in a namespace: the wrapper's tag names a pointer to member function (`void ( :: sol::Solver::*)(float *, int)`,
// mangled M<class><function type> in the stub's Unvdl/Unvhdl names); members reach the lambdas through
// local copies.
#include <cstdio>

template <typename F> __global__ void each(F f, float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i], i);
}

struct Scaler {
  float factor;
  void apply(float *d, int n);
  void bump(float *d, int n) {
    float f = factor;
    each<<<2, 32>>>([f] __host__ __device__ (float x, int i) { return x + f * (i % 4); }, d, n);
  }
};

void Scaler::apply(float *d, int n) {
  float f = factor;
  each<<<2, 32>>>([f] __device__ (float x, int i) { return x * f + (i & 3); }, d, n);
}

namespace sol {
struct Solver {
  float shift;
  int period;
  void step(float *d, int n, int round);
};

void Solver::step(float *d, int n, int round) {
  float s = shift * round;
  int per = period;
  each<<<2, 32>>>([s, per] __device__ (float x, int i) { return i % per == 0 ? x - s : x + s; }, d, n);
  each<<<2, 32>>>([s] __host__ __device__ (float x, int i) { return x * 0.5f + s * (i % 2); }, d, n);
}
}

int main() {
  const int N = 64;
  float h[N], r[N];
  for (int i = 0; i < N; i++) h[i] = 0.5f * i - 7.0f;
  float *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  Scaler sc = {1.5f};
  sol::Solver so = {0.25f, 3};
  sc.apply(d, N);
  sc.bump(d, N);
  so.step(d, N, 2);
  cudaMemcpy(r, d, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = h[i] * 1.5f + (i & 3);
    x = x + 1.5f * (i % 4);
    x = i % 3 == 0 ? x - 0.5f : x + 0.5f;
    x = x * 0.5f + 0.5f * (i % 2);
    if (r[i] != x) { printf("FAIL cxx2_xlambda_members: p[%d] = %f, want %f\n", i, r[i], x); bad = 1; }
  }
  if (bad) return 1;
  printf("PASS cxx2_xlambda_members\n");
  return 0;
}
