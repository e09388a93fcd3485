// Class templates deriving from dependent bases: members of the base reached through this-> and
// Base<T>::, a chain of mixins each adding a member template, static members of the bases, a
// member function template of a base called on the derived object, and a base constructed through an
// alias template named with a leading `::` in a mem-initializer.
#include <cstdio>

template <typename T> struct Storage {
  T items[4];
  int used;
  static const int capacity = 4;
  __device__ void add(T v) { if (used < capacity) items[used++] = v; }
};
template <typename T> struct Summing : Storage<T> {
  __device__ explicit Summing(int preset) { this->used = preset; }
  __device__ T sum() const { T s = T(); for (int i = 0; i < this->used; i++) s += this->items[i]; return s; }
};
template <typename T> using SummingOf = Summing<T>;
template <typename T> struct Scaling : Summing<T> {
  T factor;
  __device__ explicit Scaling(T f) : ::SummingOf<T>(0), factor(f) {}
  template <typename U> __device__ U scaledSum() const { return static_cast<U>(this->sum()) * static_cast<U>(factor); }
  __device__ int room() const { return Storage<T>::capacity - this->used; }
};

__global__ void dependentBases(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  Scaling<int> s(3);
  for (int k = 0; k <= t % 6; k++) s.add(in[(t + k) % 32]);
  io[t * 3 + 0] = s.sum();
  io[t * 3 + 1] = s.room() * 100 + s.used;
  io[t * 3 + 2] = s.scaledSum<int>();
  Scaling<float> f(0.5f);
  f.add(1.5f); f.add(0.25f * in[t]);
  fo[t * 2 + 0] = f.scaledSum<float>();
  fo[t * 2 + 1] = (float)f.scaledSum<double>() + Storage<float>::capacity;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 13) % 23 - 11;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 3 * sizeof(int)); cudaMalloc(&df, T * 2 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  dependentBases<<<1, T>>>(din, di, df);
  int hi[T * 3]; float hf[T * 2];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int n = t % 6 + 1, used = n < 4 ? n : 4, sum = 0;
    for (int k = 0; k < used; k++) sum += hin[(t + k) % 32];
    int e[3] = {sum, (4 - used) * 100 + used, sum * 3};
    float fs = 1.5f + 0.25f * hin[t];
    float ef[2] = {fs * 0.5f, (float)((double)fs * 0.5) + 4.0f};
    for (int k = 0; k < 3; k++) if (hi[t * 3 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_dependent_bases: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 3 + k], e[k]); }
    for (int k = 0; k < 2; k++) if (hf[t * 2 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_dependent_bases: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 2 + k], ef[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_dependent_bases\n");
  return 0;
}
