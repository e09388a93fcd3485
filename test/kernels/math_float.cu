// math_float: the single-precision CUDA math API through libdevice, checked against the host's libm.
// Tolerances are loose multiples of the documented ULP bounds (CUDA C Programming Guide, "Mathematical Functions").
#include <cstdio>
#include <cstdlib>
#include <cmath>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL math_float: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

#define N 256
// name, device expression, host expression, relative tolerance, absolute tolerance
#define FUNCS(X) \
  X(sqrtf, sqrtf(p), std::sqrt(p), 1e-6, 0) \
  X(rsqrtf, rsqrtf(p), 1.0 / std::sqrt((double)p), 4e-7, 0) \
  X(cbrtf, cbrtf(x), std::cbrt(x), 4e-7, 0) \
  X(rcbrtf, rcbrtf(p), 1.0 / std::cbrt((double)p), 4e-7, 0) \
  X(expf, expf(x), std::exp(x), 4e-7, 0) \
  X(exp2f, exp2f(x), std::exp2(x), 4e-7, 0) \
  X(exp10f, exp10f(x), std::pow(10.0, (double)x), 4e-7, 0) \
  X(expm1f, expm1f(x), std::expm1(x), 4e-7, 1e-7) \
  X(logf, logf(p), std::log(p), 4e-7, 1e-7) \
  X(log2f, log2f(p), std::log2(p), 4e-7, 1e-7) \
  X(log10f, log10f(p), std::log10(p), 4e-7, 1e-7) \
  X(log1pf, log1pf(p), std::log1p(p), 4e-7, 1e-7) \
  X(powf, powf(p, y), std::pow((double)p, (double)y), 1e-6, 0) \
  X(sinf, sinf(x), std::sin(x), 4e-7, 1e-7) \
  X(cosf, cosf(x), std::cos(x), 4e-7, 1e-7) \
  X(tanf, tanf(x), std::tan(x), 8e-7, 1e-7) \
  X(sinpif, sinpif(x), std::sin(M_PI * (double)x), 4e-7, 2e-7) \
  X(cospif, cospif(x), std::cos(M_PI * (double)x), 4e-7, 2e-7) \
  X(asinf, asinf(u), std::asin(u), 8e-7, 1e-7) \
  X(acosf, acosf(u), std::acos(u), 8e-7, 1e-7) \
  X(atanf, atanf(x), std::atan(x), 4e-7, 1e-7) \
  X(atan2f, atan2f(x, y), std::atan2(x, y), 8e-7, 1e-7) \
  X(sinhf, sinhf(x), std::sinh(x), 8e-7, 1e-7) \
  X(coshf, coshf(x), std::cosh(x), 8e-7, 0) \
  X(tanhf, tanhf(x), std::tanh(x), 8e-7, 1e-7) \
  X(asinhf, asinhf(x), std::asinh(x), 8e-7, 1e-7) \
  X(acoshf, acoshf(p + 1.0f), std::acosh(p + 1.0f), 8e-7, 1e-7) \
  X(atanhf, atanhf(u * 0.99f), std::atanh(u * 0.99f), 8e-7, 1e-7) \
  X(erff, erff(x), std::erf(x), 4e-7, 1e-7) \
  X(erfcf, erfcf(x), std::erfc(x), 1e-6, 1e-7) \
  X(erfinvf, erfinvf(u * 0.99f), erfinv_ref(u * 0.99f), 1e-6, 1e-6) \
  X(lgammaf, lgammaf(p), std::lgamma(p), 1e-6, 1e-6) \
  X(tgammaf, tgammaf(p), std::tgamma(p), 2e-6, 0) \
  X(fmodf, fmodf(x, y), std::fmod(x, y), 0, 0) \
  X(remainderf, remainderf(x, y), std::remainder(x, y), 0, 0) \
  X(floorf, floorf(x), std::floor(x), 0, 0) \
  X(ceilf, ceilf(x), std::ceil(x), 0, 0) \
  X(truncf, truncf(x), std::trunc(x), 0, 0) \
  X(roundf, roundf(x), std::round(x), 0, 0) \
  X(rintf, rintf(x), std::rint(x), 0, 0) \
  X(fabsf, fabsf(x), std::fabs(x), 0, 0) \
  X(fminf, fminf(x, y), std::fmin(x, y), 0, 0) \
  X(fmaxf, fmaxf(x, y), std::fmax(x, y), 0, 0) \
  X(fdimf, fdimf(x, y), std::fdim(x, y), 0, 0) \
  X(fmaf, fmaf(x, y, p), std::fma(x, y, p), 0, 0) \
  X(hypotf, hypotf(x, y), std::hypot(x, y), 4e-7, 0) \
  X(copysignf, copysignf(p, x), std::copysign(p, x), 0, 0) \
  X(ldexpf, ldexpf(x, k), std::ldexp(x, k), 0, 0) \
  X(frexpf, frexpf(x, &e) + e, fx(x), 0, 0) \
  X(modff, modff(x, &ip) + 10.0f * ip, mx(x), 0, 0) \
  X(scalbnf, scalbnf(x, k), std::scalbn(x, k), 0, 0) \
  X(logbf, logbf(p), std::logb(p), 0, 0) \
  X(ilogbf, (float)ilogbf(p), (float)std::ilogb(p), 0, 0) \
  X(nextafterf, nextafterf(x, y), std::nextafter(x, y), 0, 0) \
  X(isnan, (float)(__isnanf(q) ? 1 : 0), (float)(std::isnan(q) ? 1 : 0), 0, 0) \
  X(isinf, (float)(__isinff(q) ? 1 : 0), (float)(std::isinf(q) ? 1 : 0), 0, 0) \
  X(isfinite, (float)(__finitef(q) ? 1 : 0), (float)(std::isfinite(q) ? 1 : 0), 0, 0) \
  X(signbit, (float)(__signbitf(x) ? 1 : 0), (float)(std::signbit(x) ? 1 : 0), 0, 0) \
  X(sincosf, (sincosf(x, &s, &c), s + 2.0f * c), std::sin(x) + 2.0 * std::cos(x), 1e-6, 2e-7) \
  X(normcdff, normcdff(x), 0.5 * std::erfc(-(double)x / std::sqrt(2.0)), 1e-6, 1e-7) \
  X(division, x / y, (double)x / (double)y, 1e-7, 0) \
  X(reciprocal, 1.0f / p, 1.0 / (double)p, 1e-7, 0)

enum { FUNCS_COUNT_START = -1,
#define ENUM(n, d, h, r, a) F_##n,
  FUNCS(ENUM)
#undef ENUM
  NF };

static double erfinv_ref(double y) {  // Newton on erf, good to double precision for |y| < 1
  double x = 0;
  for (int i = 0; i < 100; i++) x -= (std::erf(x) - y) / (2.0 / std::sqrt(M_PI) * std::exp(-x * x));
  return x;
}
static double fx(float x) { int e; float m = std::frexp(x, &e); return (double)(m + (float)e); }
static double mx(float x) { float ip; float f = std::modf(x, &ip); return (double)(f + 10.0f * ip); }

__global__ void math_float(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float x = in[i], y = in[N + i], p = in[2 * N + i], u = in[3 * N + i], q = in[4 * N + i];
  int k = i % 17 - 8, e = 0;
  float ip = 0, s = 0, c = 0;
#define DEV(n, d, h, r, a) out[F_##n * N + i] = (d);
  FUNCS(DEV)
#undef DEV
}

int main() {
  float *h = (float *)malloc(5 * N * sizeof(float));
  for (int i = 0; i < N; i++) {
    h[i] = (float)((i * 37) % 200 - 100) * 0.0731f;          // x in [-7.3, 7.3]
    h[N + i] = (float)((i * 53) % 150 - 75) * 0.0417f + 0.013f; // y, never 0
    h[2 * N + i] = (float)((i * 29) % 250 + 1) * 0.0357f;    // p > 0
    h[3 * N + i] = (float)((i * 41) % 200 - 100) * 0.00999f; // u in (-1, 1)
    float specials[4] = {NAN, INFINITY, -INFINITY, 0.0f};
    h[4 * N + i] = (i % 8 < 4) ? specials[i % 4] : h[i];       // q: specials and finite values
  }
  float *din, *dout;
  CK(cudaMalloc(&din, 5 * N * sizeof(float)));
  CK(cudaMalloc(&dout, NF * N * sizeof(float)));
  CK(cudaMemcpy(din, h, 5 * N * sizeof(float), cudaMemcpyHostToDevice));
  math_float<<<(N + 127) / 128, 128>>>(din, dout);
  CK(cudaGetLastError());
  float *o = (float *)malloc(NF * N * sizeof(float));
  CK(cudaMemcpy(o, dout, NF * N * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = h[i], y = h[N + i], p = h[2 * N + i], u = h[3 * N + i], q = h[4 * N + i];
    int k = i % 17 - 8;
    (void)u; (void)q; (void)k;
#define HOST(n, d, hexpr, rel, ab) { \
      double ref = (hexpr); double got = o[F_##n * N + i]; \
      double tol = (rel) * std::fabs(ref) + (ab) + 2.0 * std::fabs(ref) * 1.2e-7 * ((rel) > 0); \
      bool ok = (std::isnan(ref) && std::isnan(got)) || got == ref || std::fabs(got - ref) <= tol; \
      if (!ok && bad++ < 10) printf("FAIL math_float: %s(i=%d) = %.9g, expected %.9g\n", #n, i, got, ref); }
    FUNCS(HOST)
#undef HOST
  }
  cudaFree(din); cudaFree(dout);
  if (bad) return 1;
  printf("PASS math_float\n");
  return 0;
}
// EXPECT-OUTPUT: PASS math_float
