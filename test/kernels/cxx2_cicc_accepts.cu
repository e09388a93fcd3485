// Constructs cicc accepts that ptxd once rejected with a false error (third-party code has them): the
// alternative operator spellings (`not`, `and`, `bitand`, ...), GCC builtins EDG knows without a
// declaration (__builtin_unreachable, __builtin_assume, __builtin_assume_aligned), and qualification
// conversions below the top level (`double [3][8]` to `const double (*)[8]`, `int **` to `const int *const *`),
// `if`/`switch` with an init-statement, statement attributes (`[[likely]]`, `[[fallthrough]]`).
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL cxx2_cicc_accepts: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__device__ int alt(int a, int b) {
  int r = 0;
  if (not (a and b) or a not_eq b) r = compl a bitand b;
  r xor_eq (a bitor 1);
  r and_eq 0xffff;
  r or_eq 0x10000;
  return r xor 3;
}

__device__ int kind(int x) {
  switch (x & 3) {
    case 0: return 10;
    case 1: return 20;
    case 2: return 30;
    case 3: return 40;
  }
  __builtin_unreachable();
}

__device__ double diag(const double (*m)[8], int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += m[i][i];
  return s;
}

__device__ int deref2(const int *const *pp) { return **pp; }

__device__ int ranges(int x) {
  int r = 0;
  switch (int w = x * 2; w) {
    case -2: r = 1; break;
    case 0: r = 2; break;
    case 16: r = 3; [[fallthrough]];
    case 22: r += 10; break;
    default: r = 4;
  }
  return r;
}

__device__ int initIf(int x) {
  if (int v = x - 3; v > 0) [[likely]] { return v; } else { return -v * 2; }
}

__global__ void kernel(const int *in, int *out, double *dout, int n) {
  const int t = threadIdx.x;
  __builtin_assume(n > 0);
  const int *aligned = static_cast<const int *>(__builtin_assume_aligned(in, 4));
  if (t < n) {
    out[3 * t] = alt(aligned[t], t);
    out[3 * t + 1] = kind(aligned[t]);
    int v = aligned[t] + 7;
    int *pv = &v;
    int **ppv = &pv;
    out[3 * t + 2] = deref2(ppv);
    out[3 * n + 2 * t] = ranges(aligned[t]);
    out[3 * n + 2 * t + 1] = initIf(aligned[t]);
  }
  if (t == 0) {
    double a[3][8] = {};
    for (int i = 0; i < 3; i++) a[i][i] = in[i] * 0.5;
    dout[0] = diag(a, 3);
  }
}

static int rangesHost(int x) {
  const int w = x * 2;
  if (w == -2) return 1;
  if (w == 0) return 2;
  if (w == 16) return 13;
  if (w == 22) return 10;
  return 4;
}

static int initIfHost(int x) { return x - 3 > 0 ? x - 3 : -(x - 3) * 2; }

static int altHost(int a, int b) {
  int r = 0;
  if (!(a && b) || a != b) r = ~a & b;
  r ^= (a | 1);
  r &= 0xffff;
  r |= 0x10000;
  return r ^ 3;
}

int main() {
  const int n = 32;
  int hin[n], hout[5 * n];
  double hd;
  for (int i = 0; i < n; i++) hin[i] = (i * 37) % 29 - (i == 4 ? 4 : 0);
  int *din, *dout;
  double *dd;
  CK(cudaMalloc(&din, sizeof(hin)));
  CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMalloc(&dd, sizeof(double)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<1, n>>>(din, dout, dd, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hd, dd, sizeof(double), cudaMemcpyDeviceToHost));
  const int kinds[4] = {10, 20, 30, 40};
  for (int i = 0; i < n; i++) {
    const int want[3] = {altHost(hin[i], i), kinds[hin[i] & 3], hin[i] + 7};
    for (int j = 0; j < 3; j++)
      if (hout[3 * i + j] != want[j]) { printf("FAIL cxx2_cicc_accepts: out[%d][%d] = %d, want %d\n", i, j, hout[3 * i + j], want[j]); return 1; }
  }
  for (int i = 0; i < n; i++) {
    const int want[2] = {rangesHost(hin[i]), initIfHost(hin[i])};
    for (int j = 0; j < 2; j++)
      if (hout[3 * n + 2 * i + j] != want[j]) { printf("FAIL cxx2_cicc_accepts: out2[%d][%d] = %d, want %d\n", i, j, hout[3 * n + 2 * i + j], want[j]); return 1; }
  }
  const double wantD = (hin[0] + hin[1] + hin[2]) * 0.5;
  if (hd != wantD) { printf("FAIL cxx2_cicc_accepts: diag = %g, want %g\n", hd, wantD); return 1; }
  printf("PASS cxx2_cicc_accepts\n");
  return 0;
}
