// Template metaprogramming that device code uses: member typedefs reached with typename, decltype,
// static constexpr members, recursive class templates with an explicit specialisation ending the
// recursion, a user enable_if-style trait, and a non-type template parameter computed at compile time.
#include <cstdio>

template <int N> struct Factorial { static constexpr int value = N * Factorial<N - 1>::value; };
template <> struct Factorial<0> { static constexpr int value = 1; };

template <typename T> struct Box { typedef T value_type; T v; };

template <bool B, typename T> struct EnableIf {};
template <typename T> struct EnableIf<true, T> { typedef T type; };

template <typename C> __device__ __noinline__ typename C::value_type unbox(const C &c) { return c.v * 2; }

template <typename T, int Len> struct Ring {
  T buf[Len];
  int head;
  __device__ void push(T v) { buf[head] = v; head = (head + 1) % Len; }
  __device__ T sum() const { T s = 0; for (int i = 0; i < Len; i++) s += buf[i]; return s; }
};

__host__ __device__ constexpr int cube(int v) { return v * v * v; }

__global__ void traits(int *iout, float *fout) {
  int i = threadIdx.x;
  Box<float> b; b.v = 1.5f * i;
  Box<int> bi; bi.v = i;
  decltype(bi.v) copy = bi.v + 1;                     // int
  typename Box<float>::value_type f = b.v;
  Ring<int, Factorial<3>::value> r;                   // Len 6
  r.head = 0;
  for (int k = 0; k < 6; k++) r.buf[k] = 0;
  for (int k = 0; k < 8; k++) r.push(k + i);
  int arr[cube(2)];                                    // 8 elements
  iout[i * 5 + 0] = Factorial<5>::value;              // 120
  iout[i * 5 + 1] = unbox(bi);                        // 2i
  iout[i * 5 + 2] = copy;                             // i + 1
  iout[i * 5 + 3] = r.sum();                          // 2+3+4+5+6+7 + 6i = 27 + 6i
  iout[i * 5 + 4] = sizeof(arr) / sizeof(int);        // 8
  fout[i] = unbox(b) + f;                             // 4.5i
}

int main() {
  const int T = 32;
  int *di; float *df;
  cudaMalloc(&di, T * 5 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  traits<<<1, T>>>(di, df);
  int hi[T * 5]; float hf[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[5] = {120, 2 * i, i + 1, 27 + 6 * i, 8};
    for (int k = 0; k < 5; k++) if (hi[i * 5 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_traits: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 5 + k], e[k]); }
    if (hf[i] != 4.5f * i) { if (bad++ < 5) printf("FAIL cxx_traits: f[%d] = %f\n", i, hf[i]); }
  }
  if (bad) return 1;
  printf("PASS cxx_traits\n");
  return 0;
}
