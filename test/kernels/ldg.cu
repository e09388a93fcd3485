// __ldg read-only loads of char, short, int, long long, unsigned, float, double and vector types (int2,
// float4) through const __restrict__ pointers.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL ldg: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(const signed char *__restrict__ c, const short *__restrict__ s, const int *__restrict__ i,
                       const long long *__restrict__ ll, const unsigned *__restrict__ u, const float *__restrict__ f,
                       const double *__restrict__ d, const int2 *__restrict__ i2, const float4 *__restrict__ f4,
                       long long *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int2 a = __ldg(&i2[t]);
  float4 b = __ldg(&f4[t]);
  long long v = __ldg(&c[t]) + __ldg(&s[t]) * 3 + __ldg(&i[t]) * 5LL + __ldg(&ll[t]) + __ldg(&u[t]);
  v += (long long)(__ldg(&f[t]) * 2.0f) + (long long)(__ldg(&d[t]) * 4.0);
  v += a.x - a.y + (long long)(b.x + b.y * 2.0f + b.z * 4.0f + b.w * 8.0f);
  out[t] = v;
}

int main() {
  const int n = 300;
  signed char hc[n]; short hs[n]; int hi[n]; long long hll[n]; unsigned hu[n]; float hf[n]; double hd[n]; int2 hi2[n]; float4 hf4[n];
  for (int t = 0; t < n; t++) {
    hc[t] = (signed char)(t - 128); hs[t] = (short)(t * 100 - 15000); hi[t] = t * 12345 - 1000000; hll[t] = (long long)t << 35;
    hu[t] = 4000000000u - t; hf[t] = t * 0.5f - 3.0f; hd[t] = t * -0.25; hi2[t] = make_int2(t, -2 * t);
    hf4[t] = make_float4(t, 1.0f, -0.5f, 0.25f * t);
  }
  signed char *dc; short *ds; int *di; long long *dll, *dout, hout[n]; unsigned *du; float *df; double *dd; int2 *di2; float4 *df4;
  CK(cudaMalloc(&dc, sizeof(hc))); CK(cudaMalloc(&ds, sizeof(hs))); CK(cudaMalloc(&di, sizeof(hi))); CK(cudaMalloc(&dll, sizeof(hll)));
  CK(cudaMalloc(&du, sizeof(hu))); CK(cudaMalloc(&df, sizeof(hf))); CK(cudaMalloc(&dd, sizeof(hd))); CK(cudaMalloc(&di2, sizeof(hi2)));
  CK(cudaMalloc(&df4, sizeof(hf4))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(dc, hc, sizeof(hc), cudaMemcpyHostToDevice)); CK(cudaMemcpy(ds, hs, sizeof(hs), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice)); CK(cudaMemcpy(dll, hll, sizeof(hll), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(du, hu, sizeof(hu), cudaMemcpyHostToDevice)); CK(cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice)); CK(cudaMemcpy(di2, hi2, sizeof(hi2), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(df4, hf4, sizeof(hf4), cudaMemcpyHostToDevice));
  kernel<<<(n + 127) / 128, 128>>>(dc, ds, di, dll, du, df, dd, di2, df4, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    long long v = hc[t] + hs[t] * 3 + hi[t] * 5LL + hll[t] + hu[t];
    v += (long long)(hf[t] * 2.0f) + (long long)(hd[t] * 4.0);
    v += hi2[t].x - hi2[t].y + (long long)(hf4[t].x + hf4[t].y * 2.0f + hf4[t].z * 4.0f + hf4[t].w * 8.0f);
    if (hout[t] != v) { printf("FAIL ldg: out[%d] = %lld want %lld\n", t, hout[t], v); return 1; }
  }
  printf("PASS ldg\n");
  return 0;
}
