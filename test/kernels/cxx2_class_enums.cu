// Enumerators declared in classes (`enum { num_elements = size }`, as mma.h's fragments) used in member
// declarations, through objects and qualified names, also in class templates; explicit specialisations
// of a declared-only class template completed by its default arguments (wmma::fragment<accumulator, ...>);
// operator function templates kept out of line (mangled by operator code); classes returned by value from
// out-of-line functions (returned in the call's parameter bytes, as cicc); atomicExch with mixed types.
#include <cstdio>

struct Fixed { enum { num = 4, twice = 2 * num }; int x[num]; };
template <typename T, int S> struct Frag { enum { num_elements = S, half = S / 2 }; T x[S]; };

struct rowm; struct acc;
template <typename Use, int M, typename T, typename Layout = void> class Tile;
template <> class Tile<rowm, 8, float, rowm> : public Frag<float, 8> {};
template <> class Tile<acc, 8, float> : public Frag<float, 4> {};

template <class T> struct Iv { T lo, hi; };
template <class T> __device__ __noinline__ Iv<T> operator-(Iv<T> const &x) { Iv<T> r = {-x.hi, -x.lo}; return r; }
template <class T> __device__ __noinline__ Iv<T> operator-(Iv<T> const &x, Iv<T> const &y) { Iv<T> r = {x.lo - y.hi, x.hi - y.lo}; return r; }
template <class T> __device__ __noinline__ Iv<T> operator*(Iv<T> const &x, T y) { Iv<T> r = {x.lo * y, x.hi * y}; return r; }
template <class T> __device__ __noinline__ bool operator<(Iv<T> const &x, Iv<T> const &y) { return x.hi < y.lo; }
template <class T> __device__ __noinline__ Iv<T> &operator+=(Iv<T> &x, Iv<T> const &y) { x.lo += y.lo; x.hi += y.hi; return x; }

struct Big { float v[6]; int n; };
__device__ __noinline__ Big makeBig(float s, int n) { Big b; for (int i = 0; i < 6; i++) b.v[i] = s * i; b.n = n; return b; }

__global__ void classEnums(const int *in, int *out, double *d, unsigned *ex) {
  int t = threadIdx.x;
  Fixed f;
  for (int i = 0; i < Fixed::num; i++) f.x[i] = in[t] + i;
  Frag<int, 6> g;
  for (int i = 0; i < g.num_elements; i++) g.x[i] = i * t;
  Tile<rowm, 8, float, rowm> a;
  Tile<acc, 8, float> c;
  for (int i = 0; i < a.num_elements; i++) a.x[i] = 1.0f;
  for (int i = 0; i < c.num_elements; i++) c.x[i] = 2.0f;
  out[t * 6 + 0] = f.x[f.num - 1] + Fixed::twice;                    // in + 3 + 8
  out[t * 6 + 1] = g.x[g.half] + Frag<int, 10>::half;                 // 3t + 5
  out[t * 6 + 2] = (int)(a.x[7] * a.num_elements + c.x[3] * c.num_elements);   // 8 + 8
  Iv<double> x = {d[t * 4], d[t * 4 + 1]}, y = {d[t * 4 + 2], d[t * 4 + 3]};
  Iv<double> z = -x - y * 2.0;
  z += x;
  out[t * 6 + 3] = (int)(z.lo * 10) + (x < y ? 1000 : 0);
  Big b = makeBig(0.5f * t, t + 1);
  out[t * 6 + 4] = (int)(b.v[5] * 2) + b.n * 100;                      // 5t + 100 (t + 1)
  unsigned tid = t;
  atomicExch((int *)&ex[t], tid * 3);                                  // int *, unsigned: the int overload
  out[t * 6 + 5] = (int)ex[t];
}

int main() {
  const int T = 32;
  int hin[T]; double hd[T * 4];
  for (int i = 0; i < T; i++) { hin[i] = i * 7 - 50; for (int k = 0; k < 4; k++) hd[i * 4 + k] = (i % 5) * 0.5 + k - 1.25 * (k & 1); }
  int *din, *dout; double *dd; unsigned *dex;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 6 * sizeof(int)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dex, T * sizeof(unsigned));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  cudaMemset(dex, 0, T * sizeof(unsigned));
  classEnums<<<1, T>>>(din, dout, dd, dex);
  int h[T * 6];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    double xl = hd[t * 4], xh = hd[t * 4 + 1], yl = hd[t * 4 + 2], yh = hd[t * 4 + 3];
    double zl = (-xh) - yh * 2.0 + xl;
    int e[6] = {hin[t] + 3 + 8, 3 * t + 5, 16, (int)(zl * 10) + (xh < yl ? 1000 : 0), (int)(0.5f * t * 5 * 2) + (t + 1) * 100, t * 3};
    for (int k = 0; k < 6; k++) if (h[t * 6 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_class_enums: [%d][%d] = %d, expected %d\n", t, k, h[t * 6 + k], e[k]);
  }
  if (bad) return 1;
  printf("PASS cxx2_class_enums\n");
  return 0;
}
