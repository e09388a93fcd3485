// Paired comparisons of cuda_fp16.h: __hbeq2/__hblt2/__hbge2 (true when both halves compare true), the
// per-half __heq2/__hlt2 (1.0 or 0.0 in each half), __hisnan2, __hmin2/__hmax2 and __hmax2_nan.
#include <cstdio>
#include <cmath>
#include <cuda_fp16.h>

#define N 64

__global__ void half2_compare(const float *x, const float *y, float *out, int *flags) {
  int i = threadIdx.x;
  if (i >= N) return;
  __half2 a = __floats2half2_rn(x[i], y[i]);
  __half2 b = __floats2half2_rn(y[i], x[(i + 1) % N]);
  flags[i] = __hbeq2(a, b) | __hblt2(a, b) << 1 | __hbge2(a, b) << 2 | __hbgtu2(a, b) << 3;
  __half2 eq = __heq2(a, b), lt = __hlt2(a, b), nn = __hisnan2(a);
  __half2 mn = __hmin2(a, b), mx = __hmax2(a, b);
  out[i * 8 + 0] = __low2float(eq); out[i * 8 + 1] = __high2float(eq);
  out[i * 8 + 2] = __low2float(lt); out[i * 8 + 3] = __high2float(lt);
  out[i * 8 + 4] = __low2float(nn) + 2 * __high2float(nn);
  out[i * 8 + 5] = __low2float(mn) + __high2float(mn);
  out[i * 8 + 6] = __low2float(mx);
  out[i * 8 + 7] = __high2float(mx);
}

static float vx(int i) { const float s[] = {NAN, 1.0f, -0.0f, 2.5f}; return i < 4 ? s[i] : ((i * 5) % 7 - 3) * 0.5f; }
static float vy(int i) { const float s[] = {1.0f, NAN, 0.0f, 2.5f}; return i < 4 ? s[i] : ((i * 3) % 7 - 3) * 0.5f; }

int main() {
  float hx[N], hy[N], r[N * 8]; int fl[N];
  for (int i = 0; i < N; i++) { hx[i] = vx(i); hy[i] = vy(i); }
  float *dx, *dy, *dout; int *dfl;
  cudaMalloc(&dx, sizeof(hx)); cudaMalloc(&dy, sizeof(hy)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&dfl, sizeof(fl));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice); cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  half2_compare<<<1, N>>>(dx, dy, dout, dfl);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost); cudaMemcpy(fl, dfl, sizeof(fl), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    float a[2] = {hx[i], hy[i]}, b[2] = {hy[i], hx[(i + 1) % N]};
    bool eq[2], lt[2], ge[2], gtu[2];
    for (int l = 0; l < 2; l++) { eq[l] = a[l] == b[l]; lt[l] = a[l] < b[l]; ge[l] = a[l] >= b[l]; gtu[l] = !(a[l] <= b[l]); }
    int ef = (eq[0] && eq[1]) | (lt[0] && lt[1]) << 1 | (ge[0] && ge[1]) << 2 | (gtu[0] && gtu[1]) << 3;
    if (fl[i] != ef) { if (bad++ < 5) printf("FAIL cuda_half2_compare: flags[%d] = %#x, expected %#x\n", i, fl[i], ef); }
    auto hmin = [](float p, float q) { return std::isnan(p) ? q : std::isnan(q) ? p : std::fmin(p, q); };
    auto hmax = [](float p, float q) { return std::isnan(p) ? q : std::isnan(q) ? p : std::fmax(p, q); };
    float e[8] = {(float)eq[0], (float)eq[1], (float)lt[0], (float)lt[1], (float)std::isnan(a[0]) + 2 * (float)std::isnan(a[1]),
      hmin(a[0], b[0]) + hmin(a[1], b[1]), hmax(a[0], b[0]), hmax(a[1], b[1])};
    for (int k = 0; k < 8; k++) if (!(r[i * 8 + k] == e[k] || (std::isnan(r[i * 8 + k]) && std::isnan(e[k])))) { if (bad++ < 5) printf("FAIL cuda_half2_compare: [%d][%d] = %g, expected %g\n", i, k, r[i * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cuda_half2_compare\n");
  return 0;
}
