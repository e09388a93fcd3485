// Trigonometric and hyperbolic <cmath> names on float and double in device code (std::sin ... std::tanh,
// std::asin/acos/atan), plus the unqualified float overloads reached through the global using-declarations.
#include <cstdio>
#include <cmath>

#define N 128
#define NF 9

__global__ void std_trig(const double *in, float *of, double *od) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  double y = in[i], u = y / 8;
  float x = (float)y, v = (float)u;
  float *o = of + i * NF;
  double *d = od + i * NF;
  o[0] = std::sin(x);  d[0] = std::sin(y);
  o[1] = std::cos(x);  d[1] = std::cos(y);
  o[2] = std::tan(v);  d[2] = std::tan(u);
  o[3] = std::asin(v); d[3] = std::asin(u);
  o[4] = std::acos(v); d[4] = std::acos(u);
  o[5] = std::atan(x); d[5] = std::atan(y);
  o[6] = std::sinh(v); d[6] = std::sinh(u);
  o[7] = std::cosh(v); d[7] = std::cosh(u);
  o[8] = tanh(x) + sin(v);   d[8] = std::tanh(y) + std::sin(u);
}

int main() {
  double h[N]; float rf[N * NF]; double rd[N * NF];
  for (int i = 0; i < N; i++) h[i] = (float)((i - 64) * 0.117);
  double *din, *dd; float *df;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&df, sizeof(rf)); cudaMalloc(&dd, sizeof(rd));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  std_trig<<<2, 64>>>(din, df, dd);
  cudaMemcpy(rf, df, sizeof(rf), cudaMemcpyDeviceToHost); cudaMemcpy(rd, dd, sizeof(rd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double y = h[i], uf = (double)(float)(y / 8), ud = y / 8;
    double ef[NF] = {std::sin(y), std::cos(y), std::tan(uf), std::asin(uf), std::acos(uf), std::atan(y), std::sinh(uf), std::cosh(uf), std::tanh(y) + std::sin(uf)};
    double ed[NF] = {std::sin(y), std::cos(y), std::tan(ud), std::asin(ud), std::acos(ud), std::atan(y), std::sinh(ud), std::cosh(ud), std::tanh(y) + std::sin(ud)};
    for (int k = 0; k < NF; k++) {
      if (!(std::fabs(rf[i * NF + k] - ef[k]) <= 2e-6 * std::fabs(ef[k]) + 1e-6)) { if (bad++ < 5) printf("FAIL cuda_std_trig: f[%d][%d] = %.9g, expected %.9g\n", i, k, rf[i * NF + k], ef[k]); }
      if (!(std::fabs(rd[i * NF + k] - ed[k]) <= 1e-14 * std::fabs(ed[k]) + 1e-15)) { if (bad++ < 5) printf("FAIL cuda_std_trig: d[%d][%d] = %.17g, expected %.17g\n", i, k, rd[i * NF + k], ed[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_std_trig\n");
  return 0;
}
