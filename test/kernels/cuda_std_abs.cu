// std::abs overloads in device code: int, long, long long (the integer cudart builtins), float and double
// (the <cmath> overloads, fabsf/fabs), plus std::fabs and unqualified abs/labs/llabs.
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define N 96

__global__ void std_abs(const int *ii, const long long *ll, const float *ff, const double *dd, long long *out, float *fout, double *dout) {
  int i = threadIdx.x;
  if (i >= N) return;
  long l = (long)ll[i] >> 3;
  out[i * 4 + 0] = std::abs(ii[i]);
  out[i * 4 + 1] = std::abs(l);
  out[i * 4 + 2] = std::abs(ll[i]);
  out[i * 4 + 3] = abs(ii[i]) + labs(l) + llabs(ll[i] >> 5);
  fout[i] = std::abs(ff[i]) + std::fabs(ff[N - 1 - i]);
  dout[i] = std::abs(dd[i]) - std::fabs(dd[N - 1 - i]) + std::abs((double)ff[i]);
}

int main() {
  int hi[N]; long long hl[N]; float hf[N]; double hd[N];
  for (int i = 0; i < N; i++) {
    hi[i] = (i * 7919) % 20001 - 10000;
    hl[i] = (i % 2 ? -1LL : 1LL) * ((long long)i * 123456789123LL + 17);
    hf[i] = (i - 48) * 0.625f;
    hd[i] = (47 - i) * 1.0e-3 - 0.0;
  }
  int *di; long long *dl, *dout; float *df, *dfo; double *dd, *ddo;
  cudaMalloc(&di, sizeof(hi)); cudaMalloc(&dl, sizeof(hl)); cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd));
  cudaMalloc(&dout, N * 4 * sizeof(long long)); cudaMalloc(&dfo, N * sizeof(float)); cudaMalloc(&ddo, N * sizeof(double));
  cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice); cudaMemcpy(dl, hl, sizeof(hl), cudaMemcpyHostToDevice);
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  std_abs<<<1, 128>>>(di, dl, df, dd, dout, dfo, ddo);
  long long r[N * 4]; float rf[N]; double rd[N];
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(rf, dfo, sizeof(rf), cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, ddo, sizeof(rd), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    long l = (long)hl[i] >> 3;
    long long e[4] = {std::abs(hi[i]), std::abs(l), std::abs(hl[i]), std::abs(hi[i]) + std::labs(l) + std::llabs(hl[i] >> 5)};
    for (int k = 0; k < 4; k++) if (r[i * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_std_abs: [%d][%d] = %lld, expected %lld\n", i, k, r[i * 4 + k], e[k]); }
    if (rf[i] != std::fabs(hf[i]) + std::fabs(hf[N - 1 - i])) { if (bad++ < 5) printf("FAIL cuda_std_abs: f[%d] = %g\n", i, rf[i]); }
    if (rd[i] != std::fabs(hd[i]) - std::fabs(hd[N - 1 - i]) + std::fabs((double)hf[i])) { if (bad++ < 5) printf("FAIL cuda_std_abs: d[%d] = %g\n", i, rd[i]); }
  }
  if (bad) return 1;
  printf("PASS cuda_std_abs\n");
  return 0;
}
