// __sad, __usad, __funnelshift_l/_r (and the clamping _lc/_rc forms), __hadd, __rhadd, __uhadd, __urhadd
// on edge values (INT_MIN/INT_MAX, shift amounts >= 32), against host implementations.
#include <cstdio>
#include <climits>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL bits_sad_funnel: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
typedef unsigned long long u64;

__global__ void kernel(const int *in, unsigned *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
  unsigned sh = (unsigned)c & 63u;
  unsigned *o = out + t * 10;
  o[0] = __sad(a, b, (unsigned)c & 0xffffu);
  o[1] = __usad((unsigned)a, (unsigned)b, 7u);
  o[2] = __funnelshift_l((unsigned)a, (unsigned)b, sh);
  o[3] = __funnelshift_r((unsigned)a, (unsigned)b, sh);
  o[4] = __funnelshift_lc((unsigned)a, (unsigned)b, sh);
  o[5] = __funnelshift_rc((unsigned)a, (unsigned)b, sh);
  o[6] = (unsigned)__hadd(a, b);
  o[7] = (unsigned)__rhadd(a, b);
  o[8] = __uhadd((unsigned)a, (unsigned)b);
  o[9] = __urhadd((unsigned)a, (unsigned)b);
}

int main() {
  const int n = 300;
  int hin[3 * n]; unsigned hout[n * 10];
  unsigned s = 2463534242u;
  int edge[6] = {INT_MIN, INT_MAX, 0, -1, 1, INT_MIN + 1};
  for (int i = 0; i < 3 * n; i++) { s ^= s << 13; s ^= s >> 17; s ^= s << 5; hin[i] = (i % 7 == 0) ? edge[(i / 7) % 6] : (int)s; }
  int *din; unsigned *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<3, 128>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    long long a = hin[3 * t], b = hin[3 * t + 1]; int c = hin[3 * t + 2];
    unsigned ua = (unsigned)a, ub = (unsigned)b, sh = (unsigned)c & 63u;
    u64 cat = ((u64)ub << 32) | ua;
    unsigned shc = sh > 32 ? 32 : sh;
    unsigned w[10] = {
      (unsigned)((a > b ? a - b : b - a) + ((unsigned)c & 0xffffu)), (ua > ub ? ua - ub : ub - ua) + 7u,
      (unsigned)((cat << (sh & 31)) >> 32), (unsigned)(cat >> (sh & 31)),
      shc == 32 ? ua : (unsigned)((cat << shc) >> 32), shc == 32 ? ub : (unsigned)(cat >> shc),
      (unsigned)(int)((a + b) >> 1), (unsigned)(int)((a + b + 1) >> 1),
      (unsigned)(((u64)ua + ub) >> 1), (unsigned)(((u64)ua + ub + 1) >> 1)};
    for (int k = 0; k < 10; k++)
      if (hout[t * 10 + k] != w[k]) { printf("FAIL bits_sad_funnel: t=%d k=%d a=%lld b=%lld c=%d got %08x want %08x\n", t, k, a, b, c, hout[t * 10 + k], w[k]); return 1; }
  }
  printf("PASS bits_sad_funnel\n");
  return 0;
}
