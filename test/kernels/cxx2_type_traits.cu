// The compiler's type-trait intrinsics as device code meets them: directly (__is_trivially_copyable in the
// cooperative-groups shuffle helper's static_assert) and through libstdc++'s <type_traits> and if constexpr.
#include <cstdio>
#include <type_traits>

struct Pod { int a; float b; };
struct Copy { int a; __device__ Copy() : a(0) {} __device__ Copy(const Copy &o) : a(o.a + 1) {} };
struct Virt { virtual __device__ int f() const { return 1; } };
struct Derived : Pod {};
struct Empty {};
struct Final final { int x; };
struct Abstract { virtual __device__ int g() const = 0; };
struct Dtor { int x; __device__ ~Dtor() {} };
union Un { int i; float f; };
enum Colour { Red, Green };

template <typename T> __device__ int describe() {
  static_assert(__is_trivially_copyable(Pod), "a plain struct is trivially copyable");
  int r = 0;
  if constexpr (std::is_trivially_copyable<T>::value) r |= 1;
  if constexpr (std::is_polymorphic<T>::value) r |= 2;
  if constexpr (std::is_empty<T>::value) r |= 4;
  if constexpr (std::is_class<T>::value) r |= 8;
  if constexpr (std::is_union<T>::value) r |= 16;
  if constexpr (std::is_enum<T>::value) r |= 32;
  if constexpr (__has_trivial_destructor(T)) r |= 64;
  if constexpr (std::is_base_of<Pod, T>::value) r |= 128;
  if constexpr (std::is_same<T, Pod>::value) r |= 256;
  return r;
}

__global__ void typeTraits(int *out) {
  int t = threadIdx.x;
  int r[11] = {describe<Pod>(), describe<Copy>(), describe<Virt>(), describe<Derived>(), describe<Empty>(), describe<Un>(),
               describe<Colour>(), describe<Dtor>(), describe<int>(),
               __is_final(Final) + 2 * __is_abstract(Abstract) + 4 * __is_pod(Pod) + 8 * __is_trivial(Copy) + 16 * __has_virtual_destructor(Virt),
               __is_same(int, const int) + 2 * __is_same(unsigned, unsigned int) + 4 * __is_standard_layout(Virt)};
  for (int k = 0; k < 11; k++) out[t * 11 + k] = r[k] + t * 1000;
}

int main() {
  const int T = 4;
  int *d;
  cudaMalloc(&d, T * 11 * sizeof(int));
  typeTraits<<<1, T>>>(d);
  int h[T * 11];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  const int e[11] = {1 | 8 | 64 | 128 | 256, 8 | 64, 2 | 8 | 64, 1 | 8 | 64 | 128, 1 | 4 | 8 | 64, 1 | 16 | 64, 1 | 32 | 64, 8, 1 | 64, 1 | 2 | 4, 2};
  int bad = 0;
  for (int t = 0; t < T; t++)
    for (int k = 0; k < 11; k++)
      if (h[t * 11 + k] != e[k] + t * 1000 && bad++ < 5) printf("FAIL cxx2_type_traits: [%d][%d] = %d, expected %d\n", t, k, h[t * 11 + k], e[k] + t * 1000);
  if (bad) return 1;
  printf("PASS cxx2_type_traits\n");
  return 0;
}
