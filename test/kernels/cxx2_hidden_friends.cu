// Hidden friends: functions defined inside a class body with `friend`, which only argument-dependent lookup
// finds (cuda::barrier's `init(&bar, n)` is one): in a plain class, in a class template (its template
// parameters bound), an operator, and a friend using the class's own member types and privates.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_hidden_friends: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

namespace lib {
class Counter {
  int n;
public:
  __device__ explicit Counter(int s) : n(s) {}
  __device__ int get() const { return n; }
  __device__ friend void reset(Counter *c, int v) { c->n = v * 2; }
  __device__ friend int twice(const Counter &c) { return c.n * 2; }
};

template <class T, int K> class Box {
  using value_type = T;
  T v;
public:
  __device__ explicit Box(T x) : v(x) {}
  __device__ friend value_type scaled(const Box &b) { return b.v * (value_type)K; }
  __device__ friend Box operator+(const Box &a, const Box &b) { return Box(a.v + b.v); }
  __device__ T value() const { return v; }
};
}

__global__ void hiddenFriends(const int *in, int *out, float *fout) {
  int t = threadIdx.x;
  lib::Counter c(in[t]);
  int a = twice(c);
  reset(&c, t);
  lib::Box<int, 3> bi(in[t]);
  lib::Box<float, 2> bf(0.5f * in[t]);
  out[t * 4 + 0] = a;
  out[t * 4 + 1] = c.get();
  out[t * 4 + 2] = scaled(bi);
  out[t * 4 + 3] = (bi + bi).value();
  fout[t] = scaled(bf);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int i = 0; i < T; i++) hin[i] = i * 7 - 50;
  int *din, *dout; float *dfo;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, T * 4 * sizeof(int))); CK(cudaMalloc(&dfo, T * sizeof(float)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  hiddenFriends<<<1, T>>>(din, dout, dfo);
  CK(cudaGetLastError());
  int h[T * 4]; float hf[T];
  CK(cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hf, dfo, sizeof(hf), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = hin[t];
    int e[4] = {x * 2, t * 2, x * 3, x * 2};
    for (int k = 0; k < 4; k++) if (h[t * 4 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_hidden_friends: [%d][%d] = %d, expected %d\n", t, k, h[t * 4 + k], e[k]);
    if (hf[t] != 0.5f * x * 2.0f && bad++ < 5) printf("FAIL cxx2_hidden_friends: f[%d] = %f\n", t, hf[t]);
  }
  if (bad) return 1;
  printf("PASS cxx2_hidden_friends\n");
  return 0;
}
