// Template template parameters: a container template passed to a holder, an operation template chosen per
// kernel instantiation (the kernel's name mangles the template's own name), a default template template argument,
// and thrust's policy pattern (a class named in a specialisation while its own definition is read).
#include <cstdio>

template <class T> struct Box { T v; __device__ T get() const { return v; } };
template <class T> struct Twice { T v; __device__ T get() const { return v + v; } };
namespace ops {
template <class T> struct Plus { __device__ T operator()(T a, T b) const { return a + b; } };
template <class T> struct Max { __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
}

// thrust's policy pattern: a class named in a specialisation's arguments while its own definition is read
namespace pol {
template <class D> struct base { };
struct tag;
template <class> struct policy;
template <> struct policy<tag> : base<tag> { using tag_type = tag; };
template <template <class> class P> struct aware { };
struct tag : policy<tag>, aware<pol::policy> { };
}

template <template <class> class Store, class T> struct Holder {
  Store<T> s;
  __device__ T read() const { return s.get(); }
};
template <class T, template <typename> class Op = ops::Plus> __device__ T combine(T a, T b) { Op<T> op; return op(a, b); }

template <template <class> class Op> __global__ void tmplTmpl(const int *in, int *out) {
  int t = threadIdx.x;
  Op<int> op;
  Holder<Box, int> hb{{in[t]}};
  Holder<Twice, int> ht{{in[t] - 3}};
  int *o = out + t * 4;
  o[0] = op(hb.read(), ht.read());
  o[1] = combine<int>(in[t], 5);
  o[2] = combine<int, ops::Max>(in[t], 2);
  o[3] = (int)sizeof(Holder<Box, short>) + (int)sizeof(pol::tag);
}

int main() {
  const int n = 32;
  int hin[n], hout[n * 4];
  for (int j = 0; j < n; j++) hin[j] = (j * 5) % 11 - 4;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, sizeof(hout));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 0) tmplTmpl<ops::Plus><<<1, n>>>(din, dout); else tmplTmpl<ops::Max><<<1, n>>>(din, dout);
    cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
    for (int t = 0; t < n; t++) {
      int a = hin[t], b = 2 * (hin[t] - 3);
      int e[4] = {pass == 0 ? a + b : (a > b ? a : b), a + 5, a > 2 ? a : 2, 3};
      for (int k = 0; k < 4; k++)
        if (hout[t * 4 + k] != e[k]) { printf("FAIL cxx2_tmpltmpl_basic: pass %d t=%d k=%d got %d want %d\n", pass, t, k, hout[t * 4 + k], e[k]); return 1; }
    }
  }
  printf("PASS cxx2_tmpltmpl_basic\n");
  return 0;
}
