// Member class templates: `template <class U> struct In` inside a class template and inside a plain class,
// named from outside (Outer<T>::In<U>) and from the enclosing class's member functions (In<U>), with the
// enclosing template's parameters visible in the member template's body, a non-type parameter, a nested
// (non-template) class of a class template, and member functions of the specialisations (mangled inside
// the enclosing specialisation).
#include <cstdio>

template <class T> struct Grid {
  T scale;
  template <class U> struct Cell {
    U raw; T w;
    __device__ __noinline__ U weighted() const { return raw * (U)w; }
    __device__ T back() const { return (T)raw + w; }
  };
  template <int N> struct Row {
    T v[N];
    __device__ T sum() const { T s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }
  };
  struct Span { T lo, hi; __device__ __noinline__ T width() const { return hi - lo; } };
  template <class U> __device__ Cell<U> cell(U raw) const { Cell<U> c; c.raw = raw; c.w = scale; return c; }
  __device__ Row<3> row(T a) const { Row<3> r; for (int i = 0; i < 3; i++) r.v[i] = a * (T)(i + 1) * scale; return r; }
};

struct Pool {
  template <class U> struct Slot {
    U val; int tag;
    __device__ __noinline__ U tagged() const { return val + (U)tag; }
  };
};

__global__ void membertmplNested(const int *in, float *fout, int *iout) {
  int t = threadIdx.x;
  int v = in[t];
  Grid<int> g{v + 1};
  Grid<int>::Cell<float> c{0.5f, 3};
  fout[t * 3 + 0] = c.weighted();
  fout[t * 3 + 1] = g.cell(1.25f).weighted();
  Grid<float>::Cell<int> d{v, 0.5f};
  fout[t * 3 + 2] = d.back() + (float)d.weighted();
  iout[t * 5 + 0] = g.cell(v).weighted();
  iout[t * 5 + 1] = g.row(v).sum();
  Grid<int>::Row<4> r{{1, 2, 3, v}};
  iout[t * 5 + 2] = r.sum();
  Grid<int>::Span s{v, 2 * v + 5};
  iout[t * 5 + 3] = s.width();
  Pool::Slot<int> p{v, t};
  Pool::Slot<long long> q{(long long)v << 33, 1};
  iout[t * 5 + 4] = p.tagged() + (int)(q.tagged() >> 33);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int t = 0; t < T; t++) hin[t] = (t * 3) % 10 - 4;
  int *din, *dout;
  float *dfout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dfout, T * 3 * sizeof(float));
  cudaMalloc(&dout, T * 5 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  membertmplNested<<<1, T>>>(din, dfout, dout);
  float hf[T * 3];
  int hi[T * 5];
  cudaMemcpy(hf, dfout, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, dout, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t], sc = v + 1;
    float ef[3] = {1.5f, 1.25f * (float)sc, (float)((int)v + 0.5f) + (float)(v * (int)0.5f)};
    int ei[5] = {v * sc, v * sc + 2 * v * sc + 3 * v * sc, 6 + v, v + 5, 0};
    ei[4] = (v + t) + (int)((((long long)v << 33) + 1) >> 33);
    for (int k = 0; k < 3; k++) if (hf[t * 3 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_membertmpl_nested: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 3 + k], ef[k]); }
    for (int k = 0; k < 5; k++) if (hi[t * 5 + k] != ei[k]) { if (bad++ < 5) printf("FAIL cxx2_membertmpl_nested: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 5 + k], ei[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_membertmpl_nested\n");
  return 0;
}
