// cuda_fp16.h conversions: float -> half in the four rounding modes, double -> half, half -> int/short/uint
// with rounding modes, int/short/unsigned -> half, and the bit casts __half_as_ushort/__ushort_as_half.
// Results are compared as raw bits with the host's float -> half conversions and integer rounding in double.
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define N 96
#define NR 12

__global__ void fp16_convert(const float *f, const int *iv, int *out) {
  int i = threadIdx.x;
  if (i >= N) return;
  float x = f[i];
  int *o = out + i * NR;
  o[0] = __half_as_ushort(__float2half_rn(x));
  o[1] = __half_as_ushort(__float2half_rz(x));
  o[2] = __half_as_ushort(__float2half_rd(x));
  o[3] = __half_as_ushort(__float2half_ru(x));
  o[4] = __half_as_ushort(__double2half((double)x * 1.0000001));
  __half h = __float2half(x * 0.01f);
  o[5] = __half2int_rn(h);
  o[6] = __half2int_rz(__float2half(x));
  o[7] = __half2short_rd(__float2half(x));
  o[8] = __half2uint_ru(__habs(__float2half(x)));
  o[9] = __half_as_ushort(__int2half_rn(iv[i]));
  o[10] = __half_as_ushort(__short2half_rn((short)(iv[i] >> 4)));
  o[11] = __half_as_ushort(__uint2half_rz((unsigned)iv[i] >> 8)) + (__ushort_as_half((unsigned short)(0x3c00 + i)) == __float2half(1.0f) ? 0x10000 : 0);
}

int main() {
  float hf[N]; int hi[N], r[N * NR];
  for (int i = 0; i < N; i++) {
    hf[i] = (i % 3 == 0 ? -1.0f : 1.0f) * (1.0f + i * 0.0009765625f * 0.37f) * (float)(1 << (i % 18)) * 0.125f;
    hi[i] = (i * 2654435761u) >> (i % 16);
  }
  float *df; int *di, *dout;
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&di, sizeof(hi)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice); cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice);
  fp16_convert<<<1, 128>>>(df, di, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float x = hf[i];
    float h1 = __half2float(__float2half(x * 0.01f)), h2 = __half2float(__float2half(x));
    unsigned u8 = (unsigned)hi[i] >> 8;
    int lz = 0; while (lz < 32 && !(u8 & (0x80000000u >> lz))) lz++;
    unsigned trunc11 = lz >= 21 ? u8 : u8 & ~((1u << (21 - lz)) - 1);   // keep 11 significant bits: round toward zero
    int e[NR] = {__half_as_ushort(__float2half_rn(x)), __half_as_ushort(__float2half_rz(x)), __half_as_ushort(__float2half_rd(x)),
      __half_as_ushort(__float2half_ru(x)), __half_as_ushort(__double2half((double)x * 1.0000001)), (int)std::nearbyint(h1),
      (int)std::trunc(h2), (short)std::floor(h2), (int)(unsigned)std::ceil(std::fabs(h2)),
      __half_as_ushort(__double2half((double)hi[i])), __half_as_ushort(__double2half((double)(short)(hi[i] >> 4))),
      __half_as_ushort(trunc11 > 65504u ? __ushort_as_half(0x7bff) : __double2half((double)trunc11)) + (i == 0 ? 0x10000 : 0)};
    for (int k = 0; k < NR; k++) if (r[i * NR + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_fp16_convert: [%d][%d] = %#x, expected %#x\n", i, k, r[i * NR + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_fp16_convert\n");
  return 0;
}
