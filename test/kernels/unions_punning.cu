// Unions: type punning float<->bits, splitting 64-bit values into 32-bit halves and bytes,
// a tagged union inside a struct, union arrays in global memory.
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL unions_punning: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

union FloatBits { float f; unsigned u; unsigned char b[4]; };
union Split64 { unsigned long long v; struct { unsigned lo, hi; } h; unsigned short s[4]; };
struct Tagged { int kind; union { int i; float f; double d; } val; };

__global__ void kernel(const float *in, const Tagged *tg, unsigned *out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  FloatBits fb; fb.f = in[t];
  Split64 sp; sp.v = (unsigned long long)fb.u * 0x100000001ULL + t;
  out[t * 6 + 0] = fb.u;
  out[t * 6 + 1] = (fb.b[3] << 24) | fb.b[0];
  out[t * 6 + 2] = sp.h.hi ^ sp.h.lo;
  out[t * 6 + 3] = sp.s[0] + sp.s[3];
  fb.u ^= 0x80000000u;                    // flip the sign through the integer view
  out[t * 6 + 4] = (unsigned)(int)(fb.f * 2.0f);
  Tagged x = tg[t];
  unsigned r;
  if (x.kind == 0) r = (unsigned)x.val.i;
  else if (x.kind == 1) { FloatBits q; q.f = x.val.f; r = q.u; }
  else { union { double d; Split64 s; } q; q.d = x.val.d; r = q.s.h.hi; }
  out[t * 6 + 5] = r;
}

int main() {
  const int n = 48;
  float hin[n]; Tagged htg[n]; unsigned hout[n * 6];
  for (int i = 0; i < n; i++) {
    hin[i] = (i - 20) * 1.25f;
    htg[i].kind = i % 3;
    if (i % 3 == 0) htg[i].val.i = -i * 1000; else if (i % 3 == 1) htg[i].val.f = i * 0.5f; else htg[i].val.d = i * -3.5;
  }
  float *din; Tagged *dtg; unsigned *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dtg, sizeof(htg))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dtg, htg, sizeof(htg), cudaMemcpyHostToDevice));
  kernel<<<1, 64>>>(din, dtg, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    unsigned u; memcpy(&u, &hin[t], 4);
    unsigned long long v = (unsigned long long)u * 0x100000001ULL + t;
    unsigned lo = (unsigned)v, hi = (unsigned)(v >> 32);
    unsigned w[6] = {u, ((u >> 24) << 24) | (u & 0xff), hi ^ lo, (unsigned)((v & 0xffff) + (v >> 48)), (unsigned)(int)(-hin[t] * 2.0f), 0};
    if (htg[t].kind == 0) w[5] = (unsigned)htg[t].val.i;
    else if (htg[t].kind == 1) memcpy(&w[5], &htg[t].val.f, 4);
    else { unsigned long long q; memcpy(&q, &htg[t].val.d, 8); w[5] = (unsigned)(q >> 32); }
    for (int k = 0; k < 6; k++)
      if (hout[t * 6 + k] != w[k]) { printf("FAIL unions_punning: t=%d k=%d got %08x want %08x\n", t, k, hout[t * 6 + k], w[k]); return 1; }
  }
  printf("PASS unions_punning\n");
  return 0;
}
