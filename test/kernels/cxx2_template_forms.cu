// Template forms the cooperative-groups header leans on: alias templates (also of alias templates),
// templates found through a using-directive and a using-declaration, `(N > 32) && ...` and `f(N > 8)` as
// template arguments, default template arguments given on a forward declaration, a default ending in
// `>>`, partial ordering between tied function templates (f(T) vs f(T*), a constructor template for any
// Tile<M, Q> vs one for Tile<N, Q>), `(T())` as a parenthesised temporary, and a trailing return type that
// names a parameter.
#include <cstdio>

template <int N> struct Int { static const int value = N; };
template <bool B> struct Bool { static const bool value = B; };
template <unsigned N> using IsBig = Bool<(N > 32) && (N <= 1024)>;
template <unsigned N> using Twice = Int<2 * N>;
template <unsigned N> using TwiceBig = Bool<Twice<N>::value >= 64>;
__device__ constexpr int pick(bool b) { return b ? 7 : 3; }
template <unsigned N> struct Picked { static const int value = Int<pick(N > 8)>::value; };

namespace outer { namespace v1 { template <typename T> struct Box { T v; __device__ T get() const { return v + 1; } }; } using namespace v1; }
namespace tools { using outer::Box; }

template <typename T, typename U = outer::Box<T>> struct Holder;
template <typename T, typename U> struct Holder { U u; __device__ T twice() const { return u.get() * 2; } };
template <typename T, typename R = Int<sizeof(T)>> __device__ int sizeTag(T) { return R::value; }

template <typename T> __device__ int kind(T) { return 1; }
template <typename T> __device__ int kind(T *) { return 2; }

template <unsigned N, typename P> struct Tile {
  int from;
  __device__ Tile() : from(0) {}
  template <unsigned M, typename Q> __device__ Tile(const Tile<M, Q> &) : from(1) {}
  template <typename Q> __device__ Tile(const Tile<N, Q> &) : from(2) {}
};

struct Counter { int n; __device__ Counter() : n(41) {} __device__ int next() const { return n + 1; } };
__device__ int viaParen() { return (Counter()).next(); }
template <typename G> __device__ auto sizeOf(const G &g) -> decltype(g.next()) { return g.next() * 10; }

__global__ void kernel(int *out) {
  int i = threadIdx.x;
  int *o = out + i * 12;
  o[0] = IsBig<64>::value; o[1] = IsBig<16>::value; o[2] = TwiceBig<32>::value; o[3] = Picked<16>::value + Picked<4>::value * 10;
  Holder<int> h; h.u.v = i;
  tools::Box<int> b{i * 3};
  o[4] = h.twice(); o[5] = b.get(); o[6] = sizeTag(1.0) + sizeTag((short)1) * 10;
  o[7] = kind(i) + kind(&i) * 10;
  Tile<8, int> t8; Tile<8, float> same(t8); Tile<4, float> other(t8);
  o[8] = same.from * 10 + other.from;
  o[9] = viaParen(); o[10] = sizeOf(Counter()); o[11] = Int<(3 > 2) + (8 >> 2)>::value;
}

int main() {
  const int n = 32;
  int h[n * 12], *d;
  cudaMalloc(&d, sizeof(h));
  kernel<<<1, n>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    int e[12] = {1, 0, 1, 7 + 30, (i + 1) * 2, i * 3 + 1, 8 + 20, 1 + 20, 21, 42, 420, 3};
    for (int k = 0; k < 12; k++) if (h[i * 12 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_template_forms: [%d][%d] = %d, expected %d\n", i, k, h[i * 12 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_template_forms\n");
  return 0;
}
