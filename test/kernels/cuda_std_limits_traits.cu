// <cuda/std/limits> and <cuda/std/type_traits> in device templates: numeric_limits<T> (max, min, lowest,
// epsilon, digits, is_signed; double's constants are long double literals converted to double), the
// variable templates is_same_v / is_integral_v / is_floating_point_v / is_unsigned_v (partial
// specialisations included) in if constexpr and template arguments, conditional_t and enable_if_t.
#include <cstdio>
#include <cuda/std/limits>
#include <cuda/std/type_traits>

#define N 64

// saturate x to the range of T, with the bounds from numeric_limits
template <class T> __device__ T saturate(long long x) {
  if constexpr (cuda::std::is_unsigned_v<T>) {
    if (x < 0) return 0;
    return x > (long long)cuda::std::numeric_limits<T>::max() ? cuda::std::numeric_limits<T>::max() : (T)x;
  } else {
    if (x < (long long)cuda::std::numeric_limits<T>::min()) return cuda::std::numeric_limits<T>::min();
    return x > (long long)cuda::std::numeric_limits<T>::max() ? cuda::std::numeric_limits<T>::max() : (T)x;
  }
}

// a code for what T is, decided at compile time
template <class T> __device__ int kind() {
  if constexpr (cuda::std::is_same_v<T, float>) return 1;
  else if constexpr (cuda::std::is_floating_point_v<T>) return 2;
  else if constexpr (cuda::std::is_integral_v<T> && cuda::std::numeric_limits<T>::is_signed) return 10 + cuda::std::numeric_limits<T>::digits;
  else return 100 + cuda::std::numeric_limits<T>::digits;
}

// the wider of two integer types
template <class A, class B> using wider_t = cuda::std::conditional_t<(sizeof(A) >= sizeof(B)), A, B>;

template <class T, cuda::std::enable_if_t<cuda::std::is_floating_point<T>::value, int> = 0>
__device__ T next_up(T x) { return x + x * cuda::std::numeric_limits<T>::epsilon(); }

template <int Bits> struct Sized { static constexpr int value = cuda::std::is_same_v<cuda::std::conditional_t<(Bits > 32), long long, int>, int> ? 4 : 8; };

__global__ void limits_kernel(const int *in, long long *out, float *fout, double *dout) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  long long x = (long long)in[i] * in[i] * (in[i] % 7 - 3);
  out[i * 8 + 0] = saturate<signed char>(x);
  out[i * 8 + 1] = saturate<unsigned char>(x);
  out[i * 8 + 2] = saturate<short>(x);
  out[i * 8 + 3] = saturate<unsigned short>(x);
  out[i * 8 + 4] = kind<float>() + kind<double>() * 10 + kind<int>() * 100 + kind<unsigned>() * 10000;
  out[i * 8 + 5] = (long long)sizeof(wider_t<short, long long>) * 100 + sizeof(wider_t<int, char>) * 10 + Sized<64>::value + Sized<16>::value * 1000;
  out[i * 8 + 6] = cuda::std::numeric_limits<long long>::max() - x * x;
  out[i * 8 + 7] = (long long)cuda::std::numeric_limits<unsigned>::max() + cuda::std::numeric_limits<int>::lowest();
  float f = in[i] * 0.125f;
  fout[i * 3 + 0] = next_up(f);
  fout[i * 3 + 1] = f > 0 ? cuda::std::numeric_limits<float>::max() : cuda::std::numeric_limits<float>::lowest();
  fout[i * 3 + 2] = cuda::std::numeric_limits<float>::min() * f;
  double d = in[i] * 0.375;
  dout[i * 3 + 0] = next_up(d);
  dout[i * 3 + 1] = d > 0 ? cuda::std::numeric_limits<double>::max() : cuda::std::numeric_limits<double>::lowest();
  dout[i * 3 + 2] = cuda::std::numeric_limits<double>::min() * d + cuda::std::numeric_limits<double>::epsilon();
}

template <class T> static long long sat(long long x, long long lo, long long hi) { return x < lo ? lo : x > hi ? hi : x; }

int main() {
  int h[N];
  long long r[N * 8];
  float fr[N * 3];
  double dr[N * 3];
  for (int i = 0; i < N; i++) h[i] = (i * 53) % 97 - 48;
  int *din; long long *dout; float *dfout; double *ddout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&dfout, sizeof(fr)); cudaMalloc(&ddout, sizeof(dr));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  limits_kernel<<<N / 32, 32>>>(din, dout, dfout, ddout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(fr, dfout, sizeof(fr), cudaMemcpyDeviceToHost);
  cudaMemcpy(dr, ddout, sizeof(dr), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    long long x = (long long)h[i] * h[i] * (h[i] % 7 - 3);
    long long e[8] = {sat<int>(x, -128, 127), sat<int>(x, 0, 255), sat<int>(x, -32768, 32767), sat<int>(x, 0, 65535),
                      1 + 20 + 4100 + 1320000, 800 + 40 + 8 + 4000, 9223372036854775807LL - x * x, 4294967295LL - 2147483648LL};
    for (int k = 0; k < 8; k++)
      if (r[i * 8 + k] != e[k] && bad++ < 5) printf("FAIL cuda_std_limits_traits: [%d][%d] = %lld, expected %lld\n", i, k, r[i * 8 + k], e[k]);
    float f = h[i] * 0.125f;
    float ef[3] = {f + f * 1.19209290e-7f, f > 0 ? 3.40282347e+38f : -3.40282347e+38f, 1.17549435e-38f * f};
    for (int k = 0; k < 3; k++)
      if (fr[i * 3 + k] != ef[k] && bad++ < 5) printf("FAIL cuda_std_limits_traits: f[%d][%d] = %g, expected %g\n", i, k, fr[i * 3 + k], ef[k]);
    double d = h[i] * 0.375;
    double ed[3] = {d + d * 2.2204460492503131e-16, d > 0 ? 1.7976931348623157e+308 : -1.7976931348623157e+308, 2.2250738585072014e-308 * d + 2.2204460492503131e-16};
    for (int k = 0; k < 3; k++)
      if (dr[i * 3 + k] != ed[k] && bad++ < 5) printf("FAIL cuda_std_limits_traits: d[%d][%d] = %g, expected %g\n", i, k, dr[i * 3 + k], ed[k]);
  }
  if (bad) return 1;
  printf("PASS cuda_std_limits_traits\n");
  return 0;
}
