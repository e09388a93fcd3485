// cuda_bf16.h scalar arithmetic in device code: __float2bfloat16 (and _rz/_rd/_ru), __bfloat162float, the
// __h* intrinsics on __nv_bfloat16 (add, sub, mul, fma, neg, abs, min, max) and the C++ operators. Results
// are checked against the exact result rounded once to bfloat16 on the host.
#include <cstdio>
#include <cmath>
#include <cuda_bf16.h>

#define N 128
#define NR 12

__global__ void bf16_arith(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  __nv_bfloat16 a = __float2bfloat16(in[i]);
  __nv_bfloat16 b = __float2bfloat16_rn(in[N - 1 - i]);
  __nv_bfloat16 c = __float2bfloat16(0.75f);
  float *o = out + i * NR;
  o[0] = __bfloat162float(__hadd(a, b));
  o[1] = __bfloat162float(__hsub(a, b));
  o[2] = __bfloat162float(__hmul(a, b));
#if __CUDA_ARCH__ >= 800
  o[3] = __bfloat162float(__hfma(a, b, c));
#else
  // no bf16 fma before sm_80: in float (a*b+c is exact there for these inputs)
  o[3] = __bfloat162float(__float2bfloat16(fmaf(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c))));
#endif
  o[4] = __bfloat162float(__hneg(a));
  o[5] = __bfloat162float(__habs(b));
  o[6] = __bfloat162float(__hmin(a, b));
  o[7] = __bfloat162float(__hmax(a, b));
  o[8] = a * b + c;                       // operators, converted to float by operator float()
  o[9] = __bfloat162float(__float2bfloat16_rz(in[i] * 1.001f));
  o[10] = __bfloat162float(__float2bfloat16_rd(in[i] * 1.001f)) + __bfloat162float(__float2bfloat16_ru(in[i] * 1.001f));
  o[11] = (a < b) + 2 * (a == b) + 4 * __hgt(a, c);
}

static float input(int i) { return ((i * 37) % 257 - 128) / 8.0f; }

int main() {
  float h[N], r[N * NR];
  for (int i = 0; i < N; i++) h[i] = input(i);
  float *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  bf16_arith<<<2, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  auto rb = [](double x) { return (double)__bfloat162float(__double2bfloat16(x)); };
  for (int i = 0; i < N; i++) {
    double a = rb(h[i]), b = rb(h[N - 1 - i]), c = 0.75;
    float x = h[i] * 1.001f;
    double e[NR] = {rb(a + b), rb(a - b), rb(a * b), rb(a * b + c), -a, std::fabs(b), std::fmin(a, b), std::fmax(a, b), rb(rb(a * b) + c),
      __bfloat162float(__float2bfloat16_rz(x)), (double)__bfloat162float(__float2bfloat16_rd(x)) + __bfloat162float(__float2bfloat16_ru(x)),
      (double)((a < b) + 2 * (a == b) + 4 * (a > c))};
    // a * b + c with the operators is mul.bf16 + add.bf16 without .rn: ptxas may contract them into one fma
    // (it does on sm_90), so the singly rounded result is right too
    for (int k = 0; k < NR; k++) if (r[i * NR + k] != (float)e[k] && !(k == 8 && r[i * NR + k] == (float)rb(a * b + c))) { if (bad++ < 5) printf("FAIL cuda_bf16_arith: [%d][%d] = %g, expected %g\n", i, k, r[i * NR + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_bf16_arith\n");
  return 0;
}
