// The CRTP "range adaptor closure" shape of libcu++ (cuda/std/__ranges/range_adaptor.h): a class template whose
// non-type parameters default through `enable_if_t<is_class_v<T>, int> = 0` and
// `enable_if_t<is_same_v<T, remove_cv_t<T>>, int> = 0` (one '>>' closes two argument lists of the parameter's
// type), derived from by the very class it names (`struct add_fn : closure<add_fn>`: is_class_v of a class
// whose body is still being read), with a pipe operator over the closure and a wrapper that is both the
// function object and a closure of itself. (A pipe operator taking `const closure<F> &` is not read yet:
// is_class_v<F> with F still a parameter, while deducing.)
#include <cstdio>
#include <cuda/std/type_traits>
#include <cuda/std/utility>

#define N 128

template <class T, cuda::std::enable_if_t<cuda::std::is_class_v<T>, int> = 0,
          cuda::std::enable_if_t<cuda::std::is_same_v<T, cuda::std::remove_cv_t<T>>, int> = 0>
struct closure {};

// `x | f` is `f(x)` for any closure (the base is named through the derived class's own type)
template <class F>
__device__ int operator|(int x, const F &f) {
  const closure<F> &c = f;
  return static_cast<const F &>(c)(x);
}

struct add_fn : closure<add_fn> {
  int k;
  __device__ int operator()(int x) const { return x + k; }
};

struct twice_fn : closure<twice_fn> {
  __device__ int operator()(int x) const { return 2 * x; }
};

// a function object made into a closure: derives from it and from the closure of itself
template <class Fn>
struct pipeable : Fn, closure<pipeable<Fn>> {
  __device__ explicit pipeable(Fn f) : Fn(cuda::std::move(f)) {}
};

struct square { __device__ int operator()(int x) const { return x * x; } };

template <class T, cuda::std::enable_if_t<cuda::std::is_same_v<T, cuda::std::remove_cv_t<T>>, int> = 0>
__device__ int tag_of(T) { return 1; }

__global__ void closure_kernel(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  add_fn add{{}, 7};
  out[i * 4 + 0] = x | add;
  out[i * 4 + 1] = x | twice_fn{} | add;
  out[i * 4 + 2] = (x % 50) | pipeable<square>(square{}) | twice_fn{};
  out[i * 4 + 3] = tag_of(x) + (cuda::std::is_class_v<add_fn> ? 10 : 0);
}

int main() {
  int h[N], r[N * 4];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  closure_kernel<<<N / 64, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int x = h[i], s = x % 50;
    int e[4] = {x + 7, 2 * x + 7, 2 * s * s, 11};
    for (int k = 0; k < 4; k++)
      if (r[i * 4 + k] != e[k] && bad++ < 5) printf("FAIL cuda_std_crtp_closure: [%d][%d] = %d, expected %d\n", i, k, r[i * 4 + k], e[k]);
  }
  if (bad) return 1;
  printf("PASS cuda_std_crtp_closure\n");
  return 0;
}
