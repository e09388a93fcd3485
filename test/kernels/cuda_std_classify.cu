// Classification in device code: std::isnan/isinf/isfinite/signbit and the plain names (the global
// using-declarations of <cmath>) on float and double, on ordinary values, zeros of both signs, infinities and NaN.
#include <cstdio>
#include <cmath>

#define N 64

__global__ void classify(const float *f, const double *d, int *out) {
  int i = threadIdx.x;
  if (i >= N) return;
  float x = f[i];
  double y = d[i];
  int bits = 0;
  bits |= std::isnan(x) << 0;
  bits |= std::isinf(x) << 1;
  bits |= std::isfinite(x) << 2;
  bits |= std::signbit(x) << 3;
  bits |= isnan(y) << 4;
  bits |= isinf(y) << 5;
  bits |= isfinite(y) << 6;
  bits |= signbit(y) << 7;
  if (std::isnan(x + (float)y)) bits |= 1 << 8;
  if (!std::isfinite(y * 1e300)) bits |= 1 << 9;
  out[i] = bits;
}

static float fin(int i) {
  switch (i % 8) {
    case 0: return NAN; case 1: return INFINITY; case 2: return -INFINITY; case 3: return -0.0f;
    case 4: return 0.0f; default: return (i - 30) * 0.37f;
  }
}
static double din(int i) {
  switch (i % 7) {
    case 0: return -NAN; case 1: return -INFINITY; case 2: return INFINITY; case 3: return 0.0;
    case 4: return -0.0; default: return (20 - i) * 1.5e10;
  }
}

int main() {
  float hf[N]; double hd[N]; int r[N];
  for (int i = 0; i < N; i++) { hf[i] = fin(i); hd[i] = din(i); }
  float *df; double *dd; int *dout;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  classify<<<1, N>>>(df, dd, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = hf[i]; double y = hd[i];
    int e = std::isnan(x) | std::isinf(x) << 1 | std::isfinite(x) << 2 | std::signbit(x) << 3 | std::isnan(y) << 4 | std::isinf(y) << 5 |
      std::isfinite(y) << 6 | std::signbit(y) << 7 | std::isnan(x + (float)y) << 8 | !std::isfinite(y * 1e300) << 9;
    if (r[i] != e) { if (bad++ < 5) printf("FAIL cuda_std_classify: [%d] = %#x, expected %#x\n", i, r[i], e); }
  }
  if (bad) return 1;
  printf("PASS cuda_std_classify\n");
  return 0;
}
