// Static members of class templates: constexpr constants computed from template arguments, static
// member functions and static member function templates, constants of nested classes, and constants
// used as array bounds and template arguments of other templates.
#include <cstdio>

template <int N> struct Pow2 { static constexpr int value = 2 * Pow2<N - 1>::value; };
template <> struct Pow2<0> { static constexpr int value = 1; };

template <typename T, int Bits> struct FixedPoint {
  static constexpr int one = 1 << Bits;
  static constexpr T mask = (T)(one - 1);
  struct Parts { static constexpr int fracBits = Bits; };
  T raw;
  __device__ static FixedPoint fromInt(int v) { FixedPoint f; f.raw = (T)(v << Bits); return f; }
  template <typename F> __device__ static FixedPoint fromFloat(F v) { FixedPoint f; f.raw = (T)(v * (F)one); return f; }
  __device__ int whole() const { return (int)(raw >> Bits); }
  __device__ int frac() const { return (int)(raw & mask); }
  __device__ FixedPoint operator*(FixedPoint o) const { FixedPoint r; r.raw = (T)(((long long)raw * o.raw) >> Bits); return r; }
};

template <int N> struct Buffer { int data[N]; static constexpr int size = N; };

__global__ void templateStatics(const int *in, int *io) {
  int t = threadIdx.x;
  typedef FixedPoint<int, 8> Q8;
  Q8 a = Q8::fromInt(in[t]);
  Q8 b = Q8::fromFloat(1.75f);
  Q8 c = Q8::fromFloat<double>(0.5);
  Q8 p = a * b;
  io[t * 6 + 0] = p.whole() * 1000 + p.frac();
  io[t * 6 + 1] = (a * c).raw;
  io[t * 6 + 2] = Q8::one + Q8::Parts::fracBits * 10000;
  Buffer<Pow2<3>::value> buf;
  for (int k = 0; k < Buffer<Pow2<3>::value>::size; k++) buf.data[k] = k * in[t];
  int s = 0;
  for (int k = 0; k < buf.size; k++) s += buf.data[k];
  io[t * 6 + 3] = s;
  io[t * 6 + 4] = Pow2<10>::value + Pow2<0>::value;
  io[t * 6 + 5] = (int)sizeof(buf) + (int)FixedPoint<short, 4>::mask * 100;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 9 - 2;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  templateStatics<<<1, T>>>(din, di);
  int hi[T * 6];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int a = v << 8, b = (int)(1.75f * 256), c = (int)(0.5 * 256);
    int p = (int)(((long long)a * b) >> 8);
    int e[6] = {(p >> 8) * 1000 + (p & 255), (int)(((long long)a * c) >> 8), 256 + 80000, 28 * v, 1025, 32 + 1500};
    for (int k = 0; k < 6; k++) if (hi[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_template_statics: [%d][%d] = %d, expected %d\n", t, k, hi[t * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_template_statics\n");
  return 0;
}
