// <cmath> functions with pointer outputs and exponent handling on float and double: std::frexp, std::modf,
// std::ldexp, std::scalbn, std::ilogb, std::logb, std::remquo; results packed per thread.
#include <cstdio>
#include <cmath>

#define N 96

__global__ void std_decompose(const float *xf, const double *xd, float *of, double *od, int *oi) {
  int i = threadIdx.x;
  if (i >= N) return;
  float x = xf[i]; double y = xd[i];
  int ef, ed, q1, q2;
  float ipf; double ipd;
  of[i * 4 + 0] = std::frexp(x, &ef);
  of[i * 4 + 1] = std::modf(x, &ipf) + ipf * 2;
  of[i * 4 + 2] = std::ldexp(x, i % 7 - 3) + std::scalbn(x, 2);
  of[i * 4 + 3] = std::remquo(x, 1.5f, &q1) + std::logb(x);
  od[i * 3 + 0] = std::frexp(y, &ed);
  od[i * 3 + 1] = std::modf(y, &ipd) - ipd;
  od[i * 3 + 2] = std::remquo(y, 0.7, &q2) + std::ldexp(y, -i % 5);
  oi[i * 5 + 0] = ef; oi[i * 5 + 1] = ed; oi[i * 5 + 2] = q1 & 7; oi[i * 5 + 3] = q2 & 7;
  oi[i * 5 + 4] = std::ilogb(x) * 100 + std::ilogb(y);
}

int main() {
  float hf[N], rf[N * 4]; double hd[N], rd[N * 3]; int ri[N * 5];
  for (int i = 0; i < N; i++) { hf[i] = (i - 48) * 0.3712f + 0.05f; hd[i] = (47 - i) * 1.23456 + 0.01; }
  float *df, *dof; double *dd, *dod; int *doi;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dof, sizeof(rf)); cudaMalloc(&dod, sizeof(rd)); cudaMalloc(&doi, sizeof(ri));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  std_decompose<<<1, 128>>>(df, dd, dof, dod, doi);
  cudaMemcpy(rf, dof, sizeof(rf), cudaMemcpyDeviceToHost); cudaMemcpy(rd, dod, sizeof(rd), cudaMemcpyDeviceToHost);
  cudaMemcpy(ri, doi, sizeof(ri), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = hf[i]; double y = hd[i];
    int ef, ed, q1, q2; float ipf; double ipd;
    float f[4] = {std::frexp(x, &ef), 0, std::ldexp(x, i % 7 - 3) + std::scalbn(x, 2), 0};
    f[1] = std::modf(x, &ipf) + ipf * 2;
    f[3] = std::remquo(x, 1.5f, &q1) + std::logb(x);
    double d[3] = {std::frexp(y, &ed), 0, 0};
    d[1] = std::modf(y, &ipd) - ipd;
    d[2] = std::remquo(y, 0.7, &q2) + std::ldexp(y, -i % 5);
    int e[5] = {ef, ed, q1 & 7, q2 & 7, std::ilogb(x) * 100 + std::ilogb(y)};
    for (int k = 0; k < 4; k++) if (rf[i * 4 + k] != f[k]) { if (bad++ < 5) printf("FAIL cuda_std_decompose: f[%d][%d] = %g, expected %g\n", i, k, rf[i * 4 + k], f[k]); }
    for (int k = 0; k < 3; k++) if (rd[i * 3 + k] != d[k]) { if (bad++ < 5) printf("FAIL cuda_std_decompose: d[%d][%d] = %g, expected %g\n", i, k, rd[i * 3 + k], d[k]); }
    for (int k = 0; k < 5; k++) if (ri[i * 5 + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_std_decompose: i[%d][%d] = %d, expected %d\n", i, k, ri[i * 5 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_std_decompose\n");
  return 0;
}
