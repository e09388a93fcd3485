// Constructor templates: converting between specialisations of a class template (Complex<float> from
// Complex<int>), a constructor template taking any iterator-like pointer pair, an explicit one, and the
// copy constructor still used for copies of the same type.
#include <cstdio>

template <typename T> struct Complex {
  T re, im;
  __device__ Complex(T r, T i) : re(r), im(i) {}
  __device__ Complex(const Complex &o) : re(o.re), im(o.im + 0) {}
  template <typename U> __device__ Complex(const Complex<U> &o) : re(static_cast<T>(o.re)), im(static_cast<T>(o.im)) {}
  __device__ T norm2() const { return re * re + im * im; }
};

struct Sum {
  int total, count;
  template <typename It> __device__ Sum(It first, It last) : total(0), count(0) { for (It p = first; p != last; ++p) { total += (int)*p; count++; } }
};

struct Meters {
  float v;
  template <typename T> __device__ explicit Meters(T x) : v(static_cast<float>(x) * 0.5f) {}
};

__global__ void convertingCtors(const int *in, int *io, float *fo) {
  int t = threadIdx.x;
  int v = in[t];
  Complex<int> ci(v, 2);
  Complex<float> cf(ci);                       // the constructor template
  Complex<float> cf2 = cf;                     // the copy constructor
  Complex<double> cd(cf2);
  fo[t * 3 + 0] = cf.norm2() + cf2.re;
  fo[t * 3 + 1] = (float)cd.norm2();
  int arr[4] = {v, 1, 2, 3};
  Sum s(arr, arr + 4);
  float farr[3] = {0.5f, 1.5f, 2.5f};
  Sum sf(farr, farr + 3);
  io[t * 3 + 0] = s.total * 10 + s.count;
  io[t * 3 + 1] = sf.total * 10 + sf.count;
  Meters m(v);
  Meters m2(2.0);
  fo[t * 3 + 2] = m.v + m2.v;
  io[t * 3 + 2] = Complex<int>(Complex<float>(1.5f, -2.5f)).norm2();
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 7) % 10 - 4;
  int *din, *di; float *df;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 3 * sizeof(int)); cudaMalloc(&df, T * 3 * sizeof(float));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  convertingCtors<<<1, T>>>(din, di, df);
  int hi[T * 3]; float hf[T * 3];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    float re = (float)v, im = 2.0f;
    float ef[3] = {re * re + im * im + re, (float)((double)re * re + (double)im * im), (float)v * 0.5f + 1.0f};
    int ei[3] = {(v + 6) * 10 + 4, (0 + 1 + 2) * 10 + 3, 1 + 4};
    for (int k = 0; k < 3; k++) if (hf[t * 3 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx2_converting_ctors: f[%d][%d] = %f, expected %f\n", t, k, hf[t * 3 + k], ef[k]); }
    for (int k = 0; k < 3; k++) if (hi[t * 3 + k] != ei[k]) { if (bad++ < 5) printf("FAIL cxx2_converting_ctors: i[%d][%d] = %d, expected %d\n", t, k, hi[t * 3 + k], ei[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_converting_ctors\n");
  return 0;
}
