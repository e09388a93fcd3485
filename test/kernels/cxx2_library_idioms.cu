// Idioms of CUDA's C++ libraries (libcu++, CUB) that ptxd misread before:
// - SFINAE in a static member function template's decltype return type (libcu++'s __invokable_r::__try_call):
//   the member was registered under a name found inside the decltype, so the `(...)` catch-all always won;
// - a function template declared with default template arguments and defined later without them (CUB's
//   ThreadReduce), and block-scope using-declarations naming function and class templates;
// - pack expansions in braced initializers of aggregates, with brace elision (`array<T, N>{f(in[Is])...}`),
//   deduction through an alias of a pack (`index_sequence<Is...>`), and a type pattern naming a pack inside a
//   template-id (`disjunction_v<is_same<T, Ts>...>`);
// - built-in operators on class operands through their conversion function (`integral_constant{} >= 4`);
// - a partial specialisation we cannot read whole whose first argument already fails to match;
// - `typename sel<false>::template type<T>` (a class declaring nothing): a substitution failure;
// - integral constants local to the host function naming a kernel template's arguments (`const int B = 64;`),
//   and a float4 copy (one 16-byte access, not sixteen bytes).
#include <cstdio>
#include <cuda/std/array>
#include <cuda/std/functional>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

template <class T> T &&dv() noexcept;
struct nat {};
__device__ int g2(int, int);
struct Probe {
  template <class X> static decltype(g2(dv<X>(), 1)) tc(int);
  template <class X> static nat tc(...);
};
struct NoCall {};
template <class T> struct detect { static constexpr bool value = sizeof(decltype(Probe::tc<T>(0))) == sizeof(int); };

namespace lib {
template <typename In, typename Op, typename V = int, typename Acc = long> __device__ Acc reduce(const In &in, Op op);
template <typename T> __device__ constexpr T twice(T x) { return x + x; }
template <typename A, typename B> struct same { static constexpr bool value = false; };
template <typename A> struct same<A, A> { static constexpr bool value = true; };
template <typename In, typename Op, typename V, typename Acc> __device__ Acc reduce(const In &in, Op op) {
  Acc s = 0;
  for (int i = 0; i < 4; i++) s = op(s, (Acc)in[i]);
  return s;
}
}

template <typename T, typename... Ts> __device__ constexpr bool one_of() { return cuda::std::disjunction_v<cuda::std::is_same<T, Ts>...>; }
template <typename C, typename In, cuda::std::size_t... I>
__device__ cuda::std::array<C, sizeof...(I)> to_array(const In &in, cuda::std::index_sequence<I...>) {
  using A = cuda::std::array<C, sizeof...(I)>;
  return A{static_cast<C>(in[I] * 2)...};
}
struct Four { long e[4]; };
template <int... I> __device__ Four four(const int *p) { return Four{static_cast<long>(p[I])...}; }

template <bool> struct sel {};
template <> struct sel<true> { template <class T> using type = T; };
template <bool B, class T = void> using when = typename sel<B>::template type<T>;
template <class T> __device__ when<(sizeof(T) > 2), int> width(T) { return 4; }
template <class T> __device__ when<(sizeof(T) <= 2), int> width(T) { return 2; }

template <class T, class E, class L> struct box {};
template <class E> struct rank1 { static constexpr int rank = 1; };
template <typename T, typename = void> struct fixed : cuda::std::false_type {};
template <typename T, unsigned long N> struct fixed<T[N], void> : cuda::std::true_type {};
template <typename T, typename E, typename L> struct fixed<box<T, E, L>, cuda::std::enable_if_t<E::rank == 1>> : cuda::std::true_type {};

struct Five { __device__ constexpr operator int() const { return 5; } };

template <int B, int K> __global__ void idioms(const int *in, int *out, float4 *v) {
  int t = threadIdx.x, x = in[t];
  int r[12];
  r[0] = detect<int>::value * 10 + detect<NoCall>::value;
  r[1] = cuda::std::__invokable<cuda::std::plus<>, int, int>::value * 10 + cuda::std::is_same<cuda::std::__invokable_r<void, cuda::std::plus<>, int, int>::_Result, int>::value;
  int a[4] = {x, x + 1, x + 2, x + 3};
  r[2] = (int)lib::reduce(a, cuda::std::plus<>{});
  {
    using lib::twice;
    using lib::same;
    r[3] = twice(x) + same<int, int>::value * 1000 + same<int, long>::value * 2000;
  }
  auto arr = to_array<long>(a, cuda::std::make_index_sequence<4>{});
  Four f = four<3, 2, 1, 0>(a);
  r[4] = (int)(arr[3] + f.e[0] * 100);
  r[5] = one_of<int, float, int>() * 10 + one_of<int, float, char>();
  r[6] = width(x) * 10 + width((short)x);
  r[7] = fixed<int[8]>::value * 10 + fixed<int>::value;
  using L = cuda::std::integral_constant<int, 7>;
  r[8] = (L{} >= 4) * 100 + (Five{} + x);
  r[9] = B * 1000 + K;
  r[10] = (int)(L{} * 2);
  r[11] = x;
  for (int k = 0; k < 12; k++) out[t * 12 + k] = r[k];
  v[t] = v[(t + 1) % blockDim.x + blockDim.x];
}

int main() {
  const int T = 32, B = 64, K = B / 4 + 1;
  int h[T], *din, *dout;
  float4 hv[2 * T], *dv4;
  for (int i = 0; i < T; i++) h[i] = i * 7 - 50;
  for (int i = 0; i < 2 * T; i++) hv[i] = make_float4(i, i + 0.5f, -i, i * 2.f);
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, T * 12 * sizeof(int)); cudaMalloc(&dv4, sizeof(hv));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(dv4, hv, sizeof(hv), cudaMemcpyHostToDevice);
  idioms<B, K><<<1, T>>>(din, dout, dv4);
  int r[T * 12];
  float4 rv[2 * T];
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(rv, dv4, sizeof(rv), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = h[t];
    const int e[12] = {10, 11, 4 * x + 6, 2 * x + 1000, 2 * (x + 3) + (x + 3) * 100, 10, 42, 10, 100 + 5 + x, 64017, 14, x};
    for (int k = 0; k < 12; k++)
      if (r[t * 12 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_library_idioms: [%d][%d] = %d, expected %d\n", t, k, r[t * 12 + k], e[k]);
    float4 w = rv[t], want = hv[(t + 1) % T + T];
    if ((w.x != want.x || w.y != want.y || w.z != want.z || w.w != want.w) && bad++ < 5) printf("FAIL cxx2_library_idioms: v[%d]\n", t);
  }
  if (bad) return 1;
  printf("PASS cxx2_library_idioms\n");
  return 0;
}
