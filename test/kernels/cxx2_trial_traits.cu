// The type traits that ask whether an expression is well-formed (__is_constructible(T, Args...),
// __is_assignable, __is_convertible and their trivially/nothrow forms), as libstdc++'s <type_traits> and
// libcu++ use them: in static_asserts (checked by the real front end too), in if constexpr, and in
// cuda::std::pair's constrained constructors and assignments. Also GCC's __integer_pack (make_integer_sequence).
#include <cstdio>
#include <type_traits>
#include <utility>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

struct Agg { int x; };
struct Expl { int v; __device__ explicit Expl(int a) : v(a) {} };
struct NoCopy { int v; __device__ NoCopy(int a, float b) : v(a + (int)b) {} NoCopy(const NoCopy &) = delete; };
struct Counted { int v; __device__ Counted() : v(1) {} __device__ Counted(const Counted &o) : v(o.v + 10) {}
                 __device__ Counted &operator=(const Counted &o) { v = o.v + 100; return *this; } };
struct Abs { __device__ virtual int f() const = 0; };
struct ToInt { __device__ operator int() const { return 7; } };
struct ToIntExplicit { __device__ explicit operator int() const { return 8; } };
struct NeedsArg { __device__ NeedsArg(int) {} };
struct ConstMember { const int c = 1; };

static_assert(std::is_constructible<int, float>::value && !std::is_constructible<int *, void *>::value, "scalars");
static_assert(std::is_constructible<const int &, int>::value && !std::is_constructible<int &, int>::value, "references");
static_assert(std::is_constructible<int &&, int>::value && !std::is_constructible<int &&, int &>::value, "rvalue references");
static_assert(std::is_constructible<Expl, int>::value && !std::is_convertible<int, Expl>::value, "explicit constructor");
static_assert(std::is_constructible<NoCopy, int, float>::value && !std::is_copy_constructible<NoCopy>::value, "deleted copy");
static_assert(!std::is_default_constructible<NeedsArg>::value && !std::is_constructible<Abs>::value, "no object");
static_assert(std::is_convertible<ToInt, int>::value && !std::is_convertible<ToIntExplicit, int>::value, "conversion functions");
static_assert(std::is_constructible<int, ToIntExplicit>::value, "explicit conversion in direct initialisation");
static_assert(std::is_convertible<int *, const void *>::value && !std::is_convertible<const void *, int *>::value, "pointers");
static_assert(std::is_assignable<int &, double>::value && !std::is_assignable<int, int>::value && !std::is_assignable<const int &, int>::value, "assignment");
static_assert(std::is_copy_assignable<Counted>::value && !std::is_copy_assignable<ConstMember>::value, "class assignment");
static_assert(std::is_trivially_copy_constructible<Agg>::value && !std::is_trivially_copy_constructible<Counted>::value, "trivial copies");
static_assert(std::is_trivially_default_constructible<Agg>::value && !std::is_trivially_copy_assignable<Counted>::value, "trivial members");
static_assert(cuda::std::is_nothrow_constructible<int, float>::value && cuda::std::is_nothrow_copy_constructible<Agg>::value, "nothrow");
static_assert(std::is_same<std::make_index_sequence<4>, std::index_sequence<0, 1, 2, 3>>::value, "__integer_pack");
static_assert(cuda::std::is_same<cuda::std::make_integer_sequence<int, 0>, cuda::std::integer_sequence<int>>::value, "empty pack");

template <typename T> __device__ int kinds() {
  int r = 0;
  if constexpr (std::is_default_constructible<T>::value) r |= 1;
  if constexpr (std::is_copy_constructible<T>::value) r |= 2;
  if constexpr (std::is_copy_assignable<T>::value) r |= 4;
  if constexpr (std::is_convertible<T, int>::value) r |= 8;
  if constexpr (std::is_constructible<T, int>::value) r |= 16;
  if constexpr (std::is_trivially_copyable<T>::value) r |= 32;
  return r;
}

template <class T, T... Is> __device__ T total(std::integer_sequence<T, Is...>) { T v[] = {Is..., 0}; T s = 0; for (unsigned i = 0; i < sizeof...(Is); i++) s += v[i] * (T)(i + 1); return s; }
template <class T, T... Is> __device__ T total(cuda::std::integer_sequence<T, Is...>) { T v[] = {Is..., 0}; T s = 0; for (unsigned i = 0; i < sizeof...(Is); i++) s += v[i] * (T)(i + 1); return s; }

__global__ void trialTraits(const int *in, int *out, float *fout) {
  int t = threadIdx.x, x = in[t];
  cuda::std::pair<int, float> p(x, 0.5f * x);
  cuda::std::pair<int, float> q = cuda::std::make_pair(x + 1, 2.0f);
  const cuda::std::pair<Agg, int> c0(Agg{x}, 2);
  cuda::std::pair<Agg, int> c(c0), d(c0);
  p = q;
  d.second = 5;
  c = d;
  int r[8] = {kinds<int>(), kinds<Agg>(), kinds<Expl>(), kinds<Counted>(), kinds<ToInt>(), kinds<ConstMember>(),
              total(std::make_integer_sequence<int, 5>{}) + (int)total(cuda::std::make_index_sequence<3>{}),
              p.first + c.first.x * 1000 + c.second * 100000};
  for (int k = 0; k < 8; k++) out[t * 8 + k] = r[k];
  fout[t] = p.second + q.second;
}

int main() {
  const int T = 32;
  int h[T], *din, *dout; float *dfout;
  for (int i = 0; i < T; i++) h[i] = i * 3 - 40;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, T * 8 * sizeof(int)); cudaMalloc(&dfout, T * sizeof(float));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  trialTraits<<<1, T>>>(din, dout, dfout);
  int r[T * 8]; float f[T];
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(f, dfout, sizeof(f), cudaMemcpyDeviceToHost);
  // kinds: int, Agg, Expl, Counted, ToInt (no constructor from int), ConstMember (its copy assignment is deleted); total(0..4 weighted) = 0*1+1*2+2*3+3*4+4*5 = 40, of 0..2: 0+2+6 = 8
  const int e[7] = {1 | 2 | 4 | 8 | 16 | 32, 1 | 2 | 4 | 32, 2 | 4 | 16 | 32, 1 | 2 | 4, 1 | 2 | 4 | 8 | 32, 1 | 2 | 32, 48};
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = h[t];
    for (int k = 0; k < 7; k++)
      if (r[t * 8 + k] != e[k] && bad++ < 5) printf("FAIL cxx2_trial_traits: [%d][%d] = %d, expected %d\n", t, k, r[t * 8 + k], e[k]);
    // p = q; c = d, a copy of c with second = 5
    int e7 = (x + 1) + x * 1000 + 5 * 100000;
    if (r[t * 8 + 7] != e7 && bad++ < 5) printf("FAIL cxx2_trial_traits: [%d][7] = %d, expected %d\n", t, r[t * 8 + 7], e7);
    if (f[t] != 4.0f && bad++ < 5) printf("FAIL cxx2_trial_traits: f[%d] = %g, expected 4\n", t, f[t]);
  }
  if (bad) return 1;
  printf("PASS cxx2_trial_traits\n");
  return 0;
}
