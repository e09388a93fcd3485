// float and double arithmetic on exactly representable values (results exact), comparisons, negation,
// mixed float/double promotion, division by powers of two.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL scalar_float_double: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 12

__host__ __device__ void compute(int t, double *o) {
  float f = (float)t * 0.5f - 40.0f;     // exact halves
  double d = (double)t * 0.25 - 1000.0;  // exact quarters
  o[0] = f + 1.5f;
  o[1] = f * 4.0f;
  o[2] = f / 8.0f;
  o[3] = -f;
  o[4] = d * d;                           // exact in double (small)
  o[5] = d / 16.0;
  o[6] = f < 0.0f ? 1.0 : 0.0;
  o[7] = (f == d) ? 1.0 : 2.0;            // float promoted to double
  o[8] = f + d;
  float g = f;
  g += 3.0f; g *= 2.0f; g -= 1.0f;
  o[9] = g;
  double e = d;
  e /= 2.0; e += 0.125;
  o[10] = e;
  o[11] = (f > 10.0f && d < -900.0) ? 3.0 : (f != f ? 9.0 : 4.0);
}

__global__ void kernel(double *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) compute(t, out + t * NOUT);
}

int main() {
  const int n = 257;
  double *d, *h = new double[n * NOUT], *r = new double[n * NOUT];
  CK(cudaMalloc(&d, n * NOUT * sizeof(double)));
  kernel<<<3, 96>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * NOUT * sizeof(double), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) compute(t, r + t * NOUT);
  for (int k = 0; k < n * NOUT; k++)
    if (h[k] != r[k]) { printf("FAIL scalar_float_double: t=%d slot=%d got %.17g want %.17g\n", k / NOUT, k % NOUT, h[k], r[k]); return 1; }
  printf("PASS scalar_float_double\n");
  return 0;
}
