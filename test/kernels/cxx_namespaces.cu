// Namespaces in C++ device code: nested and anonymous namespaces, using-declarations and
// using-directives, namespace aliases, qualified calls into classes and enums, auto and decltype-free
// deduction of class types, static members reached through a qualified name.
#include <cstdio>

namespace geo {
namespace detail { __device__ __noinline__ float sq(float v) { return v * v; } }
struct Point {
  float x, y;
  __device__ float norm2() const { return detail::sq(x) + detail::sq(y); }
  static __device__ Point origin() { Point p; p.x = 0; p.y = 0; return p; }
};
enum class Axis : int { X = 1, Y = 2 };
__device__ float along(const Point &p, Axis a) { return a == Axis::X ? p.x : p.y; }
}

namespace {
__device__ int hidden(int v) { return v + 1000; }
__device__ int anonCounter;
}

namespace g = geo;
using geo::Point;

__device__ int useDirective(int v) {
  using namespace geo::detail;
  return (int)sq((float)v);
}

__global__ void namespaces(float *fout, int *iout) {
  int i = threadIdx.x;
  Point p = {3.0f, 4.0f * i};
  auto o = Point::origin();
  auto q = g::Point{1.0f, 2.0f};
  fout[i * 4 + 0] = p.norm2();                              // 9 + 16 i^2
  fout[i * 4 + 1] = g::along(p, g::Axis::Y);                // 4i
  fout[i * 4 + 2] = o.x + q.y;                              // 2
  fout[i * 4 + 3] = (float)static_cast<int>(geo::Axis::Y);  // 2
  if (i == 0) anonCounter = 7;
  iout[i * 2 + 0] = hidden(i);
  iout[i * 2 + 1] = useDirective(i);
}

int main() {
  const int T = 32;
  float *df; int *di;
  cudaMalloc(&df, T * 4 * sizeof(float)); cudaMalloc(&di, T * 2 * sizeof(int));
  namespaces<<<1, T>>>(df, di);
  float hf[T * 4]; int hi[T * 2];
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    float e[4] = {9.0f + 16.0f * i * i, 4.0f * i, 2.0f, 2.0f};
    for (int k = 0; k < 4; k++) if (hf[i * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_namespaces: f[%d][%d] = %f, expected %f\n", i, k, hf[i * 4 + k], e[k]); }
    if (hi[i * 2] != i + 1000 || hi[i * 2 + 1] != i * i) { if (bad++ < 5) printf("FAIL cxx_namespaces: i[%d] = %d %d\n", i, hi[i * 2], hi[i * 2 + 1]); }
  }
  if (bad) return 1;
  printf("PASS cxx_namespaces\n");
  return 0;
}
