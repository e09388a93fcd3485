// Member alias templates (`template <class A, class B> using Select = A;` inside a class, named as
// `typename IfImpl<C>::template Select<A, B>` and unqualified inside the class), an alias declaration
// that defines an unscoped enum (`using Mode = enum Mode { ... };`, as libcu++'s memory_order), the
// __underlying_type trait, and non-type template parameters whose type is an alias template (SFINAE:
// `template <class T, if_integral_t<T> = 0>`), with `typename enable_if<false, T>::type` dropping a candidate.
#include <cstdio>
#include <type_traits>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_member_alias: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

template <bool C> struct IfImpl;
template <> struct IfImpl<true> { template <class A, class B> using Select = A; };
template <> struct IfImpl<false> { template <class A, class B> using Select = B; };
template <bool C, class A, class B> using If = typename IfImpl<C>::template Select<A, B>;

template <class T> struct Widen {
  template <class U> using Pair = If<(sizeof(U) > sizeof(T)), U, T>;
  __device__ static Pair<long long> twice(T x) { return (Pair<long long>)x * 2; }
};

namespace lib { inline namespace v1 {
using Mode = enum Mode { fast = 1, exact = 4, };
}}
namespace user { constexpr lib::Mode chosen = ::lib::v1::exact; }

enum class Small : unsigned char { a = 200 };
enum Wide : long long { w = 1ll << 40 };

template <class T> using if_integral_t = typename std::enable_if<std::is_integral<T>::value, int>::type;
template <class T> using if_floating_t = typename std::enable_if<std::is_floating_point<T>::value, int>::type;
template <class T, if_integral_t<T> = 0> __device__ int kind(T) { return 1; }
template <class T, if_floating_t<T> = 0> __device__ int kind(T) { return 2; }
template <class T> __device__ typename std::enable_if<(sizeof(T) > 4), int>::type big(T) { return 8; }
template <class T> __device__ typename std::enable_if<(sizeof(T) <= 4), int>::type big(T) { return 4; }

// a class template whose member's type uses sizeof in its template arguments (cooperative groups' sliced
// shuffle helper): `helper<count - sizeof(int)> next;` is a data member, not a member function
template <unsigned count, bool intSized = (count <= sizeof(int))> struct Sliced;
template <unsigned count> struct Sliced<count, true> { int val; __device__ void add(int d) { val += d; } };
template <unsigned count> struct Sliced<count, false> {
  int val;
  Sliced<count - sizeof(int)> next;
  __device__ void add(int d) { val += d; next.add(d + 1); }
};

__global__ void sliced(const int *in, int *out) {
  int t = threadIdx.x;
  Sliced<12> s;
  s.val = in[t]; s.next.val = 2 * in[t]; s.next.next.val = 3;
  s.add(t);
  out[t] = s.val * 10000 + s.next.val * 100 + s.next.next.val + (int)sizeof(s);
}

__global__ void memberAlias(const int *in, long long *out) {
  int t = threadIdx.x;
  int x = in[t];
  If<true, int, float> a = x / 2;              // int
  If<false, int, float> b = x / 2;             // float: x / 2 is still an int division
  out[t * 8 + 0] = a + (long long)(b * 4.0f);
  out[t * 8 + 1] = Widen<int>::twice(x + 2000000000);          // long long: no overflow
  out[t * 8 + 2] = sizeof(Widen<long long>::Pair<short>) * 10 + sizeof(Widen<char>::Pair<short>);
  out[t * 8 + 3] = user::chosen * 100 + lib::fast + (int)lib::v1::Mode::exact;
  out[t * 8 + 4] = sizeof(__underlying_type(Small)) * 10 + sizeof(std::underlying_type<Wide>::type);
  out[t * 8 + 5] = (long long)(std::underlying_type<Small>::type)Small::a + (w >> 38);
  out[t * 8 + 6] = kind(x) * 100 + kind(1.5f * x) * 10 + kind((char)x);
  out[t * 8 + 7] = big(x) * 10 + big((long long)x);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int i = 0; i < T; i++) hin[i] = i * 37 - 500;
  int *din; long long *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, T * 8 * sizeof(long long)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  memberAlias<<<1, T>>>(din, dout);
  CK(cudaGetLastError());
  long long h[T * 8];
  CK(cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = hin[t];
    long long e[8] = {x / 2 + (long long)((float)(x / 2) * 4.0f), ((long long)x + 2000000000) * 2, 8 * 10 + 2, 400 + 1 + 4,
                      1 * 10 + 8, 200 + 4, 100 + 20 + 1, 4 * 10 + 8};
    for (int k = 0; k < 8; k++)
      if (h[t * 8 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_member_alias: [%d][%d] = %lld, expected %lld\n", t, k, h[t * 8 + k], e[k]);
  }
  int *dsl, hs[T];
  CK(cudaMalloc(&dsl, sizeof(hs)));
  sliced<<<1, T>>>(din, dsl);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hs, dsl, sizeof(hs), cudaMemcpyDeviceToHost));
  for (int t = 0; t < T; t++) {
    int want = (hin[t] + t) * 10000 + (2 * hin[t] + t + 1) * 100 + 3 + t + 2 + 12;
    if (hs[t] != want && bad++ < 5) printf("FAIL cxx2_member_alias: sliced[%d] = %d, expected %d\n", t, hs[t], want);
  }
  if (bad) return 1;
  printf("PASS cxx2_member_alias\n");
  return 0;
}
