// cuda_fp16.h comparisons and classification: ordered (__heq ... __hge) and unordered (__hequ ... __hgeu)
// forms, __hisnan, __hisinf, on ordinary values, signed zeros, infinities and NaN. Each thread packs its
// 14 results into one int.
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define N 64

__global__ void fp16_compare(const float *x, const float *y, int *out) {
  int i = threadIdx.x;
  if (i >= N) return;
  __half a = __float2half(x[i]), b = __float2half(y[i]);
  int r = 0;
  r |= __heq(a, b) << 0;  r |= __hne(a, b) << 1;  r |= __hlt(a, b) << 2;  r |= __hle(a, b) << 3;
  r |= __hgt(a, b) << 4;  r |= __hge(a, b) << 5;
  r |= __hequ(a, b) << 6; r |= __hneu(a, b) << 7; r |= __hltu(a, b) << 8; r |= __hleu(a, b) << 9;
  r |= __hgtu(a, b) << 10; r |= __hgeu(a, b) << 11;
  r |= __hisnan(a) << 12; r |= (__hisinf(b) != 0) << 13;
  out[i] = r;
}

static float vx(int i) { const float s[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.5f, -2.25f, 65504.0f}; return i < 8 ? s[i] : ((i * 13) % 9 - 4) * 0.5f; }
static float vy(int i) { const float s[] = {1.0f, INFINITY, 3.0f, -0.0f, 0.0f, NAN, -2.25f, 70000.0f}; return i < 8 ? s[i] : ((i * 7) % 9 - 4) * 0.5f; }

int main() {
  float hx[N], hy[N]; int r[N];
  for (int i = 0; i < N; i++) { hx[i] = vx(i); hy[i] = vy(i); }
  float *dx, *dy; int *dout;
  cudaMalloc(&dx, sizeof(hx)); cudaMalloc(&dy, sizeof(hy)); cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  fp16_compare<<<1, N>>>(dx, dy, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float a = __half2float(__float2half(hx[i])), b = __half2float(__float2half(hy[i]));   // 70000 -> inf
    bool un = std::isnan(a) || std::isnan(b);
    int e = (a == b) | (!un && a != b) << 1 | (a < b) << 2 | (a <= b) << 3 | (a > b) << 4 | (a >= b) << 5 |
      (un || a == b) << 6 | (a != b) << 7 | (un || a < b) << 8 | (un || a <= b) << 9 | (un || a > b) << 10 | (un || a >= b) << 11 |
      std::isnan(a) << 12 | std::isinf(b) << 13;
    if (r[i] != e) { if (bad++ < 5) printf("FAIL cuda_fp16_compare: [%d] = %#x, expected %#x\n", i, r[i], e); }
  }
  if (bad) return 1;
  printf("PASS cuda_fp16_compare\n");
  return 0;
}
