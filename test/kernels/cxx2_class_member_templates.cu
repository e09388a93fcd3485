// Member function templates of class templates: the class's arguments are bound, the member's deduced or
// given; out-of-line definitions (`template <class T> template <class U> ...`), converting "constructors"
// as static factories, and member templates taking other specialisations of the same class template.
#include <cstdio>

template <typename T, int N>
struct Vec {
  T d[N];
  template <typename U> __device__ static Vec from(const U *src, int stride) { Vec r; for (int i = 0; i < N; i++) r.d[i] = static_cast<T>(src[i * stride]); return r; }
  template <typename U> __device__ Vec<U, N> cast() const { Vec<U, N> r; for (int i = 0; i < N; i++) r.d[i] = static_cast<U>(d[i]); return r; }
  template <typename U> __device__ __noinline__ T dot(const Vec<U, N> &o) const;
  template <typename F> __device__ Vec map(F f) const { Vec r; for (int i = 0; i < N; i++) r.d[i] = f(d[i]); return r; }
  template <int K> __device__ T get() const { static_assert(K < N, "index"); return d[K]; }
  __device__ T sum() const { T s = T(); for (int i = 0; i < N; i++) s += d[i]; return s; }
};
template <typename T, int N> template <typename U>
__device__ T Vec<T, N>::dot(const Vec<U, N> &o) const { T s = T(); for (int i = 0; i < N; i++) s += d[i] * static_cast<T>(o.d[i]); return s; }

struct Halve { __device__ float operator()(float x) const { return x * 0.5f; } };

template <typename T> struct Acc {
  T total;
  template <typename U> __device__ Acc &add(U v) { total += static_cast<T>(v); return *this; }
  template <typename U, typename V> __device__ T mix(U a, V b) const { return total + static_cast<T>(a) * static_cast<T>(b); }
};

__global__ void classMemberTemplates(const int *in, int *io, float *fo) {
  int i = threadIdx.x;
  Vec<float, 4> v = Vec<float, 4>::from(in + i, 32);   // in[i], in[i+32], in[i+64], in[i+96]
  Vec<int, 4> w = v.cast<int>();
  fo[i * 3 + 0] = v.dot(w);
  fo[i * 3 + 1] = v.map(Halve()).sum();
  fo[i * 3 + 2] = v.get<2>() + w.get<3>();
  Acc<int> a{i};
  a.add(2.9f).add(3).add('a');                       // i + 2 + 3 + 97
  io[i * 3 + 0] = a.total;
  io[i * 3 + 1] = a.mix(2, 1.5);                      // total + 2 * 1
  io[i * 3 + 2] = w.dot(v) + Acc<float>{0.5f}.mix(i, 2);
}

int main() {
  const int T = 32;
  int hin[T * 4];
  for (int j = 0; j < T * 4; j++) hin[j] = (j * 7) % 23 - 11;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 3 * sizeof(int)); cudaMalloc(&df, T * 3 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  classMemberTemplates<<<1, T>>>(din, di, df);
  int hi[T * 3]; float hf[T * 3];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    float v[4]; int w[4];
    for (int k = 0; k < 4; k++) { v[k] = (float)hin[i + 32 * k]; w[k] = (int)v[k]; }
    float dot = 0, half = 0; int idot = 0;
    for (int k = 0; k < 4; k++) { dot += v[k] * (float)w[k]; half += v[k] * 0.5f; idot += w[k] * (int)v[k]; }
    float ef[3] = {dot, half, v[2] + (float)w[3]};
    int total = i + 2 + 3 + 97;
    float mixf = 0.5f + (float)i * 2.0f;
    int ei[3] = {total, total + 2, idot + (int)mixf};
    for (int k = 0; k < 3; k++) if (hf[i * 3 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_class_member_templates: f[%d][%d] = %f, expected %f\n", i, k, hf[i * 3 + k], ef[k]); }
    for (int k = 0; k < 3; k++) if (hi[i * 3 + k] != ei[k]) { if (bad++ < 5) printf("FAIL cxx2_class_member_templates: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 3 + k], ei[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_class_member_templates\n");
  return 0;
}
