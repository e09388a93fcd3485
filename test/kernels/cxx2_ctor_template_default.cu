// A constructor template can be the default constructor, beside a copy and a move constructor: libstdc++'s
// `template <class _Del = _Dp, class = _DeleterConstraint<_Del>> unique_ptr()`. Its default template argument
// names the class template's own parameter. GPUMD's Fitness holds a std::unique_ptr member and launches a kernel
// template through a member of a class template: ptxd read the constructor's implicit member initialisation
// (and, in device code, Box's default construction below) as "no instance of overloaded function".
// `Holder h(int(threadIdx.x))` declares an object (a member access cannot be in a declarator): ptxd read it as a
// function declaration and reported "expected a type specifier".
#include <cstdio>
#include <memory>
#include <type_traits>
#include <cuda_runtime.h>

template <class T, class Tag = int> struct Box {
  T v;
  template <class U = T, class = typename std::enable_if<std::is_default_constructible<U>::value>::type>
  __device__ Box() : v(T(7)) {}
  __device__ Box(const Box &o) : v(o.v + 1) {}
  __device__ Box(Box &&o) : v(o.v + 2) {}
};

struct Holder {
  Box<float> a;   // default-constructed by the template above
  int n;
  __device__ explicit Holder(int k) : n(k) {}
};

__global__ void boxes(float *out) {
  Box<float> b;             // 7
  Box<float> c(b);          // 8 (the copy constructor, not the template)
  Holder h(int(threadIdx.x));
  out[threadIdx.x] = b.v + c.v * 10.0f + h.a.v * 100.0f + h.n * 1000.0f;
}

template <typename T> __global__ void fill(T *p, T v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

template <typename T> struct DeviceVec {
  T *d = nullptr;
  int n = 0;
  void fill_with(T v) { fill<<<1, 32>>>(d, v, n); }
};

struct Model { virtual ~Model() {} virtual float scale() const { return 3.0f; } };

// host code: the constructor default-constructs `model` (a unique_ptr) and launches fill<float> through DeviceVec
struct Fitness {
  Fitness(float *d, int n);
  DeviceVec<float> vec;
  std::unique_ptr<Model> model;
};
Fitness::Fitness(float *d, int n) {
  vec.d = d; vec.n = n;
  model.reset(new Model);
  vec.fill_with(model->scale());
}

int main() {
  float *d, h[4];
  cudaMalloc(&d, sizeof h);
  boxes<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < 4; i++) ok = ok && h[i] == 7.0f + 80.0f + 700.0f + 1000.0f * i;
  Fitness f(d, 4);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) ok = ok && h[i] == 3.0f;
  if (!ok) { printf("FAIL cxx2_ctor_template_default %f %f\n", h[0], h[3]); return 1; }
  printf("PASS cxx2_ctor_template_default\n");
  return 0;
}
