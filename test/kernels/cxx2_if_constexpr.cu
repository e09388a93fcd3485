// `if constexpr` in templates: the discarded statement is not instantiated, so it may be ill-formed for the
// template arguments (a member the type lacks, a failing static_assert, recursion that would never end), in
// else-if chains, nested, without braces, and a constexpr condition outside templates.
#include <cstdio>
#include <type_traits>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_if_constexpr: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Vec { float x, y; };
template <class T> struct always_false : std::false_type {};

template <class T> __device__ float weigh(const T &v) {
  if constexpr (std::is_same_v<T, Vec>) return v.x * 2 + v.y;          // only a Vec has .x
  else if constexpr (std::is_integral_v<T>) return (float)(v * 3);
  else if constexpr (std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) == 8) return (float)(v / 2);
    else return v / 4;
  } else {
    static_assert(always_false<T>::value, "no weight for this type");
    return 0;
  }
}

template <int N> __device__ int sumTo() {
  if constexpr (N > 0) return N + sumTo<N - 1>();                       // sumTo<-1> is never named
  else return 0;
}

template <class T> __device__ int bits(T v) {
  int r = 0;
  if constexpr (sizeof(T) > 4)
    for (int i = 0; i < 64; i += 8) r += (int)((v >> i) & 1);
  else
    for (int i = 0; i < 32; i += 4) r += (int)((v >> i) & 1);
  return r;
}

constexpr bool kWide = sizeof(long) == 8;

__global__ void ifConstexpr(const int *in, float *fout, int *iout) {
  int t = threadIdx.x;
  int x = in[t];
  Vec v = {0.5f * x, 1.0f};
  fout[t * 4 + 0] = weigh(v);
  fout[t * 4 + 1] = weigh(x);
  fout[t * 4 + 2] = weigh((double)x);
  fout[t * 4 + 3] = weigh(0.5f * x);
  iout[t * 3 + 0] = sumTo<10>() + x;
  iout[t * 3 + 1] = bits((long long)x * 0x100000001ll) * 100 + bits((unsigned)x);
  if constexpr (kWide) iout[t * 3 + 2] = x * 2; else iout[t * 3 + 2] = -1;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int i = 0; i < T; i++) hin[i] = i * 29 - 400;
  int *din, *di; float *df;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&df, T * 4 * sizeof(float))); CK(cudaMalloc(&di, T * 3 * sizeof(int)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  ifConstexpr<<<1, T>>>(din, df, di);
  CK(cudaGetLastError());
  float hf[T * 4]; int hi[T * 3];
  CK(cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int x = hin[t];
    long long w = (long long)x * 0x100000001ll;
    int b64 = 0, b32 = 0;
    for (int i = 0; i < 64; i += 8) b64 += (int)((w >> i) & 1);
    for (int i = 0; i < 32; i += 4) b32 += (int)(((unsigned)x >> i) & 1);
    float ef[4] = {0.5f * x * 2 + 1.0f, (float)(x * 3), (float)((double)x / 2), 0.5f * x / 4};
    int ei[3] = {55 + x, b64 * 100 + b32, x * 2};
    for (int k = 0; k < 4; k++) if (hf[t * 4 + k] != ef[k] && bad++ < 5) printf("FAIL cxx2_if_constexpr: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 4 + k], ef[k]);
    for (int k = 0; k < 3; k++) if (hi[t * 3 + k] != ei[k] && bad++ < 5) printf("FAIL cxx2_if_constexpr: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 3 + k], ei[k]);
  }
  if (bad) return 1;
  printf("PASS cxx2_if_constexpr\n");
  return 0;
}
