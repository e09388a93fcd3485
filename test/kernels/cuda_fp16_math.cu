// cuda_fp16.h math functions in device code: hsqrt, hrsqrt, hrcp, hexp, hexp2, hlog, hlog2, hsin, hcos,
// hfloor, hceil, htrunc, hrint and the paired h2sqrt/h2exp. The header computes most of them in f32 with
// approximate instructions; results are checked within a few half-precision ulps of the host's libm.
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define N 128
#define NR 15

__global__ void fp16_math(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  __half x = __float2half(in[i]);
  __half p = __habs(x) + __float2half(0.125f);
  float *o = out + i * NR;
  o[0] = __half2float(hsqrt(p));
  o[1] = __half2float(hrsqrt(p));
  o[2] = __half2float(hrcp(p));
  o[3] = __half2float(hexp(x));
  o[4] = __half2float(hexp2(x));
  o[5] = __half2float(hlog(p));
  o[6] = __half2float(hlog2(p));
  o[7] = __half2float(hsin(x));
  o[8] = __half2float(hcos(x));
  o[9] = __half2float(hfloor(x));
  o[10] = __half2float(hceil(x));
  o[11] = __half2float(htrunc(x));
  o[12] = __half2float(hrint(x));
  __half2 s = h2sqrt(__halves2half2(p, p + p));
  o[13] = __low2float(s) + __high2float(s);
  __half2 e = h2exp(__halves2half2(x, -x));
  o[14] = __low2float(e) * __high2float(e);
}

static float input(int i) { return ((i * 37) % 257 - 128) / 32.0f; }

int main() {
  float h[N], r[N * NR];
  for (int i = 0; i < N; i++) h[i] = input(i);
  float *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  fp16_math<<<2, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double x = h[i], p = std::fabs(x) + 0.125;
    double e[NR] = {std::sqrt(p), 1 / std::sqrt(p), 1 / p, std::exp(x), std::exp2(x), std::log(p), std::log2(p), std::sin(x), std::cos(x),
      std::floor(x), std::ceil(x), std::trunc(x), std::nearbyint(x), std::sqrt(p) + std::sqrt(2 * p), 1.0};
    for (int k = 0; k < NR; k++) {
      double tol = 4e-3 * std::fabs(e[k]) + 2e-3;   // a few ulps of half precision
      if (!(std::fabs(r[i * NR + k] - e[k]) <= tol)) { if (bad++ < 5) printf("FAIL cuda_fp16_math: [%d][%d] = %g, expected %g\n", i, k, r[i * NR + k], e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_fp16_math\n");
  return 0;
}
