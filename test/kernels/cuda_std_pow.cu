// std::pow overloads in device code: pow(float, float) is powf, pow(double, double) is pow, and the mixed
// and integer-exponent calls go through libstdc++'s promoting template (double): pow(float, int), pow(double, int).
#include <cstdio>
#include <cmath>

#define N 96

__global__ void std_pow(const float *xf, const double *xd, float *of, double *od) {
  int i = threadIdx.x;
  if (i >= N) return;
  float x = xf[i]; double y = xd[i];
  int k = i % 5 - 2;
  of[i * 2 + 0] = std::pow(x, 1.5f);
  of[i * 2 + 1] = std::pow(x, -0.25f) + std::pow(2.0f, x);
  od[i * 3 + 0] = std::pow(y, 2.5);
  od[i * 3 + 1] = std::pow(x, k);      // double pow(double(x), double(k))
  od[i * 3 + 2] = std::pow(y, 3);
}

int main() {
  float hf[N], rf[N * 2]; double hd[N], rd[N * 3];
  for (int i = 0; i < N; i++) { hf[i] = 0.25f + i * 0.0625f; hd[i] = 0.5 + i * 0.03125; }
  float *df, *dof; double *dd, *dod;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dof, sizeof(rf)); cudaMalloc(&dod, sizeof(rd));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  std_pow<<<1, 128>>>(df, dd, dof, dod);
  cudaMemcpy(rf, dof, sizeof(rf), cudaMemcpyDeviceToHost); cudaMemcpy(rd, dod, sizeof(rd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double x = hf[i], y = hd[i];
    int k = i % 5 - 2;
    double ef[2] = {std::pow(x, 1.5), std::pow(x, -0.25) + std::pow(2.0, x)};
    double ed[3] = {std::pow(y, 2.5), std::pow(x, (double)k), y * y * y};
    for (int j = 0; j < 2; j++) if (!(std::fabs(rf[i * 2 + j] - ef[j]) <= 4e-7 * std::fabs(ef[j]))) { if (bad++ < 5) printf("FAIL cuda_std_pow: f[%d][%d] = %.9g, expected %.9g\n", i, j, rf[i * 2 + j], ef[j]); }
    for (int j = 0; j < 3; j++) if (!(std::fabs(rd[i * 3 + j] - ed[j]) <= 1e-15 * std::fabs(ed[j]))) { if (bad++ < 5) printf("FAIL cuda_std_pow: d[%d][%d] = %.17g, expected %.17g\n", i, j, rd[i * 3 + j], ed[j]); }
  }
  if (bad) return 1;
  printf("PASS cuda_std_pow\n");
  return 0;
}
