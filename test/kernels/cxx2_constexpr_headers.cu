// Constants computed by constexpr functions of the CUDA C++ library, as CUB's block primitives compute their
// layout: an enumerator from cuda::std::min (through `const T &` parameters), a static constexpr member from
// cuda::ceil_div (an assertion that leaves `(void)0`, if constexpr, make_unsigned), both used as array bounds
// and template arguments; and libstdc++'s std::is_convertible, which reads a helper's SFINAE member typedef.
// Also CUB's tag recursion: a member function template taking constant_t<N> calls itself with N + 1 until the
// non-template overload taking constant_t<int{STEPS}> (a functional cast as a template argument) ends it.
#include <cstdio>
#include <type_traits>
#include <cuda/cmath>
#include <cuda/std/__algorithm/min.h>

namespace detail { constexpr int warp_threads = 32; }

template <int BLOCK> struct Layout {
  enum {
    RAKING = cuda::std::min(BLOCK, detail::warp_threads),
    SEGMENT = (BLOCK + RAKING - 1) / RAKING,
  };
  static constexpr int WARPS = ::cuda::ceil_div(BLOCK, detail::warp_threads);
  int grid[RAKING * SEGMENT];
  int warp_totals[WARPS];
};

template <int V> struct constant_t { static constexpr int value = V; };
template <int V> constexpr constant_t<V> constant_v{};

struct Steps {
  static constexpr int STEPS = ::cuda::ceil_div(10, 4);
  template <int N> __device__ int walk(int acc, constant_t<N>) { return walk(acc * 10 + N, constant_v<N + 1>); }
  __device__ int walk(int acc, constant_t<int{STEPS}>) { return acc; }
};

template <int N> __device__ int fill(int *a, int x) { int s = 0; for (int i = 0; i < N; i++) { a[i] = x + i; s += a[i]; } return s; }

struct Wrapped { int v; __device__ operator int() const { return v; } };

template <typename T> __device__ int convertibleToInt() { if constexpr (std::is_convertible<T, int>::value) return 1; else return 0; }

__global__ void constexprHeaders(const int *in, int *out) {
  int t = threadIdx.x, x = in[t];
  Layout<96> l;
  Layout<16> s;
  out[t * 8 + 0] = Layout<96>::RAKING * 100 + Layout<96>::SEGMENT * 10 + Layout<96>::WARPS;
  out[t * 8 + 1] = Layout<16>::RAKING * 100 + Layout<16>::SEGMENT * 10 + Layout<16>::WARPS;
  out[t * 8 + 2] = (int)(sizeof(l) / sizeof(int)) * 1000 + (int)(sizeof(s) / sizeof(int));
  out[t * 8 + 3] = fill<Layout<96>::WARPS>(l.warp_totals, x);
  out[t * 8 + 4] = fill<Layout<16>::RAKING * Layout<16>::SEGMENT>(s.grid, x);
  out[t * 8 + 5] = convertibleToInt<float>() + 2 * convertibleToInt<Wrapped>() + 4 * convertibleToInt<int *>() + 8 * convertibleToInt<Layout<16>>();
  out[t * 8 + 6] = ::cuda::ceil_div(x + 100, 7);
  out[t * 8 + 7] = cuda::std::min(x, 3) + Steps().walk(x, constant_v<0>) * 100;
}

int main() {
  const int T = 8;
  int h[T], r[T * 8];
  for (int i = 0; i < T; i++) h[i] = i * 5 - 12;
  int *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  constexprHeaders<<<1, T>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = h[t];
    // 96 threads: 32 raking threads, segments of 3, 3 warps; 16: 16 of 1, 1 warp
    int e[8] = {32 * 100 + 3 * 10 + 3, 16 * 100 + 1 * 10 + 1, (96 + 3) * 1000 + (16 + 1), 3 * x + 3, 16 * x + 120, 1 + 2,
                (x + 100 + 6) / 7, (x < 3 ? x : 3) + (((x * 10 + 0) * 10 + 1) * 10 + 2) * 100};
    for (int k = 0; k < 8; k++)
      if (r[t * 8 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_constexpr_headers: [%d][%d] = %d, expected %d\n", t, k, r[t * 8 + k], e[k]);
  }
  if (bad) return 1;
  printf("PASS cxx2_constexpr_headers\n");
  return 0;
}
