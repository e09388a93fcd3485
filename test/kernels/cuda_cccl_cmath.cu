// The CCCL C++ library's <cuda/std/cmath> in device code: cuda::std::sqrt/exp/log/sin/fabs/fmin/pow on float
// and double (CCCL implements them with GCC builtins such as __builtin_sqrtf, which are the CUDA device builtins).
#include <cstdio>
#include <cmath>
#include <cuda/std/cmath>

#define N 128

__global__ void cccl_cmath(const float *xf, const double *xd, float *of, double *od) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float x = xf[i], p = cuda::std::fabs(x) + 0.5f;
  double y = xd[i], q = cuda::std::fabs(y) + 0.5;
  of[i * 4 + 0] = cuda::std::sqrt(p) + cuda::std::exp(x);
  of[i * 4 + 1] = cuda::std::log(p) + cuda::std::sin(x);
  of[i * 4 + 2] = cuda::std::fmin(x, p * 0.5f) + cuda::std::floor(x);
  of[i * 4 + 3] = cuda::std::pow(p, 1.5f);
  od[i * 4 + 0] = cuda::std::sqrt(q) + cuda::std::exp(y);
  od[i * 4 + 1] = cuda::std::log(q) + cuda::std::cos(y);
  od[i * 4 + 2] = cuda::std::fmax(y, q * 0.5) + cuda::std::ceil(y);
  od[i * 4 + 3] = cuda::std::pow(q, 2.5);
}

int main() {
  float hf[N], rf[N * 4]; double hd[N], rd[N * 4];
  for (int i = 0; i < N; i++) { hf[i] = (i - 64) * 0.061f; hd[i] = (i - 64) * 0.061; }
  float *df, *dof; double *dd, *dod;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dof, sizeof(rf)); cudaMalloc(&dod, sizeof(rd));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  cccl_cmath<<<2, 64>>>(df, dd, dof, dod);
  cudaMemcpy(rf, dof, sizeof(rf), cudaMemcpyDeviceToHost); cudaMemcpy(rd, dod, sizeof(rd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double x = hf[i], p = std::fabs(hf[i]) + 0.5f, y = hd[i], q = std::fabs(y) + 0.5;
    double ef[4] = {std::sqrt(p) + std::exp(x), std::log(p) + std::sin(x), std::fmin(x, p * 0.5) + std::floor(x), std::pow(p, 1.5)};
    double ed[4] = {std::sqrt(q) + std::exp(y), std::log(q) + std::cos(y), std::fmax(y, q * 0.5) + std::ceil(y), std::pow(q, 2.5)};
    for (int k = 0; k < 4; k++) {
      if (!(std::fabs(rf[i * 4 + k] - ef[k]) <= 4e-6 * std::fabs(ef[k]) + 2e-6)) { if (bad++ < 5) printf("FAIL cuda_cccl_cmath: f[%d][%d] = %g, expected %g\n", i, k, rf[i * 4 + k], ef[k]); }
      if (!(std::fabs(rd[i * 4 + k] - ed[k]) <= 1e-14 * std::fabs(ed[k]) + 1e-15)) { if (bad++ < 5) printf("FAIL cuda_cccl_cmath: d[%d][%d] = %g, expected %g\n", i, k, rd[i * 4 + k], ed[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_cccl_cmath\n");
  return 0;
}
