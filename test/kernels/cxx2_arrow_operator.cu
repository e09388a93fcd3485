// `p->m` where p is a class with operator-> (GPUMD's host code through std::unique_ptr): the member of what
// operator-> gives, drilled down through a class that returns another class. In device code, and in host code
// read for the kernel template a class template's member launches (`holder->vec.fill(v)`).
#include <cstdio>
#include <memory>
#include <cuda_runtime.h>

template <typename T> __global__ void gpu_fill(int n, T value, T *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = value;
}

template <typename T> struct DeviceVector {
  T *data = nullptr;
  int n = 0;
  explicit DeviceVector(int size) : n(size) { cudaMalloc((void **)&data, sizeof(T) * size); }
  ~DeviceVector() { cudaFree(data); }
  void fill(T v) { gpu_fill<<<(n + 31) / 32, 32>>>(n, v, data); }
};

struct Holder {
  DeviceVector<double> vec;
  explicit Holder(int n) : vec(n) {}
};

struct Pair { int a, b; };

// device-side smart pointers: one level, and one whose operator-> gives the other (drilled down)
struct Ptr {
  Pair *p;
  __device__ Pair *operator->() const { return p; }
};
struct Outer {
  Ptr inner;
  __device__ Ptr operator->() const { return inner; }
};

__global__ void swapPairs(Pair *ps, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  Ptr p{ps + i};
  Outer o{Ptr{ps + i}};
  int t = p->a;
  p->a = o->b;
  o->b = t;
}

static void fillAll(std::unique_ptr<Holder> &h, double v) { h->vec.fill(v); }

int main() {
  const int n = 40;
  std::unique_ptr<Holder> h(new Holder(n));
  fillAll(h, 2.5);
  double r[n];
  cudaMemcpy(r, h->vec.data, sizeof r, cudaMemcpyDeviceToHost);
  Pair hp[8], rp[8];
  for (int i = 0; i < 8; i++) hp[i] = Pair{i, 10 * i};
  Pair *dp;
  cudaMalloc((void **)&dp, sizeof hp);
  cudaMemcpy(dp, hp, sizeof hp, cudaMemcpyHostToDevice);
  swapPairs<<<1, 8>>>(dp, 8);
  cudaMemcpy(rp, dp, sizeof rp, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < n; i++) ok = ok && r[i] == 2.5;
  for (int i = 0; i < 8; i++) ok = ok && rp[i].a == 10 * i && rp[i].b == i;
  if (!ok) { printf("FAIL cxx2_arrow_operator\n"); return 1; }
  printf("PASS cxx2_arrow_operator\n");
  return 0;
}
