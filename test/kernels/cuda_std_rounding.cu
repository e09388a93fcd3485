// Rounding and integer conversion through <cmath> names on float and double: std::floor/ceil/trunc/round/
// rint/nearbyint, std::lround/llround/lrint/llrint, std::fmod/remainder/copysign/fdim/nextafter.
#include <cstdio>
#include <cmath>

#define N 128

__global__ void std_rounding(const float *xf, const double *xd, float *of, double *od, long long *oi) {
  int i = threadIdx.x;
  if (i >= N) return;
  float x = xf[i]; double y = xd[i];
  of[i * 6 + 0] = std::floor(x) + 10 * std::ceil(x);
  of[i * 6 + 1] = std::trunc(x) + 10 * std::round(x);
  of[i * 6 + 2] = std::rint(x) + 10 * std::nearbyint(x);
  of[i * 6 + 3] = std::fmod(x, 0.75f) + std::remainder(x, 0.75f);
  of[i * 6 + 4] = std::copysign(1.5f, x) + std::fdim(x, 0.25f);
  of[i * 6 + 5] = std::nextafter(x, 0.0f);
  od[i * 4 + 0] = std::floor(y) + 10 * std::ceil(y);
  od[i * 4 + 1] = std::trunc(y) + 10 * std::round(y) + 100 * std::rint(y);
  od[i * 4 + 2] = std::fmod(y, 0.75) + std::remainder(y, 0.75);
  od[i * 4 + 3] = std::copysign(2.0, y) * std::fdim(y, -1.0) + std::nextafter(y, 1e300);
  oi[i * 4 + 0] = std::lround(x);
  oi[i * 4 + 1] = std::llround(y);
  oi[i * 4 + 2] = std::lrint(x * 3);
  oi[i * 4 + 3] = std::llrint(y * 3);
}

static double input(int i) { return (i - 64) * 0.25 + (i % 3 == 0 ? 0.125 : 0.0); }

int main() {
  float hf[N], rf[N * 6]; double hd[N], rd[N * 4]; long long ri[N * 4];
  for (int i = 0; i < N; i++) { hd[i] = input(i); hf[i] = (float)hd[i]; }
  float *df, *dof; double *dd, *dod; long long *doi;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dof, sizeof(rf)); cudaMalloc(&dod, sizeof(rd)); cudaMalloc(&doi, sizeof(ri));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  std_rounding<<<1, N>>>(df, dd, dof, dod, doi);
  cudaMemcpy(rf, dof, sizeof(rf), cudaMemcpyDeviceToHost); cudaMemcpy(rd, dod, sizeof(rd), cudaMemcpyDeviceToHost);
  cudaMemcpy(ri, doi, sizeof(ri), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = hf[i]; double y = hd[i];
    float ef[6] = {std::floor(x) + 10 * std::ceil(x), std::trunc(x) + 10 * std::round(x), std::rint(x) + 10 * std::nearbyint(x),
      std::fmod(x, 0.75f) + std::remainder(x, 0.75f), std::copysign(1.5f, x) + std::fdim(x, 0.25f), std::nextafter(x, 0.0f)};
    double ed[4] = {std::floor(y) + 10 * std::ceil(y), std::trunc(y) + 10 * std::round(y) + 100 * std::rint(y), std::fmod(y, 0.75) + std::remainder(y, 0.75),
      std::copysign(2.0, y) * std::fdim(y, -1.0) + std::nextafter(y, 1e300)};
    long long ei[4] = {std::lround(x), std::llround(y), std::lrint(x * 3), std::llrint(y * 3)};
    for (int k = 0; k < 6; k++) if (rf[i * 6 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cuda_std_rounding: f[%d][%d] = %g, expected %g\n", i, k, rf[i * 6 + k], ef[k]); }
    for (int k = 0; k < 4; k++) if (rd[i * 4 + k] != ed[k]) { if (bad++ < 5) printf("FAIL cuda_std_rounding: d[%d][%d] = %g, expected %g\n", i, k, rd[i * 4 + k], ed[k]); }
    for (int k = 0; k < 4; k++) if (ri[i * 4 + k] != ei[k]) { if (bad++ < 5) printf("FAIL cuda_std_rounding: i[%d][%d] = %lld, expected %lld\n", i, k, ri[i * 4 + k], ei[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_std_rounding\n");
  return 0;
}
