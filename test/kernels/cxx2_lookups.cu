// Lookups third-party code relies on (libcu++'s fpmp: `enum struct fpmp2_accuracy { mid = 2, def = mid }` and
// `atomicAdd(fpmp2<...>*, ...)` declared only in cuda::experimental; Thrust's `using thrust::cuda_cub::par_t;`
// inside an inline namespace): an enumerator of a scoped enum named unqualified inside its own list,
// argument-dependent lookup finding a function and a function template in the namespaces of the arguments'
// classes and of their template arguments, and a using-declaration whose path steps through an inline namespace.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_lookups: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

namespace prec {
enum struct level { low = 1, mid = low + 2, high = mid * 2, def = mid };
enum class wide : unsigned char { a = 7, b = a + 1, c = b << 2 };

template <typename T, level L = level::def>
struct pair2 {
  T hi, lo;
  __device__ explicit pair2(T h) : hi(h), lo(T(static_cast<int>(L))) {}
};

// found only by argument-dependent lookup from the global namespace
template <typename T, level L>
__device__ T combine(const pair2<T, L> &p, T k) { return p.hi * k + p.lo; }

struct tag { int v; };
__device__ int combine(tag t, int k) { return t.v - k; }
}

namespace other {
struct weight { int w; };
}

namespace prec {
// the namespace of a template argument is associated too
template <typename W>
struct box { W item; };
}

namespace other {
template <typename W>
__device__ int unbox(const prec::box<W> &b) { return b.item.w * 3; }
__device__ int unbox(const prec::box<int> &b) { return b.item + 100; }
}

namespace other {
// associated through box<weight>'s template argument: other::weight
template <typename W>
__device__ int weigh(const prec::box<W> &b) { return b.item.w + 5; }
}

namespace lib { inline namespace v2 { namespace impl { struct policy { int k; }; } } }
namespace lib { inline namespace v2 { namespace sys { using lib::impl::policy; } } }
namespace lib { inline namespace v2 { namespace detail { using device_t = lib::sys::policy; } } }

__global__ void kernel(const int *in, int *out, int n) {
  const int t = threadIdx.x;
  if (t >= n) return;
  const int x = in[t];
  prec::pair2<int> p(x);
  prec::pair2<int, prec::level::high> q(x + 1);
  prec::tag g{x * 2};
  prec::box<other::weight> b{{x}};
  out[5 * t] = combine(p, 3);
  out[5 * t + 1] = combine(q, -2);
  out[5 * t + 2] = combine(g, 7);
  out[5 * t + 3] = weigh(b);
  lib::detail::device_t pol{x - 1};
  out[5 * t + 4] = static_cast<int>(prec::wide::c) + static_cast<int>(prec::level::def) + pol.k;
}

int main() {
  const int n = 32;
  int hin[n], hout[5 * n];
  for (int i = 0; i < n; i++) hin[i] = (i * 29) % 31 - 12;
  int *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin)));
  CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<1, n>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    const int x = hin[i];
    const int want[5] = {x * 3 + 3, (x + 1) * -2 + 6, x * 2 - 7, x + 5, 32 + 3 + x - 1};
    for (int j = 0; j < 5; j++)
      if (hout[5 * i + j] != want[j]) { printf("FAIL cxx2_lookups: out[%d][%d] = %d, want %d\n", i, j, hout[5 * i + j], want[j]); return 1; }
  }
  printf("PASS cxx2_lookups\n");
  return 0;
}
