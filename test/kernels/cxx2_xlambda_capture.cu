// nvcc-flags: --extended-lambda
// Extended __device__ lambdas written in host code and passed to a kernel template: captures by value of a
// scalar, a pointer and a small struct, and several lambdas in one function (closure types numbered per
// parameter list: Z4mainEUlfE_, Z4mainEUlfE0_, ...; the host stub names them through cudafe++'s
// __nv_dl_wrapper_t and the vendor encoding Unvdl); a launch naming the kernel's first template argument
// and deducing the closure type (mapAs<float><<<...>>>(lambda, ...)).
#include <cstdio>

struct Affine { float a; int b; };

template <typename F> __global__ void mapf(F f, float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i]);
}

template <typename T, typename F> __global__ void mapAs(F f, T *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i]);
}

int main() {
  const int N = 64;
  float h[N], r[N], w[N];
  for (int i = 0; i < N; i++) h[i] = 0.25f * i - 5.0f;
  float *d, *bias;
  float hb[N];
  for (int i = 0; i < N; i++) hb[i] = (i % 7) - 3.0f;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&bias, sizeof(hb));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(bias, hb, sizeof(hb), cudaMemcpyHostToDevice);
  float s = 1.5f;
  Affine af = {0.5f, 3};
  // a scalar by value
  mapf<<<2, 32>>>([s] __device__ (float x) { return x * s; }, d, N);
  // a pointer and a scalar by value (implicit captures)
  mapf<<<2, 32>>>([=] __device__ (float x) { return x + bias[0] * s; }, d, N);
  // a small struct by value
  mapf<<<2, 32>>>([af] __device__ (float x) { return x * af.a + af.b; }, d, N);
  // no capture
  mapf<<<2, 32>>>([] __device__ (float x) { return x < 0.0f ? -x : x; }, d, N);
  // the element type named, the closure type deduced
  mapAs<float><<<2, 32>>>([s] __device__ (float x) { return x - s; }, d, N);
  cudaMemcpy(r, d, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = h[i] * s;
    x = x + hb[0] * s;
    x = x * af.a + af.b;
    w[i] = (x < 0.0f ? -x : x) - s;
    if (r[i] != w[i]) { printf("FAIL cxx2_xlambda_capture: p[%d] = %f, want %f\n", i, r[i], w[i]); bad = 1; }
  }
  if (bad) return 1;
  printf("PASS cxx2_xlambda_capture\n");
  return 0;
}
