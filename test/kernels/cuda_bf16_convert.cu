// cuda_bf16.h conversions: float -> bfloat16 in the four rounding modes, bfloat16 -> float (exact), integer
// <-> bfloat16, the bit casts __bfloat16_as_ushort/__ushort_as_bfloat16, and bfloat16 comparisons.
#include <cstdio>
#include <cmath>
#include <cuda_bf16.h>

#define N 96
#define NR 9

__global__ void bf16_convert(const float *f, int *out) {
  int i = threadIdx.x;
  if (i >= N) return;
  float x = f[i];
  int *o = out + i * NR;
  o[0] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
  o[1] = __bfloat16_as_ushort(__float2bfloat16_rz(x));
  o[2] = __bfloat16_as_ushort(__float2bfloat16_rd(x));
  o[3] = __bfloat16_as_ushort(__float2bfloat16_ru(x));
  o[4] = __bfloat16_as_ushort(__double2bfloat16((double)x * 1.0000001));
  o[5] = (int)__bfloat162float(__ushort_as_bfloat16((unsigned short)(0x3f80 + (i & 7))) ) * 1000;
  o[6] = __bfloat162int_rz(__float2bfloat16(x));
  o[7] = __bfloat16_as_ushort(__int2bfloat16_rn(i * 1234567 - 50000000));
  __nv_bfloat16 a = __float2bfloat16(x), b = __float2bfloat16(-x * 0.5f);
  o[8] = __heq(a, b) | __hlt(a, b) << 1 | __hge(a, b) << 2 | __hisnan(a) << 3;
}

static unsigned short bf_rne(double v) { return __bfloat16_as_ushort(__double2bfloat16(v)); }

int main() {
  float hf[N]; int r[N * NR];
  for (int i = 0; i < N; i++) hf[i] = (i % 3 == 0 ? -1.0f : 1.0f) * (1.0f + i * 0.00390625f * 0.37f) * (float)(1 << (i % 20)) * 0.0625f;
  hf[5] = NAN; hf[6] = INFINITY; hf[7] = 0.0f;
  float *df; int *dout;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  bf16_convert<<<1, 128>>>(df, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = hf[i];
    float a = __bfloat162float(__float2bfloat16(x)), b = __bfloat162float(__float2bfloat16(-x * 0.5f));
    float t = std::trunc(a);
    int e[NR] = {__bfloat16_as_ushort(__float2bfloat16_rn(x)), __bfloat16_as_ushort(__float2bfloat16_rz(x)), __bfloat16_as_ushort(__float2bfloat16_rd(x)),
      __bfloat16_as_ushort(__float2bfloat16_ru(x)), __bfloat16_as_ushort(__double2bfloat16((double)x * 1.0000001)),
      (int)(1.0f + (i & 7) / 128.0f) * 1000, std::isnan(a) ? 0 : t >= 2147483648.0f ? 2147483647 : t <= -2147483648.0f ? (int)0x80000000 : (int)t,
      bf_rne((double)(i * 1234567 - 50000000)),
      (a == b) | (a < b) << 1 | (a >= b) << 2 | std::isnan(a) << 3};
    // a NaN converted from double: the GPU gives the canonical NaN (0x7fc0), the host's software conversion 0x7fff
    auto anyNaN = [](int v) { return (v & 0x7f80) == 0x7f80 && (v & 0x7f) != 0; };
    for (int k = 0; k < NR; k++) if (r[i * NR + k] != e[k] && !(k == 4 && anyNaN(e[k]) && anyNaN(r[i * NR + k]))) { if (bad++ < 5) printf("FAIL cuda_bf16_convert: [%d][%d] = %#x, expected %#x\n", i, k, r[i * NR + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_bf16_convert\n");
  return 0;
}
