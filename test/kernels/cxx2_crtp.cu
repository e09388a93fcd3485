// Static polymorphism with the curiously recurring template pattern: a base class template calling
// the derived class's members through static_cast<Derived *>(this), shared algorithms in the base,
// a dependent base accessed through this->, and function templates taking any CRTP base.
#include <cstdio>

template <typename Derived> struct Shape {
  __device__ float area() const { return static_cast<const Derived *>(this)->areaImpl(); }
  __device__ float scaledArea(float k) const { return k * k * area(); }
  __device__ const char *tag() const { return Derived::name(); }
};
struct Square : Shape<Square> {
  float side;
  __device__ explicit Square(float s) : side(s) {}
  __device__ float areaImpl() const { return side * side; }
  __device__ static const char *name() { return "square"; }
};
struct Rect : Shape<Rect> {
  float w, h;
  __device__ Rect(float a, float b) : w(a), h(b) {}
  __device__ float areaImpl() const { return w * h; }
  __device__ static const char *name() { return "rect"; }
};

template <typename T> struct Counter {
  T count;
  __device__ void bump(T by) { count += by; }
};
template <typename T> struct Limited : Counter<T> {
  T limit;
  __device__ bool bumpIfRoom(T by) { if (this->count + by > limit) return false; this->bump(by); return true; }
};

template <typename D> __device__ float twiceArea(const Shape<D> &s) { return 2.0f * s.area(); }

__global__ void crtp(const float *in, float *fo, int *io) {
  int t = threadIdx.x;
  Square sq(in[t]);
  Rect r(in[t], 2.0f);
  fo[t * 3 + 0] = sq.area() + r.area();
  fo[t * 3 + 1] = sq.scaledArea(2.0f) + twiceArea(r);
  fo[t * 3 + 2] = twiceArea(sq);
  Limited<int> lim;
  lim.count = 0; lim.limit = t;
  int ok = 0;
  for (int k = 0; k < 5; k++) ok += lim.bumpIfRoom(3);
  io[t * 3 + 0] = ok;
  io[t * 3 + 1] = lim.count;
  io[t * 3 + 2] = sq.tag()[0] * 1000 + r.tag()[0];
}

int main() {
  const int T = 32;
  float hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j % 9) * 0.5f;
  float *din, *df; int *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&df, T * 3 * sizeof(float)); cudaMalloc(&di, T * 3 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  crtp<<<1, T>>>(din, df, di);
  float hf[T * 3]; int hi[T * 3];
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    float s = hin[t];
    float ef[3] = {s * s + s * 2.0f, 2.0f * 2.0f * (s * s) + 2.0f * (s * 2.0f), 2.0f * (s * s)};
    int ok = 0, c = 0;
    for (int k = 0; k < 5; k++) if (c + 3 <= t) { c += 3; ok++; }
    int ei[3] = {ok, c, 's' * 1000 + 'r'};
    for (int k = 0; k < 3; k++) if (hf[t * 3 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_crtp: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 3 + k], ef[k]); }
    for (int k = 0; k < 3; k++) if (hi[t * 3 + k] != ei[k]) { if (bad++ < 5) printf("FAIL cxx2_crtp: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 3 + k], ei[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_crtp\n");
  return 0;
}
