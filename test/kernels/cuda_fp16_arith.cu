// cuda_fp16.h scalar arithmetic in device code: __float2half/__half2float and the __h* intrinsics (add, sub,
// mul, fma, neg, abs, min, max, div, saturating add), which the header implements with inline PTX
// (constraint "h" for 16-bit registers). Each result is checked against the exact result rounded once to
// half precision on the host (the inputs are multiples of 2^-6 below 16, so sums and products are exact in double).
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define N 128
#define NR 10

__global__ void fp16_arith(const float *in, float *out, unsigned short *raw) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  __half a = __float2half(in[i]);
  __half b = __float2half_rn(in[N - 1 - i]);
  __half c = __float2half(0.75f);
  __half r[NR];
  r[0] = __hadd(a, b);
  r[1] = __hsub(a, b);
  r[2] = __hmul(a, b);
  r[3] = __hfma(a, b, c);
  r[4] = __hneg(a);
  r[5] = __habs(b);
  r[6] = __hmin(a, b);
  r[7] = __hmax(a, b);
  r[8] = __hdiv(a, __hadd(__habs(b), c));
  r[9] = __hadd_sat(a, c);
  for (int k = 0; k < NR; k++) {
    out[i * NR + k] = __half2float(r[k]);
    raw[i * NR + k] = __half_as_ushort(r[k]);
  }
}

static float input(int i) { return ((i * 37) % 257 - 128) / 16.0f; }

int main() {
  float h[N], r[N * NR];
  unsigned short rr[N * NR];
  for (int i = 0; i < N; i++) h[i] = input(i);
  float *din, *dout; unsigned short *draw;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&draw, sizeof(rr));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  fp16_arith<<<2, 64>>>(din, dout, draw);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(rr, draw, sizeof(rr), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    double a = __half2float(__float2half(h[i])), b = __half2float(__float2half(h[N - 1 - i])), c = 0.75;
    double sat = a + c < 0 ? 0 : a + c > 1 ? 1 : a + c;
    double e[NR] = {a + b, a - b, a * b, a * b + c, -a, std::fabs(b), std::fmin(a, b), std::fmax(a, b), a / (std::fabs(b) + c), sat};
    for (int k = 0; k < NR; k++) {
      float want = __half2float(__double2half(e[k]));
      // __hdiv is correctly rounded too, up to one ulp from the quotient rounded first to float
      float tol = k == 8 ? std::fabs(want) * 1e-3f : 0.0f;
      if (!(std::fabs(r[i * NR + k] - want) <= tol)) { if (bad++ < 5) printf("FAIL cuda_fp16_arith: [%d][%d] = %g, expected %g\n", i, k, r[i * NR + k], want); }
      if (__half_as_ushort(__float2half(r[i * NR + k])) != rr[i * NR + k]) { if (bad++ < 5) printf("FAIL cuda_fp16_arith: raw [%d][%d]\n", i, k); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_fp16_arith\n");
  return 0;
}
