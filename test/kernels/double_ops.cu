// double precision: Horner polynomial evaluation and a dot product checked with a relative tolerance
// (contraction into fma is allowed), exact operations on dyadic values, double<->long long conversions,
// comparisons with -0.0 and infinities.
#include <cstdio>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL double_ops: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__host__ __device__ double horner(double x) {
  const double c[6] = {1.0, -0.5, 0.3333333333333333, -0.25, 0.2, -0.16666666666666666};
  double r = c[5];
  for (int i = 4; i >= 0; i--) r = r * x + c[i];
  return r;
}

__global__ void kernel(const double *x, double *out, long long *iout, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  double v = x[t];
  out[t * 3] = horner(v);
  double dot = 0.0;
  for (int k = 0; k < 16; k++) dot += x[(t + k) % n] * x[(t * 7 + k) % n];
  out[t * 3 + 1] = dot;
  out[t * 3 + 2] = (v * 0.5 + 3.0) / 4.0;               // dyadic: exact
  double inf = 1.0 / 0.0;
  iout[t * 2] = (long long)(v * 1048576.0) + (v < inf) + (-0.0 == 0.0) * 2 + (v > -inf) * 4;
  iout[t * 2 + 1] = (long long)((double)(t * 1000003LL) * 3.0);
}

int main() {
  const int n = 512;
  double hx[n], hout[n * 3]; long long hi[n * 2];
  for (int i = 0; i < n; i++) hx[i] = (i - 256) / 128.0;
  double *dx, *dout; long long *di;
  CK(cudaMalloc(&dx, sizeof(hx))); CK(cudaMalloc(&dout, sizeof(hout))); CK(cudaMalloc(&di, sizeof(hi)));
  CK(cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice));
  kernel<<<4, 128>>>(dx, dout, di, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    double v = hx[t], dot = 0.0;
    for (int k = 0; k < 16; k++) dot += hx[(t + k) % n] * hx[(t * 7 + k) % n];
    double w[3] = {horner(v), dot, (v * 0.5 + 3.0) / 4.0};
    for (int k = 0; k < 2; k++)
      if (std::fabs(hout[t * 3 + k] - w[k]) > 1e-12 * (1.0 + std::fabs(w[k]))) { printf("FAIL double_ops: t=%d k=%d got %.17g want %.17g\n", t, k, hout[t * 3 + k], w[k]); return 1; }
    if (hout[t * 3 + 2] != w[2]) { printf("FAIL double_ops: exact t=%d got %.17g want %.17g\n", t, hout[t * 3 + 2], w[2]); return 1; }
    long long wi[2] = {(long long)(v * 1048576.0) + 1 + 2 + 4, (long long)((double)(t * 1000003LL) * 3.0)};
    for (int k = 0; k < 2; k++)
      if (hi[t * 2 + k] != wi[k]) { printf("FAIL double_ops: int t=%d k=%d got %lld want %lld\n", t, k, hi[t * 2 + k], wi[k]); return 1; }
  }
  printf("PASS double_ops\n");
  return 0;
}
