// Member function templates of ordinary classes: deduced and explicit arguments, non-type parameters,
// static member templates, calls through `this` and from a derived class, `.template` in a function
// template, and member templates defined out of line.
#include <cstdio>

struct Scaler {
  int k;
  template <typename T> __device__ T apply(T v) const { return v * k; }
  template <int N> __device__ int shifted(int v) const { return (v << N) + k; }
  template <typename T> __device__ static T square(T v) { return v * v; }
  template <typename T> __device__ T both(T v) const { return apply(v) + square(v); }
  template <typename To, typename From> __device__ To convert(From f) const { return static_cast<To>(f) + static_cast<To>(k); }
  template <typename T> __device__ __noinline__ T clampTo(T v, T lo, T hi) const;
  template <typename T> __device__ void store(T *dst, int i, T v) { dst[i] = v + static_cast<T>(k); }
};
template <typename T> __device__ T Scaler::clampTo(T v, T lo, T hi) const { return v < lo ? lo : v > hi ? hi : v; }

struct Offset : Scaler {
  int off;
  __device__ int run(int v) const { return apply(v) + off; }
};

template <typename S> __device__ int viaTemplate(const S &s, int v) { return s.template shifted<2>(v) + s.template apply<int>(v); }

__global__ void memberTemplates(int *io, float *fo) {
  int i = threadIdx.x;
  Scaler s{3};
  Offset o;
  o.k = 2; o.off = 5;
  io[i * 8 + 0] = s.apply(i);                       // 3i
  io[i * 8 + 1] = s.shifted<3>(i);                  // 8i + 3
  io[i * 8 + 2] = Scaler::square(i) + s.square(2);  // i*i + 4
  io[i * 8 + 3] = s.both(i);                        // 3i + i*i
  io[i * 8 + 4] = s.convert<int>(2.75f);            // 2 + 3
  io[i * 8 + 5] = o.run(i) + o.apply(1);            // 2i + 5 + 2
  io[i * 8 + 6] = viaTemplate(s, i);                // 4i + 3 + 3i
  io[i * 8 + 7] = s.clampTo(i, 4, 20);
  fo[i * 2 + 0] = s.apply(0.5f * i) + s.clampTo(1.25f * i, 2.0f, 30.0f);
  s.store(fo, i * 2 + 1, 0.25f);                    // 3.25
}

int main() {
  const int T = 32;
  int *di; float *df;
  cudaMalloc(&di, T * 8 * sizeof(int)); cudaMalloc(&df, T * 2 * sizeof(float));
  memberTemplates<<<1, T>>>(di, df);
  int hi[T * 8]; float hf[T * 2];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[8] = {3 * i, 8 * i + 3, i * i + 4, 3 * i + i * i, 5, 2 * i + 7, 7 * i + 3, i < 4 ? 4 : i > 20 ? 20 : i};
    for (int k = 0; k < 8; k++) if (hi[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_member_templates: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 8 + k], e[k]); }
    float c = 1.25f * i; c = c < 2.0f ? 2.0f : c > 30.0f ? 30.0f : c;
    float ef = 0.5f * i * 3 + c;
    if (hf[i * 2] != ef) { if (bad++ < 5) printf("FAIL cxx2_member_templates: f[%d] = %f, expected %f\n", i, hf[i * 2], ef); }
    if (hf[i * 2 + 1] != 3.25f) { if (bad++ < 5) printf("FAIL cxx2_member_templates: store[%d] = %f\n", i, hf[i * 2 + 1]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_member_templates\n");
  return 0;
}
