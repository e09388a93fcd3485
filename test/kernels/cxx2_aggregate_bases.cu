// C++17 aggregate initialisation of classes with base classes: the bases take the list's first items, in
// declaration order, an empty base (which has no storage) too: `D d{{}, 7}`, a non-empty base before an
// empty one and after it, a CRTP tag base, and a list that stops before the last member.
#include <cstdio>

#define N 128

struct Empty {};
struct Pair { int a; int b; };
template <class T> struct Tag {};

struct Plus : Empty {
  int k;
  __device__ int operator()(int x) const { return x + k; }
};
struct PairThenEmpty : Pair, Empty { int c; };
struct EmptyThenPair : Empty, Pair { int c; short d; };
struct Tagged : Tag<Tagged> { int v; float f; };

__global__ void aggr_kernel(const int *in, int *out, float *fout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  Plus p{{}, 7};
  out[i * 6 + 0] = p(x);
  PairThenEmpty q{{x, 2 * x}, {}, x - 3};
  out[i * 6 + 1] = q.a + 10 * q.b + 100 * q.c;
  EmptyThenPair r{{}, {x + 1, x + 2}, 5, static_cast<short>(x)};
  out[i * 6 + 2] = r.a * r.b - r.c + r.d;
  EmptyThenPair s{{}, {x}};
  out[i * 6 + 3] = s.a + s.b + s.c + s.d;
  Tagged t{{}, x * 3, x * 0.5f};
  out[i * 6 + 4] = t.v;
  Plus u = {{}, x};
  out[i * 6 + 5] = u(1);
  fout[i] = t.f;
}

int main() {
  int h[N], r[N * 6];
  float fr[N];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dout; float *dfout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&dfout, sizeof(fr));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  aggr_kernel<<<N / 64, 64>>>(din, dout, dfout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(fr, dfout, sizeof(fr), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int x = h[i];
    int e[6] = {x + 7, x + 20 * x + 100 * (x - 3), (x + 1) * (x + 2) - 5 + (short)x, x, x * 3, x + 1};
    for (int k = 0; k < 6; k++)
      if (r[i * 6 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_aggregate_bases: [%d][%d] = %d, expected %d\n", i, k, r[i * 6 + k], e[k]);
    if (fr[i] != x * 0.5f && bad++ < 5) printf("FAIL cxx2_aggregate_bases: f[%d] = %g, expected %g\n", i, fr[i], x * 0.5f);
  }
  if (bad) return 1;
  printf("PASS cxx2_aggregate_bases\n");
  return 0;
}
