// Overloads selected by substitution failure: an EnableIf<cond, T> trait (partial specialisation) in
// return types and template parameters, traits classes with static constants, tag dispatch on
// IntegralConstant, and a function template that exists only for types with a member typedef.
#include <cstdio>

template <bool B, typename T = void> struct EnableIf {};
template <typename T> struct EnableIf<true, T> { typedef T type; };
template <typename T, T V> struct IntegralConstant { static const T value = V; };
typedef IntegralConstant<bool, true> TrueType;
typedef IntegralConstant<bool, false> FalseType;
template <typename T> struct IsFloat : FalseType {};
template <> struct IsFloat<float> : TrueType {};
template <> struct IsFloat<double> : TrueType {};

template <typename T> __device__ typename EnableIf<IsFloat<T>::value, int>::type classify(T) { return 1; }
template <typename T> __device__ typename EnableIf<!IsFloat<T>::value, int>::type classify(T) { return 2; }

template <typename T, typename EnableIf<(sizeof(T) > 4), int>::type = 0> __device__ int width(T) { return 8; }
template <typename T, typename EnableIf<(sizeof(T) <= 4), int>::type = 0> __device__ int width(T) { return 4; }

template <typename T> __device__ T halve(T v, TrueType) { return v * T(0.5); }
template <typename T> __device__ T halve(T v, FalseType) { return v >> 1; }
template <typename T> __device__ T halve(T v) { return halve(v, IntegralConstant<bool, IsFloat<T>::value>()); }

struct WithTag { typedef int tag; int v; };
template <typename T> __device__ typename T::tag tagged(const T &x) { return x.v * 3; }
__device__ int tagged(long) { return -1; }   // the fallback when T::tag does not exist

__global__ void enableIf(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  int v = in[t];
  io[t * 5 + 0] = classify(v) * 10 + classify(1.5f) + classify(2.0) * 100;     // 2*10 + 1 + 100
  io[t * 5 + 1] = width(v) + width(1.0) * 10 + width('c') * 100;
  io[t * 5 + 2] = halve(v * 4);
  WithTag w{v};
  io[t * 5 + 3] = tagged(w) + tagged(5) * 1000;
  io[t * 5 + 4] = IsFloat<float>::value + IsFloat<int>::value * 2 + IntegralConstant<int, 7>::value * 4;
  fo[t] = halve(1.5f * v);
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 13 - 6;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 5 * sizeof(int)); cudaMalloc(&df, T * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  enableIf<<<1, T>>>(din, di, df);
  int hi[T * 5]; float hf[T];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int e[5] = {121, 4 + 80 + 400, (v * 4) >> 1, v * 3 - 1000, 1 + 28};
    for (int k = 0; k < 5; k++) if (hi[t * 5 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_enable_if: [%d][%d] = %d, expected %d\n", t, k, hi[t * 5 + k], e[k]); }
    if (hf[t] != 1.5f * v * 0.5f) { if (bad++ < 5) printf("FAIL cxx2_enable_if: f[%d] = %f\n", t, hf[t]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_enable_if\n");
  return 0;
}
