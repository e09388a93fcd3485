// <cuda/std/functional> function objects in device templates: plus, minus, multiplies, modulus, negate,
// less, greater_equal, equal_to, logical_and, bit_and/bit_or/bit_xor, folded over cuda::std::array values
// with range-for, and the xvalues cuda::std::forward / move give (a forwarding wrapper with a trailing
// decltype return type passes the functor on). (The transparent plus<> has a member template operator(),
// which ptxd does not read yet.)
#include <cstdio>
#include <cuda/std/functional>
#include <cuda/std/array>
#include <cuda/std/utility>

#define N 128

template <class Op, class T, cuda::std::size_t K>
__device__ T fold(const cuda::std::array<T, K> &a, T init, Op op) {
  T acc = init;
  for (const T &v : a) acc = op(acc, v);
  return acc;
}

// perfect forwarding of the functor and the value
template <class Op, class A, class B>
__device__ auto call_fwd(Op &&op, A &&a, B &&b) -> decltype(op(a, b)) {
  return cuda::std::forward<Op>(op)(cuda::std::forward<A>(a), cuda::std::forward<B>(b));
}

template <class Cmp>
__device__ int count_if_cmp(const cuda::std::array<int, 6> &a, int pivot, Cmp cmp) {
  int n = 0;
  for (int v : a) n += cmp(v, pivot) ? 1 : 0;
  return n;
}

__global__ void functional_kernel(const int *in, int *out, float *fout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = in[i];
  cuda::std::array<int, 6> a = {x, x + 3, -x, 7, x * 2, 5 - x};
  cuda::std::array<float, 3> f = {x * 0.5f, 0.25f, -1.5f};
  out[i * 12 + 0] = fold(a, 0, cuda::std::plus<int>());
  out[i * 12 + 1] = fold(a, 100, cuda::std::minus<int>());
  cuda::std::array<int, 3> m3 = {x % 10, 3, -2};
  out[i * 12 + 2] = fold(m3, 1, cuda::std::multiplies<int>());
  out[i * 12 + 3] = fold(a, -1, cuda::std::bit_and<int>()) ^ fold(a, 0, cuda::std::bit_or<int>());
  out[i * 12 + 4] = fold(a, 0, cuda::std::bit_xor<int>());
  out[i * 12 + 5] = count_if_cmp(a, 3, cuda::std::less<int>()) + 10 * count_if_cmp(a, 3, cuda::std::greater_equal<int>());
  out[i * 12 + 6] = count_if_cmp(a, 7, cuda::std::equal_to<int>()) + 10 * cuda::std::logical_and<bool>()(x > 0, x % 2 == 0);
  out[i * 12 + 7] = cuda::std::modulus<int>()(x + 1000, 7) + cuda::std::negate<int>()(x) * 10;
  out[i * 12 + 8] = call_fwd(cuda::std::plus<int>(), x, 5);
  int y = x * 3;
  out[i * 12 + 9] = call_fwd(cuda::std::minus<int>(), cuda::std::move(y), 4);
  cuda::std::plus<int> p;
  out[i * 12 + 10] = call_fwd(p, 2, 40) + fold(a, 0, p);
  out[i * 12 + 11] = cuda::std::plus<long>()(x, 2) * cuda::std::multiplies<short>()(2, 3);
  fout[i] = fold(f, 1.0f, cuda::std::plus<float>()) + fold(f, 2.0f, cuda::std::multiplies<float>());
}

int main() {
  int h[N], r[N * 12];
  float fr[N];
  for (int i = 0; i < N; i++) h[i] = (i * 37) % 101 - 50;
  int *din, *dout; float *dfout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&dfout, sizeof(fr));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  functional_kernel<<<N / 64, 64>>>(din, dout, dfout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(fr, dfout, sizeof(fr), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    int x = h[i];
    int a[6] = {x, x + 3, -x, 7, x * 2, 5 - x};
    int e[12] = {0, 100, (x % 10) * 3 * -2, 0, 0, 0, 0, (x + 1000) % 7 - x * 10, x + 5, x * 3 - 4, 42, (x + 2) * 6};
    int band = -1, bor = 0;
    for (int k = 0; k < 6; k++) {
      e[0] += a[k]; e[1] -= a[k]; band &= a[k]; bor |= a[k]; e[4] ^= a[k];
      e[5] += (a[k] < 3 ? 1 : 0) + 10 * (a[k] >= 3 ? 1 : 0);
      e[6] += a[k] == 7 ? 1 : 0;
    }
    e[3] = band ^ bor;
    e[6] += 10 * (x > 0 && x % 2 == 0);
    e[10] += e[0];
    for (int k = 0; k < 12; k++)
      if (r[i * 12 + k] != e[k] && bad++ < 5) printf("FAIL cuda_std_functional: [%d][%d] = %d, expected %d\n", i, k, r[i * 12 + k], e[k]);
    float s = 1.0f, m = 2.0f, fv[3] = {x * 0.5f, 0.25f, -1.5f};
    for (int k = 0; k < 3; k++) { s += fv[k]; m *= fv[k]; }
    if (fr[i] != s + m && bad++ < 5) printf("FAIL cuda_std_functional: f[%d] = %g, expected %g\n", i, fr[i], s + m);
  }
  if (bad) return 1;
  printf("PASS cuda_std_functional\n");
  return 0;
}
