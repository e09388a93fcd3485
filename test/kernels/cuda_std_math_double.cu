// <cmath> names on double in device code: std::sqrt(double) and friends are the C functions the CUDA
// headers declare (libstdc++ brings them into std by using-declarations), and the unqualified names reach them through
// the global `using std::sqrt;` declarations. Checked against the host's libm with the CUDA ULP bounds.
#include <cstdio>
#include <cmath>

#define N 128
#define NF 16

__global__ void std_math_double(const double *in, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  double x = in[i], p = std::fabs(x) + 0.5, y = in[N - 1 - i];
  double *o = out + i * NF;
  o[0] = std::sqrt(p);
  o[1] = std::exp(x);
  o[2] = std::log(p);
  o[3] = std::sin(x);
  o[4] = std::cos(x);
  o[5] = std::pow(p, y);
  o[6] = std::fmin(x, y);
  o[7] = std::fmax(x, y);
  o[8] = std::abs(x);
  o[9] = std::floor(x) + std::ceil(y);
  o[10] = std::round(x) - std::trunc(y);
  o[11] = std::hypot(x, y);
  o[12] = std::atan2(x, y);
  o[13] = std::fma(x, y, p);
  o[14] = sqrt(p) + exp2(x);         // unqualified: ::sqrt is std::sqrt by using-declaration
  o[15] = std::fmod(x, 1.25) + std::tanh(x) + std::cbrt(x);
}

static double input(int i) { return ((i * 37) % 101 - 50) * 0.0731; }

int main() {
  double h[N], r[N * NF];
  for (int i = 0; i < N; i++) h[i] = input(i);
  double *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  std_math_double<<<2, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double x = h[i], p = std::fabs(h[i]) + 0.5, y = h[N - 1 - i];
    double e[NF] = {std::sqrt(p), std::exp(x), std::log(p), std::sin(x), std::cos(x), std::pow(p, y), std::fmin(x, y), std::fmax(x, y),
      std::fabs(x), std::floor(x) + std::ceil(y), std::round(x) - std::trunc(y), std::hypot(x, y), std::atan2(x, y), x * y + p,
      std::sqrt(p) + std::exp2(x), std::fmod(x, 1.25) + std::tanh(x) + std::cbrt(x)};
    for (int k = 0; k < NF; k++) {
      double tol = 1e-13 * std::fabs(e[k]) + 1e-13;
      if (!(std::fabs(r[i * NF + k] - e[k]) <= tol)) { if (bad++ < 5) printf("FAIL cuda_std_math_double: [%d][%d] = %.9g, expected %.9g\n", i, k, r[i * NF + k], e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_std_math_double\n");
  return 0;
}
