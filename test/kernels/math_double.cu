// math_double: the double-precision CUDA math API through libdevice, checked against the host's libm.
// Tolerances are loose multiples of the documented ULP bounds (CUDA C Programming Guide, "Mathematical Functions").
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL math_double: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

#define N 256
// name, device expression, host expression, relative tolerance, absolute tolerance (sinpi/cospi: the host's
// reference rounds M_PI * x first, an absolute error in its result near integer x; measured on an H100)
#define FUNCS(X) \
  X(sqrt, sqrt(p), std::sqrt(p), 0, 0) \
  X(rsqrt, rsqrt(p), 1.0 / std::sqrt(p), 1e-15, 0) \
  X(cbrt, cbrt(x), std::cbrt(x), 1e-15, 0) \
  X(rcbrt, rcbrt(p), 1.0 / std::cbrt(p), 1e-15, 0) \
  X(exp, exp(x), std::exp(x), 1e-15, 0) \
  X(exp2, exp2(x), std::exp2(x), 1e-15, 0) \
  X(exp10, exp10(x), std::pow(10.0, x), 1e-15, 0) \
  X(expm1, expm1(x), std::expm1(x), 1e-15, 1e-17) \
  X(log, log(p), std::log(p), 1e-15, 1e-17) \
  X(log2, log2(p), std::log2(p), 1e-15, 1e-17) \
  X(log10, log10(p), std::log10(p), 1e-15, 1e-17) \
  X(log1p, log1p(p), std::log1p(p), 1e-15, 1e-17) \
  X(pow, pow(p, y), std::pow(p, y), 1e-15, 0) \
  X(sin, sin(x), std::sin(x), 1e-15, 1e-17) \
  X(cos, cos(x), std::cos(x), 1e-15, 1e-17) \
  X(tan, tan(x), std::tan(x), 2e-15, 1e-17) \
  X(sinpi, sinpi(x), std::sin(M_PI * x), 1e-14, 1e-14) \
  X(cospi, cospi(x), std::cos(M_PI * x), 1e-14, 1e-14) \
  X(asin, asin(u), std::asin(u), 2e-15, 1e-17) \
  X(acos, acos(u), std::acos(u), 2e-15, 1e-17) \
  X(atan, atan(x), std::atan(x), 2e-15, 1e-17) \
  X(atan2, atan2(x, y), std::atan2(x, y), 2e-15, 1e-17) \
  X(sinh, sinh(x), std::sinh(x), 2e-15, 1e-17) \
  X(cosh, cosh(x), std::cosh(x), 2e-15, 0) \
  X(tanh, tanh(x), std::tanh(x), 2e-15, 1e-17) \
  X(asinh, asinh(x), std::asinh(x), 2e-15, 1e-17) \
  X(acosh, acosh(p + 1.0), std::acosh(p + 1.0), 2e-15, 1e-17) \
  X(atanh, atanh(u * 0.99), std::atanh(u * 0.99), 2e-15, 1e-17) \
  X(erf, erf(x), std::erf(x), 2e-15, 1e-17) \
  X(erfc, erfc(x), std::erfc(x), 5e-15, 1e-17) \
  X(lgamma, lgamma(p), std::lgamma(p), 1e-14, 1e-15) \
  X(tgamma, tgamma(p), std::tgamma(p), 1e-14, 0) \
  X(fmod, fmod(x, y), std::fmod(x, y), 0, 0) \
  X(remainder, remainder(x, y), std::remainder(x, y), 0, 0) \
  X(floor, floor(x), std::floor(x), 0, 0) \
  X(ceil, ceil(x), std::ceil(x), 0, 0) \
  X(trunc, trunc(x), std::trunc(x), 0, 0) \
  X(round, round(x), std::round(x), 0, 0) \
  X(rint, rint(x), std::rint(x), 0, 0) \
  X(fabs, fabs(x), std::fabs(x), 0, 0) \
  X(fmin, fmin(x, y), std::fmin(x, y), 0, 0) \
  X(fmax, fmax(x, y), std::fmax(x, y), 0, 0) \
  X(fdim, fdim(x, y), std::fdim(x, y), 0, 0) \
  X(fma, fma(x, y, p), std::fma(x, y, p), 0, 0) \
  X(hypot, hypot(x, y), std::hypot(x, y), 2e-15, 0) \
  X(copysign, copysign(p, x), std::copysign(p, x), 0, 0) \
  X(ldexp, ldexp(x, k), std::ldexp(x, k), 0, 0) \
  X(frexp, frexp(x, &e) + e, fx(x), 0, 0) \
  X(modf, modf(x, &ip) + 10.0 * ip, mx(x), 0, 0) \
  X(scalbn, scalbn(x, k), std::scalbn(x, k), 0, 0) \
  X(logb, logb(p), std::logb(p), 0, 0) \
  X(ilogb, (double)ilogb(p), (double)std::ilogb(p), 0, 0) \
  X(nextafter, nextafter(x, y), std::nextafter(x, y), 0, 0) \
  X(isnan, (double)(__isnan(q) ? 1 : 0), (double)(std::isnan(q) ? 1 : 0), 0, 0) \
  X(isinf, (double)(__isinf(q) ? 1 : 0), (double)(std::isinf(q) ? 1 : 0), 0, 0) \
  X(isfinite, (double)(__finite(q) ? 1 : 0), (double)(std::isfinite(q) ? 1 : 0), 0, 0) \
  X(signbit, (double)(__signbit(x) ? 1 : 0), (double)(std::signbit(x) ? 1 : 0), 0, 0) \
  X(sincos, (sincos(x, &s, &c), s + 2.0 * c), std::sin(x) + 2.0 * std::cos(x), 2e-15, 1e-16) \
  X(normcdf, normcdf(x), 0.5 * std::erfc(-x / std::sqrt(2.0)), 1e-14, 1e-16) \
  X(division, x / y, x / y, 0, 0) \
  X(reciprocal, 1.0 / p, 1.0 / p, 0, 0) \
  X(dadd_rn, __dadd_rn(x, y), x + y, 0, 0) \
  X(dmul_rn, __dmul_rn(x, y), x * y, 0, 0) \
  X(ddiv_rn, __ddiv_rn(x, y), x / y, 0, 0) \
  X(dsqrt_rn, __dsqrt_rn(p), std::sqrt(p), 0, 0) \
  X(drcp_rn, __drcp_rn(p), 1.0 / p, 0, 0) \
  X(fma_rn, __fma_rn(x, y, p), std::fma(x, y, p), 0, 0) \
  X(double2float_rn, (double)__double2float_rn(x), (double)(float)x, 0, 0) \
  X(double2int_rn, (double)__double2int_rn(x * 3.0), (double)(int)std::nearbyint(x * 3.0), 0, 0)

enum { FUNCS_COUNT_START = -1,
#define ENUM(n, d, h, r, a) F_##n,
  FUNCS(ENUM)
#undef ENUM
  NF };

static double fx(double x) { int e; double m = std::frexp(x, &e); return m + e; }
static double mx(double x) { double ip; double f = std::modf(x, &ip); return f + 10.0 * ip; }

__global__ void math_double(const double *in, double *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  double x = in[i], y = in[N + i], p = in[2 * N + i], u = in[3 * N + i], q = in[4 * N + i];
  int k = i % 17 - 8, e = 0;
  double ip = 0, s = 0, c = 0;
#define DEV(n, d, h, r, a) out[F_##n * N + i] = (d);
  FUNCS(DEV)
#undef DEV
}

int main() {
  double *h = (double *)malloc(5 * N * sizeof(double));
  for (int i = 0; i < N; i++) {
    h[i] = ((i * 37) % 200 - 100) * 0.0731;          // x in [-7.3, 7.3]
    h[N + i] = ((i * 53) % 150 - 75) * 0.0417 + 0.013; // y, never 0
    h[2 * N + i] = ((i * 29) % 250 + 1) * 0.0357;    // p > 0
    h[3 * N + i] = ((i * 41) % 200 - 100) * 0.00999; // u in (-1, 1)
    double specials[4] = {NAN, INFINITY, -INFINITY, 0.0};
    h[4 * N + i] = (i % 8 < 4) ? specials[i % 4] : h[i];
  }
  double *din, *dout;
  CK(cudaMalloc(&din, 5 * N * sizeof(double)));
  CK(cudaMalloc(&dout, NF * N * sizeof(double)));
  CK(cudaMemcpy(din, h, 5 * N * sizeof(double), cudaMemcpyHostToDevice));
  math_double<<<(N + 127) / 128, 128>>>(din, dout);
  CK(cudaGetLastError());
  double *o = (double *)malloc(NF * N * sizeof(double));
  CK(cudaMemcpy(o, dout, NF * N * sizeof(double), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double x = h[i], y = h[N + i], p = h[2 * N + i], u = h[3 * N + i], q = h[4 * N + i];
    int k = i % 17 - 8;
    (void)u; (void)q; (void)k;
#define HOST(n, d, hexpr, rel, ab) { \
      double ref = (hexpr); double got = o[F_##n * N + i]; \
      double tol = (rel) * std::fabs(ref) + (ab); \
      bool ok = (std::isnan(ref) && std::isnan(got)) || got == ref || std::fabs(got - ref) <= tol; \
      if (!ok && bad++ < 10) printf("FAIL math_double: %s(i=%d) = %.17g, expected %.17g\n", #n, i, got, ref); }
    FUNCS(HOST)
#undef HOST
  }
  cudaFree(din); cudaFree(dout);
  if (bad) return 1;
  printf("PASS math_double\n");
  return 0;
}
// EXPECT-OUTPUT: PASS math_double
