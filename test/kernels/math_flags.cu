// math_flags: one small kernel per floating-point operation whose PTX depends on -ftz, -prec_div,
// -prec_sqrt, -fmad, -fast-math and --use_fast_math (research/cicc-cli-contract.md §5). test/math-flags.test.ts
// compares the instructions we choose with the real cicc's under each flag set; main() checks the values.
#include <cstdio>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL math_flags: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void k_div(const float *a, const float *b, float *o) { o[0] = a[0] / b[0]; }
__global__ void k_rcp(const float *a, float *o) { o[0] = 1.0f / a[0]; }
__global__ void k_sqrt(const float *a, float *o) { o[0] = sqrtf(a[0]); }
__global__ void k_fma(const float *a, const float *b, const float *c, float *o) { o[0] = a[0] * b[0] + c[0]; }
__global__ void k_exp(const float *a, float *o) { o[0] = expf(a[0]); }
__global__ void k_sin(const float *a, float *o) { o[0] = sinf(a[0]); }
__global__ void k_log(const float *a, float *o) { o[0] = logf(a[0]); }
__global__ void k_fdividef(const float *a, const float *b, float *o) { o[0] = __fdividef(a[0], b[0]); }
__global__ void k_ddiv(const double *a, const double *b, double *o) { o[0] = a[0] / b[0]; }
__global__ void k_dsqrt(const double *a, double *o) { o[0] = sqrt(a[0]); }
// -fast-math swaps these for their __nv_fast_* variants; expm1f, log1pf, rsqrtf, exp2f and double exp do not change
__global__ void k_exp2(const float *a, float *o) { o[0] = exp2f(a[0]); }
__global__ void k_exp10(const float *a, float *o) { o[0] = exp10f(a[0]); }
__global__ void k_log2(const float *a, float *o) { o[0] = log2f(a[0]); }
__global__ void k_log10(const float *a, float *o) { o[0] = log10f(a[0]); }
__global__ void k_pow(const float *a, const float *b, float *o) { o[0] = powf(b[0], a[0]); }
__global__ void k_cos(const float *a, float *o) { o[0] = cosf(a[0]); }
__global__ void k_tan(const float *a, float *o) { o[0] = tanf(a[0]); }
__global__ void k_sincos(const float *a, float *o) { float s, c; sincosf(a[0], &s, &c); o[0] = s + 2.0f * c; }
__global__ void k_tanh(const float *a, float *o) { o[0] = tanhf(a[0]); }
__global__ void k_rsqrt(const float *a, float *o) { o[0] = rsqrtf(a[0]); }
__global__ void k_expm1(const float *a, float *o) { o[0] = expm1f(a[0]); }
__global__ void k_log1p(const float *a, float *o) { o[0] = log1pf(a[0]); }
__global__ void k_dexp(const double *a, double *o) { o[0] = exp(a[0]); }
__global__ void k_intrinsics(const float *a, const float *b, float *o) {
  float x = a[0], y = b[0];
  o[0] = __expf(x); o[1] = __logf(y); o[2] = __sinf(x); o[3] = __cosf(x); o[4] = __powf(y, x);
  o[5] = __saturatef(x); o[6] = __frcp_rn(y); o[7] = __fsqrt_rn(y); o[8] = __fmul_rn(x, y); o[9] = __fdiv_rn(x, y);
  o[10] = __fadd_rz(x, y); o[11] = __fmaf_rn(x, y, x); o[12] = __exp10f(x); o[13] = __log2f(y); o[14] = __tanf(x);
}

int main() {
  float ha[1] = {0.75f}, hb[1] = {1.5f}, hc[1] = {0.25f}, ho[16];
  double da[1] = {2.0}, db[1] = {3.0}, dout[1];
  float *a, *b, *c, *o; double *x, *y, *z;
  CK(cudaMalloc(&a, 4)); CK(cudaMalloc(&b, 4)); CK(cudaMalloc(&c, 4)); CK(cudaMalloc(&o, 64));
  CK(cudaMalloc(&x, 8)); CK(cudaMalloc(&y, 8)); CK(cudaMalloc(&z, 8));
  CK(cudaMemcpy(a, ha, 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(b, hb, 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(c, hc, 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(x, da, 8, cudaMemcpyHostToDevice)); CK(cudaMemcpy(y, db, 8, cudaMemcpyHostToDevice));
  int bad = 0;
  // float results are checked to 1e-4 relative: fast-math approximations are within that for these inputs
#define CHECKF(launch, want) do { launch; CK(cudaGetLastError()); CK(cudaMemcpy(ho, o, 4, cudaMemcpyDeviceToHost)); \
    if (std::fabs(ho[0] - (want)) > 1e-4 * std::fabs(want)) { printf("FAIL math_flags: %s = %.9g, expected %.9g\n", #launch, ho[0], (double)(want)); bad++; } } while (0)
  CHECKF((k_div<<<1, 1>>>(a, b, o)), 0.5);
  CHECKF((k_rcp<<<1, 1>>>(b, o)), 1.0 / 1.5);
  CHECKF((k_sqrt<<<1, 1>>>(b, o)), std::sqrt(1.5));
  CHECKF((k_fma<<<1, 1>>>(a, b, c, o)), 0.75 * 1.5 + 0.25);
  CHECKF((k_exp<<<1, 1>>>(a, o)), std::exp(0.75));
  CHECKF((k_sin<<<1, 1>>>(a, o)), std::sin(0.75));
  CHECKF((k_log<<<1, 1>>>(b, o)), std::log(1.5));
  CHECKF((k_fdividef<<<1, 1>>>(a, b, o)), 0.5);
  CHECKF((k_exp2<<<1, 1>>>(a, o)), std::exp2(0.75));
  CHECKF((k_exp10<<<1, 1>>>(a, o)), std::pow(10.0, 0.75));
  CHECKF((k_log2<<<1, 1>>>(b, o)), std::log2(1.5));
  CHECKF((k_log10<<<1, 1>>>(b, o)), std::log10(1.5));
  CHECKF((k_pow<<<1, 1>>>(a, b, o)), std::pow(1.5, 0.75));
  CHECKF((k_cos<<<1, 1>>>(a, o)), std::cos(0.75));
  CHECKF((k_tan<<<1, 1>>>(a, o)), std::tan(0.75));
  CHECKF((k_sincos<<<1, 1>>>(a, o)), std::sin(0.75) + 2.0 * std::cos(0.75));
  CHECKF((k_tanh<<<1, 1>>>(a, o)), std::tanh(0.75));
  CHECKF((k_rsqrt<<<1, 1>>>(b, o)), 1.0 / std::sqrt(1.5));
  CHECKF((k_expm1<<<1, 1>>>(a, o)), std::expm1(0.75));
  CHECKF((k_log1p<<<1, 1>>>(b, o)), std::log1p(1.5));
  k_dexp<<<1, 1>>>(x, z); CK(cudaMemcpy(dout, z, 8, cudaMemcpyDeviceToHost));
  if (std::fabs(dout[0] - std::exp(2.0)) > 1e-15 * std::exp(2.0)) { printf("FAIL math_flags: dexp = %.17g\n", dout[0]); bad++; }
  k_ddiv<<<1, 1>>>(x, y, z); CK(cudaMemcpy(dout, z, 8, cudaMemcpyDeviceToHost));
  if (dout[0] != 2.0 / 3.0) { printf("FAIL math_flags: ddiv = %.17g\n", dout[0]); bad++; }
  k_dsqrt<<<1, 1>>>(x, z); CK(cudaMemcpy(dout, z, 8, cudaMemcpyDeviceToHost));
  if (dout[0] != std::sqrt(2.0)) { printf("FAIL math_flags: dsqrt = %.17g\n", dout[0]); bad++; }
  k_intrinsics<<<1, 1>>>(a, b, o); CK(cudaGetLastError()); CK(cudaMemcpy(ho, o, 60, cudaMemcpyDeviceToHost));
  const double want[15] = {std::exp(0.75), std::log(1.5), std::sin(0.75), std::cos(0.75), std::pow(1.5, 0.75), 0.75,
    1.0 / 1.5, std::sqrt(1.5), 0.75 * 1.5, 0.5, 2.25, 0.75 * 1.5 + 0.75, std::pow(10.0, 0.75), std::log2(1.5), std::tan(0.75)};
  for (int i = 0; i < 15; i++)
    if (std::fabs(ho[i] - want[i]) > 2e-5 * std::fabs(want[i])) { printf("FAIL math_flags: intrinsic %d = %.9g, expected %.9g\n", i, ho[i], want[i]); bad++; }
  if (bad) return 1;
  printf("PASS math_flags\n");
  return 0;
}
// EXPECT-OUTPUT: PASS math_flags
