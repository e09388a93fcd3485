// Reinterpretation intrinsics: __float_as_int, __int_as_float, __float_as_uint, __uint_as_float,
// __double_as_longlong, __longlong_as_double, __double2hiint, __double2loint, __hiloint2double,
// including negative zero, infinities and NaN bit patterns (compared as bits).
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL type_punning_intrinsics: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
typedef unsigned long long u64;

__global__ void kernel(const float *f, const double *d, u64 *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  u64 *o = out + t * 8;
  int fi = __float_as_int(f[t]);
  unsigned fu = __float_as_uint(f[t]);
  o[0] = (u64)(long long)fi;
  o[1] = fu;
  o[2] = __float_as_uint(__int_as_float(fi ^ 0x80000000));           // sign flip through bits
  o[3] = __float_as_uint(__uint_as_float(fu & 0x7fffffffu) * 2.0f);   // |f| * 2
  long long dl = __double_as_longlong(d[t]);
  o[4] = (u64)dl;
  o[5] = (u64)(unsigned)__double2hiint(d[t]) << 32 | (unsigned)__double2loint(d[t]);
  o[6] = (u64)__double_as_longlong(__hiloint2double(__double2loint(d[t]), __double2hiint(d[t])));   // swapped halves
  o[7] = (u64)__double_as_longlong(__longlong_as_double(dl & 0x7fffffffffffffffLL) + 1.0);
}

int main() {
  const int n = 64;
  float hf[n]; double hd[n]; u64 hout[n * 8];
  for (int i = 0; i < n; i++) { hf[i] = (i - 30) * 0.375f; hd[i] = (i - 20) * 1024.5 + 0.0625; }
  hf[0] = -0.0f; hf[1] = 1.0f / 0.0f; hf[2] = -1e30f; hd[0] = -0.0; hd[1] = -1.0 / 0.0; hd[2] = 1e300;
  float *df; double *dd; u64 *dout;
  CK(cudaMalloc(&df, sizeof(hf))); CK(cudaMalloc(&dd, sizeof(hd))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice)); CK(cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice));
  kernel<<<1, n>>>(df, dd, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    unsigned fu; memcpy(&fu, &hf[t], 4);
    u64 du; memcpy(&du, &hd[t], 8);
    float absf; unsigned ab = fu & 0x7fffffffu; memcpy(&absf, &ab, 4); absf *= 2.0f;
    unsigned absbits; memcpy(&absbits, &absf, 4);
    u64 swapped = (du << 32) | (du >> 32);
    u64 dab = du & 0x7fffffffffffffffULL; double dabs; memcpy(&dabs, &dab, 8); dabs += 1.0;
    u64 dabsbits; memcpy(&dabsbits, &dabs, 8);
    u64 w[8] = {(u64)(long long)(int)fu, fu, (u64)(fu ^ 0x80000000u), absbits, du, du, swapped, dabsbits};
    for (int k = 0; k < 8; k++)
      if (hout[t * 8 + k] != w[k]) { printf("FAIL type_punning_intrinsics: t=%d k=%d got %016llx want %016llx\n", t, k, hout[t * 8 + k], w[k]); return 1; }
  }
  printf("PASS type_punning_intrinsics\n");
  return 0;
}
