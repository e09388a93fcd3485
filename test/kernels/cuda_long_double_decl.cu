// long double in a unit whose device code never uses it: overloads on long double next to the float and
// double ones, a host-only function and a struct with a long double member. cicc compiles the unit (the
// device code picks the float/double overloads), so must we; long double itself stays out of device code.
#include <cstdio>
#include <cmath>

__host__ __device__ float scale(float x) { return x * 2.0f; }
__host__ __device__ double scale(double x) { return x * 3.0; }
__host__ __device__ long double scale(long double x) { return x * 4.0L; }

struct HostStats { long double sum; int n; };
static long double host_mean(const HostStats &s) { return s.sum / s.n; }

__global__ void ld_decl(const float *f, const double *d, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale(f[i]) + scale(d[i]) + std::sqrt(std::fabs(d[i]));
}

int main() {
  const int n = 100;
  float hf[n]; double hd[n], r[n];
  HostStats s = {0.0L, 0};
  for (int i = 0; i < n; i++) { hf[i] = i * 0.25f - 7.0f; hd[i] = 3.5 - i * 0.125; s.sum += hd[i]; s.n++; }
  float *df; double *dd, *dout;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  ld_decl<<<2, 64>>>(df, dd, dout, n);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double e = (double)(hf[i] * 2.0f) + hd[i] * 3.0 + std::sqrt(std::fabs(hd[i]));
    if (r[i] != e) { if (bad++ < 5) printf("FAIL cuda_long_double_decl: [%d] = %.17g, expected %.17g\n", i, r[i], e); }
  }
  if (bad) return 1;
  printf("host mean %g\n", (double)host_mean(s));
  printf("PASS cuda_long_double_decl\n");
  return 0;
}
