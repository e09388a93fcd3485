// math_fast: the fast intrinsics (__expf, __sinf, __fdividef, __saturatef, the _rn/_rz/_ru/_rd arithmetic)
// checked against the host's libm with the error bounds the CUDA Programming Guide documents for them.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cfenv>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL math_fast: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

#define N 256
// name, device expression, host expression, relative tolerance, absolute tolerance
#define FUNCS(X) \
  X(expf, __expf(x), std::exp((double)x), 2e-6, 1e-6) \
  X(exp10f, __exp10f(x), std::pow(10.0, (double)x), 2e-5, 1e-6) \
  X(logf, __logf(p), std::log((double)p), 0, 2e-6) \
  X(log2f, __log2f(p), std::log2((double)p), 0, 2e-6) \
  X(log10f, __log10f(p), std::log10((double)p), 0, 2e-6) \
  X(sinf, __sinf(x), std::sin((double)x), 0, 4e-6) \
  X(cosf, __cosf(x), std::cos((double)x), 0, 4e-6) \
  X(tanf, __tanf(u), std::tan((double)u), 1e-5, 4e-6) \
  X(sincosf, (__sincosf(x, &s, &c), s + 2.0f * c), std::sin((double)x) + 2.0 * std::cos((double)x), 0, 1e-5) \
  X(powf, __powf(p, u), std::pow((double)p, (double)u), 2e-5, 1e-6) \
  X(fdividef, __fdividef(x, y), (double)x / (double)y, 4e-7, 0) \
  X(saturatef, __saturatef(x), std::fmin(1.0, std::fmax(0.0, (double)x)), 0, 0) \
  X(frcp_rn, __frcp_rn(p), (double)(1.0f / p), 0, 0) \
  X(fsqrt_rn, __fsqrt_rn(p), (double)std::sqrt(p), 0, 0) \
  X(frsqrt_rn, __frsqrt_rn(p), 1.0 / std::sqrt((double)p), 1.2e-7, 0) \
  X(fmul_rn, __fmul_rn(x, y), (double)(x * y), 0, 0) \
  X(fadd_rn, __fadd_rn(x, y), (double)(x + y), 0, 0) \
  X(fsub_rn, __fsub_rn(x, y), (double)(x - y), 0, 0) \
  X(fdiv_rn, __fdiv_rn(x, y), (double)(x / y), 0, 0) \
  X(fmaf_rn, __fmaf_rn(x, y, p), (double)std::fma(x, y, p), 0, 0) \
  X(fadd_rz, __fadd_rz(x, y), rounded(FE_TOWARDZERO, x, y, 0), 0, 0) \
  X(fmul_ru, __fmul_ru(x, y), rounded(FE_UPWARD, x, y, 1), 0, 0) \
  X(fdiv_rd, __fdiv_rd(x, y), rounded(FE_DOWNWARD, x, y, 2), 0, 0) \
  X(float2int_rn, (float)__float2int_rn(x * 3.0f), (double)(int)std::nearbyint(x * 3.0f), 0, 0) \
  X(float2int_rz, (float)__float2int_rz(x * 3.0f), (double)(int)(x * 3.0f), 0, 0) \
  X(int2float_rn, __int2float_rn(k * 1000003), (double)(float)(k * 1000003), 0, 0) \
  X(fast_div, x / y, (double)x / (double)y, 4e-7, 0)

enum { FUNCS_COUNT_START = -1,
#define ENUM(n, d, h, r, a) F_##n,
  FUNCS(ENUM)
#undef ENUM
  NF };

/** x op y in float under a host rounding mode (0 add, 1 mul, 2 div). */
static double rounded(int mode, float x, float y, int op) {
  volatile float a = x, b = y;
  int old = fegetround();
  fesetround(mode);
  volatile float r = op == 0 ? a + b : op == 1 ? a * b : a / b;
  fesetround(old);
  return (double)r;
}

__global__ void math_fast(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float x = in[i], y = in[N + i], p = in[2 * N + i], u = in[3 * N + i];
  int k = i % 17 - 8;
  float s = 0, c = 0;
#define DEV(n, d, h, r, a) out[F_##n * N + i] = (d);
  FUNCS(DEV)
#undef DEV
}

int main() {
  float *h = (float *)malloc(4 * N * sizeof(float));
  for (int i = 0; i < N; i++) {
    h[i] = (float)((i * 37) % 200 - 100) * 0.0311f;          // x in [-3.1, 3.1]
    h[N + i] = (float)((i * 53) % 150 - 75) * 0.0417f + 0.013f; // y, never 0
    h[2 * N + i] = (float)((i * 29) % 250 + 1) * 0.0357f;    // p > 0
    h[3 * N + i] = (float)((i * 41) % 200 - 100) * 0.00999f; // u in (-1, 1)
  }
  float *din, *dout;
  CK(cudaMalloc(&din, 4 * N * sizeof(float)));
  CK(cudaMalloc(&dout, NF * N * sizeof(float)));
  CK(cudaMemcpy(din, h, 4 * N * sizeof(float), cudaMemcpyHostToDevice));
  math_fast<<<(N + 127) / 128, 128>>>(din, dout);
  CK(cudaGetLastError());
  float *o = (float *)malloc(NF * N * sizeof(float));
  CK(cudaMemcpy(o, dout, NF * N * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = h[i], y = h[N + i], p = h[2 * N + i], u = h[3 * N + i];
    int k = i % 17 - 8;
    (void)u; (void)k;
#define HOST(n, d, hexpr, rel, ab) { \
      double ref = (hexpr); double got = o[F_##n * N + i]; \
      double tol = (rel) * std::fabs(ref) + (ab); \
      bool ok = (std::isnan(ref) && std::isnan(got)) || got == ref || std::fabs(got - ref) <= tol; \
      if (!ok && bad++ < 10) printf("FAIL math_fast: %s(i=%d) = %.9g, expected %.9g\n", #n, i, got, ref); }
    FUNCS(HOST)
#undef HOST
  }
  cudaFree(din); cudaFree(dout);
  if (bad) return 1;
  printf("PASS math_fast\n");
  return 0;
}
// EXPECT-OUTPUT: PASS math_fast
