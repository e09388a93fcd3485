// The noexcept operator in device code (libcu++'s is_nothrow_constructible is `noexcept(T(declval<Args>()...))`):
// constructors, functions and member functions declared noexcept, noexcept(true) or throw() against ones declared
// without, trivial defaulted constructors, declval's stand-ins, plain arithmetic; each answer a constant.
#include <cstdio>

struct A { int v; __device__ A(int x) noexcept : v(x) {} };
struct B { int v; __device__ B(int x) : v(x) {} };
struct T { int v; T() = default; };
struct M { int v; __device__ int get() const noexcept(true) { return v; } __device__ int put(int x) { return v = x; } };
__device__ int g(int) noexcept;
__device__ int h(int);
__device__ int w(int) throw();
template <class X> X &&fake() noexcept;
template <class X, class... Args> struct nothrow_ctor { static constexpr bool value = noexcept(X(fake<Args>()...)); };

__global__ void noexceptOp(const int *in, int *out) {
  int t = threadIdx.x;
  M m{in[t]};
  int bits = noexcept(A(1)) | noexcept(B(1)) << 1 | noexcept(g(in[t])) << 2 | noexcept(h(1)) << 3 | noexcept(in[t] + 1) << 4
           | noexcept(m.get()) << 5 | noexcept(m.put(2)) << 6 | noexcept(w(3)) << 7 | nothrow_ctor<A, int>::value << 8
           | nothrow_ctor<B, int>::value << 9 | nothrow_ctor<T>::value << 10;
  static_assert(noexcept(A(2)) && !noexcept(B(2)), "constant");
  out[t] = bits * 2 + m.get();
}

int main() {
  const int n = 32;
  int hin[n], hout[n];
  for (int j = 0; j < n; j++) hin[j] = j * 3 - 7;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, sizeof(hout));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  noexceptOp<<<1, n>>>(din, dout);
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  const int bits = 1 | 4 | 16 | 32 | 128 | 256 | 1024;
  for (int t = 0; t < n; t++)
    if (hout[t] != bits * 2 + hin[t]) { printf("FAIL cxx2_noexcept_op: t=%d got %d want %d\n", t, hout[t], bits * 2 + hin[t]); return 1; }
  printf("PASS cxx2_noexcept_op\n");
  return 0;
}
