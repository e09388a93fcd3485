// Special functions through <cmath> names in device code, float and double: std::erf/erfc/tgamma/lgamma/
// expm1/log1p/cbrt/asinh/acosh/atanh/hypot/atan2, checked against the host's libm within CUDA's ULP bounds.
#include <cstdio>
#include <cmath>

#define N 128
#define NF 12

__global__ void std_special(const double *in, float *of, double *od) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  double y = in[i], p = std::fabs(y) + 0.25;
  float x = (float)y, pf = (float)p;
  float *o = of + i * NF;
  double *d = od + i * NF;
  o[0] = std::erf(x);        d[0] = std::erf(y);
  o[1] = std::erfc(x);       d[1] = std::erfc(y);
  o[2] = std::tgamma(pf);    d[2] = std::tgamma(p);
  o[3] = std::lgamma(pf);    d[3] = std::lgamma(p);
  o[4] = std::expm1(x);      d[4] = std::expm1(y);
  o[5] = std::log1p(pf);     d[5] = std::log1p(p);
  o[6] = std::cbrt(x);       d[6] = std::cbrt(y);
  o[7] = std::asinh(x);      d[7] = std::asinh(y);
  o[8] = std::acosh(pf + 1); d[8] = std::acosh(p + 1);
  o[9] = std::atanh(x / 4);  d[9] = std::atanh(y / 4);
  o[10] = std::hypot(x, pf); d[10] = std::hypot(y, p);
  o[11] = std::atan2(x, pf); d[11] = std::atan2(y, p);
}

int main() {
  double h[N]; float rf[N * NF]; double rd[N * NF];
  for (int i = 0; i < N; i++) h[i] = (float)((i - 64) * 0.0517);
  double *din, *dd; float *df;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&df, sizeof(rf)); cudaMalloc(&dd, sizeof(rd));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  std_special<<<2, 64>>>(din, df, dd);
  cudaMemcpy(rf, df, sizeof(rf), cudaMemcpyDeviceToHost); cudaMemcpy(rd, dd, sizeof(rd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double y = h[i], p = std::fabs(y) + 0.25;
    double e[NF] = {std::erf(y), std::erfc(y), std::tgamma(p), std::lgamma(p), std::expm1(y), std::log1p(p), std::cbrt(y), std::asinh(y),
      std::acosh(p + 1), std::atanh(y / 4), std::hypot(y, p), std::atan2(y, p)};
    for (int k = 0; k < NF; k++) {
      if (!(std::fabs(rf[i * NF + k] - e[k]) <= 2e-6 * std::fabs(e[k]) + 1e-6)) { if (bad++ < 5) printf("FAIL cuda_std_special: f[%d][%d] = %.9g, expected %.9g\n", i, k, rf[i * NF + k], e[k]); }
      if (!(std::fabs(rd[i * NF + k] - e[k]) <= 1e-14 * std::fabs(e[k]) + 1e-15)) { if (bad++ < 5) printf("FAIL cuda_std_special: d[%d][%d] = %.17g, expected %.17g\n", i, k, rd[i * NF + k], e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_std_special\n");
  return 0;
}
