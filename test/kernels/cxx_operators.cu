// Operator overloading in depth: a fixed-point class with arithmetic, compound assignment, comparison,
// unary, increment (prefix and postfix), conversion and a non-member operator; a matrix view with
// subscript returning a reference; a functor with call operator; assignment between class objects.
#include <cstdio>

struct Fixed {
  int raw;                                           // 16.16
  __device__ Fixed() : raw(0) {}
  __device__ explicit Fixed(int v) : raw(v << 16) {}
  __device__ static Fixed fromRaw(int r) { Fixed f; f.raw = r; return f; }
  __device__ Fixed operator+(Fixed o) const { return fromRaw(raw + o.raw); }
  __device__ Fixed operator-(Fixed o) const { return fromRaw(raw - o.raw); }
  __device__ Fixed operator*(Fixed o) const { return fromRaw((int)(((long long)raw * o.raw) >> 16)); }
  __device__ Fixed operator-() const { return fromRaw(-raw); }
  __device__ Fixed &operator+=(Fixed o) { raw += o.raw; return *this; }
  __device__ Fixed &operator++() { raw += 1 << 16; return *this; }
  __device__ Fixed operator++(int) { Fixed old = *this; raw += 1 << 16; return old; }
  __device__ bool operator<(Fixed o) const { return raw < o.raw; }
  __device__ bool operator==(Fixed o) const { return raw == o.raw; }
  __device__ bool operator!=(Fixed o) const { return !(*this == o); }
  __device__ explicit operator int() const { return raw >> 16; }
  __device__ operator float() const { return raw / 65536.0f; }
};
__device__ Fixed operator/(Fixed a, int d) { return Fixed::fromRaw(a.raw / d); }

struct MatView {
  float *data; int cols;
  struct Row { float *p; __device__ float &operator[](int c) { return p[c]; } };
  __device__ Row operator[](int r) { Row row; row.p = data + r * cols; return row; }
};

struct Poly { float a, b, c; __device__ float operator()(float x) const { return (a * x + b) * x + c; } };
template <typename F> __device__ float integrate(const F &f, float lo, float hi, int n) {
  float h = (hi - lo) / n, s = 0;
  for (int i = 0; i < n; i++) s += f(lo + (i + 0.5f) * h) * h;
  return s;
}

__global__ void operators(int *iout, float *fout, float *mat) {
  int i = threadIdx.x;
  Fixed a(i), b(3);
  Fixed c = a * b + Fixed(1);                        // 3i + 1
  Fixed d = -c;
  d += Fixed(10);                                    // 9 - 3i
  Fixed e = b;
  Fixed f = e++;                                     // f = 3, e = 4
  ++e;                                               // 5
  Fixed g;
  g = c / 2;                                         // (3i+1)/2 in fixed point
  MatView m; m.data = mat; m.cols = 4;
  m[i][i % 4] = (float)i;
  Poly p = {0.0f, 2.0f, 1.0f};                       // 2x + 1
  iout[i * 6 + 0] = (int)c;
  iout[i * 6 + 1] = (int)d;
  iout[i * 6 + 2] = (int)f * 10 + (int)e;            // 35
  iout[i * 6 + 3] = (a < b) ? 1 : 0;
  iout[i * 6 + 4] = (a != b) + (c == Fixed(3 * i + 1)) * 2;   // (i != 3) + 2
  iout[i * 6 + 5] = g.raw;
  fout[i] = (float)c + integrate(p, 0.0f, 1.0f, 8);  // 3i + 1 + 2
}

int main() {
  const int T = 32;
  int *di; float *df, *dm;
  cudaMalloc(&di, T * 6 * sizeof(int)); cudaMalloc(&df, T * sizeof(float)); cudaMalloc(&dm, T * 4 * sizeof(float));
  cudaMemset(dm, 0, T * 4 * sizeof(float));
  operators<<<1, T>>>(di, df, dm);
  int hi[T * 6]; float hf[T], hm[T * 4];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hm, dm, sizeof(hm), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[6] = {3 * i + 1, 9 - 3 * i, 35, i < 3 ? 1 : 0, (i != 3) + 2, ((3 * i + 1) << 16) / 2};
    for (int k = 0; k < 6; k++) if (hi[i * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_operators: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 6 + k], e[k]); }
    float ef = 3.0f * i + 3.0f;
    if (hf[i] < ef - 1e-4f || hf[i] > ef + 1e-4f) { if (bad++ < 5) printf("FAIL cxx_operators: f[%d] = %f, expected %f\n", i, hf[i], ef); }
    if (hm[i * 4 + i % 4] != (float)i) { if (bad++ < 5) printf("FAIL cxx_operators: m[%d] = %f\n", i, hm[i * 4 + i % 4]); }
  }
  if (bad) return 1;
  printf("PASS cxx_operators\n");
  return 0;
}
