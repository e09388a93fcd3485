// Moving data between float, __half/__half2 and __nv_bfloat16/__nv_bfloat162: __float22half2_rn,
// __half22float2, __float2half2_rn, __low2half/__high2half, __floats2bfloat162_rn, __bfloat1622float2,
// __low2bfloat16, __high2bfloat16, and __half -> float -> __nv_bfloat16 round trips.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define N 128

__global__ void half_bf16_mix(const float2 *in, float2 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float2 v = in[i];
  __half2 h = __float22half2_rn(v);
  __half2 hs = __float2half2_rn(v.x + v.y);
  __nv_bfloat162 b = __floats2bfloat162_rn(v.y, v.x);
  __nv_bfloat16 lo = __low2bfloat16(b), hi = __high2bfloat16(b);
  __nv_bfloat16 viaf = __float2bfloat16(__half2float(__high2half(h)));
  out[i * 4 + 0] = __half22float2(h);
  out[i * 4 + 1] = make_float2(__half2float(__low2half(hs)), __half2float(__high2half(hs)));
  out[i * 4 + 2] = __bfloat1622float2(b);
  out[i * 4 + 3] = make_float2(__bfloat162float(lo) - __bfloat162float(hi), __bfloat162float(viaf));
}

int main() {
  float2 h[N], r[N * 4];
  for (int i = 0; i < N; i++) h[i] = make_float2((i - 64) * 0.3f + 0.01f, (i * 7 % 50) * 1.37f - 20.0f);
  float2 *din, *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  half_bf16_mix<<<2, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  auto fh = [](float x) { return __half2float(__float2half_rn(x)); };
  auto fb = [](float x) { return __bfloat162float(__float2bfloat16_rn(x)); };
  for (int i = 0; i < N; i++) {
    float x = h[i].x, y = h[i].y;
    float e[8] = {fh(x), fh(y), fh(x + y), fh(x + y), fb(y), fb(x), fb(y) - fb(x), fb(fh(y))};
    for (int k = 0; k < 8; k++) {
      float got = k % 2 ? r[i * 4 + k / 2].y : r[i * 4 + k / 2].x;
      if (got != e[k]) { if (bad++ < 5) printf("FAIL cuda_half_bf16_mix: [%d][%d] = %g, expected %g\n", i, k, got, e[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cuda_half_bf16_mix\n");
  return 0;
}
