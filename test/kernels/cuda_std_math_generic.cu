// <cmath> names in templates: one device function template written with std:: calls, instantiated for
// float and double (the overload chosen per instantiation: sqrtf/expf/... for float, sqrt/exp/... for double).
#include <cstdio>
#include <cmath>

template <typename T> __device__ __noinline__ T smooth_step(T x, T lo, T hi) {
  T t = std::fmin(std::fmax((x - lo) / (hi - lo), T(0)), T(1));
  return t * t * (T(3) - T(2) * t);
}
template <typename T> __device__ T softplus(T x) { return std::log1p(std::exp(-std::abs(x))) + std::fmax(x, T(0)); }
template <typename T> __device__ T gauss(T x, T mu, T sigma) {
  T z = (x - mu) / sigma;
  return std::exp(T(-0.5) * z * z) / (sigma * std::sqrt(T(2) * T(3.14159265358979)));
}

__global__ void std_generic(const float *xf, const double *xd, float *of, double *od, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  of[i * 3 + 0] = smooth_step(xf[i], -1.0f, 2.0f);
  of[i * 3 + 1] = softplus(xf[i]);
  of[i * 3 + 2] = gauss(xf[i], 0.5f, 1.5f);
  od[i * 3 + 0] = smooth_step(xd[i], -1.0, 2.0);
  od[i * 3 + 1] = softplus(xd[i]);
  od[i * 3 + 2] = gauss(xd[i], 0.5, 1.5);
}

int main() {
  const int n = 200;
  float hf[n], rf[n * 3]; double hd[n], rd[n * 3];
  for (int i = 0; i < n; i++) { hf[i] = (i - 100) * 0.037f; hd[i] = (i - 100) * 0.037; }
  float *df, *dof; double *dd, *dod;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dof, sizeof(rf)); cudaMalloc(&dod, sizeof(rd));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  std_generic<<<4, 64>>>(df, dd, dof, dod, n);
  cudaMemcpy(rf, dof, sizeof(rf), cudaMemcpyDeviceToHost); cudaMemcpy(rd, dod, sizeof(rd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double x = hd[i];
    double t = std::fmin(std::fmax((x + 1) / 3, 0.0), 1.0), z = (x - 0.5) / 1.5;
    double e[3] = {t * t * (3 - 2 * t), std::log1p(std::exp(-std::fabs(x))) + std::fmax(x, 0.0), std::exp(-0.5 * z * z) / (1.5 * std::sqrt(2 * 3.14159265358979))};
    for (int k = 0; k < 3; k++) {
      if (!(std::fabs(rf[i * 3 + k] - e[k]) <= 1e-5 * std::fabs(e[k]) + 1e-6)) { if (bad++ < 5) printf("FAIL cuda_std_math_generic: f[%d][%d] = %g, expected %g\n", i, k, rf[i * 3 + k], e[k]); }
      if (!(std::fabs(rd[i * 3 + k] - e[k]) <= 1e-13 * std::fabs(e[k]) + 1e-14)) { if (bad++ < 5) printf("FAIL cuda_std_math_generic: d[%d][%d] = %g, expected %g\n", i, k, rd[i * 3 + k], e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_std_math_generic\n");
  return 0;
}
