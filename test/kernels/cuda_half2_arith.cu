// __half2 (two halves in one 32-bit register) in device code: packing (__floats2half2_rn, __halves2half2,
// __half2half2), the paired intrinsics (__hadd2, __hsub2, __hmul2, __hfma2, __hneg2, __habs2, __hmax2),
// element access (__low2half, __high2half, __lowhigh2highlow) and unpacking to float2.
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define N 128
#define NR 9

__global__ void half2_arith(const float *in, float2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  __half2 a = __floats2half2_rn(in[i], in[(i + 5) % N]);
  __half2 b = __halves2half2(__float2half(in[N - 1 - i]), __float2half(0.5f));
  __half2 c = __half2half2(__float2half(-1.25f));
  __half2 r[NR];
  r[0] = __hadd2(a, b);
  r[1] = __hsub2(a, b);
  r[2] = __hmul2(a, b);
  r[3] = __hfma2(a, b, c);
  r[4] = __hneg2(a);
  r[5] = __habs2(__hsub2(b, a));
  r[6] = __hmax2(a, b);
  r[7] = __lowhigh2highlow(a);
  r[8] = __halves2half2(__high2half(b), __low2half(a));
  for (int k = 0; k < NR; k++) out[i * NR + k] = __half22float2(r[k]);
}

static float input(int i) { return ((i * 37) % 257 - 128) / 16.0f; }

int main() {
  float h[N]; float2 r[N * NR];
  for (int i = 0; i < N; i++) h[i] = input(i);
  float *din; float2 *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  half2_arith<<<2, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  auto rh = [](double x) { return (double)__half2float(__double2half(x)); };
  for (int i = 0; i < N; i++) {
    double a[2] = {h[i], h[(i + 5) % N]}, b[2] = {h[N - 1 - i], 0.5}, c = -1.25;
    for (int l = 0; l < 2; l++) {
      double e[NR] = {rh(a[l] + b[l]), rh(a[l] - b[l]), rh(a[l] * b[l]), rh(a[l] * b[l] + c), -a[l], std::fabs(rh(b[l] - a[l])),
        std::fmax(a[l], b[l]), a[1 - l], l == 0 ? b[1] : a[0]};
      for (int k = 0; k < NR; k++) {
        float got = l == 0 ? r[i * NR + k].x : r[i * NR + k].y;
        if (got != (float)e[k]) { if (bad++ < 5) printf("FAIL cuda_half2_arith: [%d][%d].%c = %g, expected %g\n", i, k, "xy"[l], got, e[k]); }
      }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_half2_arith\n");
  return 0;
}
