// Kernel parameters named through typedefs and alias declarations (size_t, uint32_t, a typedef of a struct,
// one in a namespace, `using` aliases): the host stub spells each as written, as cicc's does (`size_t`,
// `const hbits *`, `::real *` in the definition, a nested typedef through its mangled alias; cuda_wmma.cu
// has `const half *`).
#include <cstdio>
#include <cstdint>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_typedef_params: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

typedef float real;
typedef unsigned short hbits;
struct Pair { int a, b; };
typedef Pair PairT;
namespace geo { typedef double coord; struct Pt { float x, y; }; using PtAlias = Pt; }
using index_t = int;

__global__ void typedefParams(size_t n, uint32_t *u, const hbits *h, real *r, PairT p, const geo::coord *c, geo::PtAlias pt, index_t k) {
  size_t i = threadIdx.x;
  if (i < n) {
    u[i] = (uint32_t)(i * 3 + p.a + p.b + k);
    r[i] = h[i] * 0.5f + (float)c[i] + pt.x * pt.y;
  }
}

int main() {
  const int N = 32;
  uint32_t *du; hbits *dh; real *dr; geo::coord *dc;
  hbits hh[N]; geo::coord hc[N]; uint32_t hu[N]; real hr[N];
  for (int i = 0; i < N; i++) { hh[i] = (hbits)i; hc[i] = i * 0.25; }
  CK(cudaMalloc(&du, sizeof(hu))); CK(cudaMalloc(&dh, sizeof(hh))); CK(cudaMalloc(&dr, sizeof(hr))); CK(cudaMalloc(&dc, sizeof(hc)));
  CK(cudaMemcpy(dh, hh, sizeof(hh), cudaMemcpyHostToDevice)); CK(cudaMemcpy(dc, hc, sizeof(hc), cudaMemcpyHostToDevice));
  PairT p = {5, 7};
  geo::PtAlias pt = {1.5f, 2.0f};
  typedefParams<<<1, N>>>((size_t)N, du, dh, dr, p, dc, pt, 100);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hu, du, sizeof(hu), cudaMemcpyDeviceToHost)); CK(cudaMemcpy(hr, dr, sizeof(hr), cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; i++) {
    if (hu[i] != (uint32_t)(i * 3 + 12 + 100) || hr[i] != i * 0.5f + (float)(i * 0.25) + 3.0f) { printf("FAIL cxx2_typedef_params: [%d] = %u %g\n", i, hu[i], hr[i]); return 1; }
  }
  printf("PASS cxx2_typedef_params\n");
  return 0;
}
