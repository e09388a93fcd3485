// Operator templates that tie on conversions: the more specialised one wins (partial ordering), as with
// libstdc++'s two operator!= of __normal_iterator (range-based for over a std::vector in GPUMD's host code);
// a non-template operator beats a template with the same conversions.
#include <cstdio>

template <typename P, typename Tag> struct Iter {
  P p;
  __device__ Iter &operator++() { ++p; return *this; }
  __device__ int operator*() const { return *p; }
};
struct TagA {};

// the general one compares any two iterators over the same container; the specialised one, two of one type
template <typename L, typename R, typename Tag> __device__ int operator!=(const Iter<L, Tag> &a, const Iter<R, Tag> &b) { return a.p != b.p ? 2 : 0; }
template <typename P, typename Tag> __device__ int operator!=(const Iter<P, Tag> &a, const Iter<P, Tag> &b) { return a.p < b.p ? 1 : 0; }

struct Meters { int v; };
template <typename T> __device__ int operator+(const T &a, const Meters &b) { return 100 + b.v; }
__device__ int operator+(const Meters &a, const Meters &b) { return a.v + b.v; }

struct View {
  const int *b, *e;
  __device__ Iter<const int *, TagA> begin() const { return {b}; }
  __device__ Iter<const int *, TagA> end() const { return {e}; }
};

__global__ void operatorPartialOrder(const int *in, int *out) {
  int t = threadIdx.x;
  View v{in + t, in + t + 4};
  int s = 0;
  for (int x : v) s += x;
  Iter<const int *, TagA> a{in}, b{in + t};
  Iter<int *, TagA> c{out};
  out[t * 4 + 0] = s;
  out[t * 4 + 1] = a != b;
  out[t * 4 + 2] = (b != c) + (Meters{t} + Meters{3});
  out[t * 4 + 3] = 7 + Meters{t};
}

int main() {
  const int T = 32, N = 40;
  int hin[N];
  for (int j = 0; j < N; j++) hin[j] = (j * 5) % 11;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 4 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  operatorPartialOrder<<<1, T>>>(din, dout);
  int h[T * 4];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int s = hin[t] + hin[t + 1] + hin[t + 2] + hin[t + 3];
    int e[4] = {s, t > 0 ? 1 : 0, 2 + t + 3, 100 + t};
    for (int k = 0; k < 4; k++)
      if (h[t * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_operator_partial_order: [%d][%d] = %d, expected %d\n", t, k, h[t * 4 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_operator_partial_order\n");
  return 0;
}
