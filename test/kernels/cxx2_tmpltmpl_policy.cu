// Template template arguments named unqualified after a specialisation of the same template was read (thrust's
// cuda execution policies: `struct tag : execution_policy<tag>, allocator_aware_execution_policy<execution_policy>`),
// and a CRTP base template passed the same way; the policy's members reached through the argument.
#include <cstdio>

namespace pol {
template <class Derived> struct base {
  __device__ int id() const { return static_cast<const Derived &>(*this).value() * 2; }
};
struct tag;
template <class> struct policy;
template <> struct policy<tag> : base<policy<tag>> {
  __device__ int value() const { return 3; }
};
template <template <class> class CRTP> struct aware {
  template <class T> struct with { using type = CRTP<T>; };
  template <class T> __device__ int scale(const T &, int x) const { return x * (int)sizeof(typename with<T>::type); }
};
struct tag : policy<tag>, aware<policy> { };

template <class Derived> struct stream_base : base<Derived> {
  int stream = 7;
  __device__ int value() const { return stream + static_cast<const Derived &>(*this).extra; }
};
struct par_t : stream_base<par_t>, aware<stream_base> { int extra = 5; };
}

__global__ void tmplTmplPolicy(const int *in, int *out) {
  int t = threadIdx.x;
  pol::tag g;
  pol::par_t par;
  int *o = out + t * 4;
  o[0] = g.id() + in[t];
  o[1] = g.scale(g, in[t]);
  o[2] = par.id() - in[t];
  o[3] = par.scale(par, in[t] + 1);
}

int main() {
  const int n = 32;
  int hin[n], hout[n * 4];
  for (int j = 0; j < n; j++) hin[j] = (j * 3) % 7 - 2;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, sizeof(hout));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  tmplTmplPolicy<<<1, n>>>(din, dout);
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  for (int t = 0; t < n; t++) {
    int a = hin[t];
    int sp = (int)sizeof(pol::policy<pol::tag>), ss = (int)sizeof(pol::stream_base<pol::par_t>);
    int e[4] = {6 + a, a * sp, 24 - a, (a + 1) * ss};
    for (int k = 0; k < 4; k++)
      if (hout[t * 4 + k] != e[k]) { printf("FAIL cxx2_tmpltmpl_policy: t=%d k=%d got %d want %d\n", t, k, hout[t * 4 + k], e[k]); return 1; }
  }
  printf("PASS cxx2_tmpltmpl_policy\n");
  return 0;
}
