// Dependent names in templates: `typename T::value_type` in signatures and bodies, member typedefs of
// class template specialisations, traits classes selecting types, `T::template f<N>()` and `t.template`.
#include <cstdio>

template <typename T> struct Vec2 { typedef T value_type; typedef Vec2<T> self; T x, y; static const int dims = 2; };
template <typename T> struct Vec3 { typedef T value_type; T x, y, z; static const int dims = 3; };

template <typename T> struct Accum { typedef T type; };
template <> struct Accum<char> { typedef int type; };
template <> struct Accum<float> { typedef double type; };

template <typename V> __device__ typename V::value_type dot2(const V &a, const V &b) {
  typename V::value_type s = a.x * b.x;
  return s + a.y * b.y;
}
template <typename V> __device__ typename Accum<typename V::value_type>::type wideSum(const V &v) {
  typedef typename Accum<typename V::value_type>::type A;
  A s = A(v.x);
  s += A(v.y);
  return s;
}
template <typename V> __device__ int dimsOf(const V &) { return V::dims; }

struct Maker {
  template <int N> __device__ static int scaled(int v) { return v * N; }
  template <typename T> __device__ T half(T v) const { return v / T(2); }
};
template <typename M> __device__ int useMaker(const M &m, int v) { return M::template scaled<3>(v) + m.template half<int>(v); }

template <typename Container> __device__ typename Container::value_type firstOr(const Container &c, typename Container::value_type d) {
  return c.x != 0 ? c.x : d;
}

__global__ void dependentNames(const int *in, int *io, double *dd) {
  int i = threadIdx.x;
  int v = in[i];
  Vec2<int> a{v, 2}, b{3, v};
  Vec3<float> c{0.5f * v, 1.0f, 2.0f};
  Vec2<char> ch{(char)(100 + v), (char)100};
  Vec2<float> fl{1.0e8f, 3.0f};
  io[i * 5 + 0] = dot2(a, b);                        // 3v + 2v
  io[i * 5 + 1] = wideSum(ch);                       // 200 + v (no char overflow)
  io[i * 5 + 2] = dimsOf(a) * 10 + dimsOf(c);
  io[i * 5 + 3] = useMaker(Maker(), v * 2);          // 6v + v
  io[i * 5 + 4] = firstOr(a, 42) + sizeof(Vec2<int>::self);
  dd[i] = wideSum(fl) + firstOr(c, 7.5f);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 3) % 10 - 2;
  int *din, *di; double *dd;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 5 * sizeof(int)); cudaMalloc(&dd, T * sizeof(double));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  dependentNames<<<1, T>>>(din, di, dd);
  int hi[T * 5]; double hd[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hd, dd, sizeof(hd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int v = hin[i];
    int e[5] = {5 * v, 200 + v, 23, 7 * v, (v != 0 ? v : 42) + 8};
    for (int k = 0; k < 5; k++) if (hi[i * 5 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_dependent_names: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 5 + k], e[k]); }
    double ed = (double)1.0e8f + 3.0 + (double)(v != 0 ? 0.5f * v : 7.5f);
    if (hd[i] != ed) { if (bad++ < 5) printf("FAIL cxx2_dependent_names: d[%d] = %f, expected %f\n", i, hd[i], ed); }
  }
  if (bad) return 1;
  printf("PASS cxx2_dependent_names\n");
  return 0;
}
