// Bit-counting intrinsics: __popc, __popcll, __clz, __clzll, __ffs, __ffsll, __brev, __brevll, on zero,
// all-ones, single bits and pseudo-random values, against portable host implementations.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL bits_popc_clz: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
typedef unsigned long long u64;

__global__ void kernel(const u64 *in, u64 *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  u64 v = in[t]; unsigned lo = (unsigned)v;
  u64 *o = out + t * 8;
  o[0] = __popc(lo); o[1] = __popcll(v); o[2] = __clz((int)lo); o[3] = __clzll((long long)v);
  o[4] = __ffs((int)lo); o[5] = __ffsll((long long)v); o[6] = __brev(lo); o[7] = __brevll(v);
}

static int popc64(u64 v) { int c = 0; while (v) { c += v & 1; v >>= 1; } return c; }
static int clz64(u64 v, int bits) { int c = 0; for (int b = bits - 1; b >= 0 && !((v >> b) & 1); b--) c++; return c; }
static int ffs64(u64 v, int bits) { for (int b = 0; b < bits; b++) if ((v >> b) & 1) return b + 1; return 0; }
static u64 brev64(u64 v, int bits) { u64 r = 0; for (int b = 0; b < bits; b++) if ((v >> b) & 1) r |= 1ULL << (bits - 1 - b); return r; }

int main() {
  const int n = 200;
  u64 hin[n], hout[n * 8];
  u64 s = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < n; i++) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    hin[i] = (i < 64) ? (1ULL << i) : (i == 64 ? 0 : (i == 65 ? ~0ULL : (i % 5 == 0 ? s >> (i % 60) : s)));
  }
  u64 *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<2, 128>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    u64 v = hin[t], lo = (unsigned)v;
    u64 w[8] = {(u64)popc64(lo), (u64)popc64(v), (u64)clz64(lo, 32), (u64)clz64(v, 64), (u64)ffs64(lo, 32), (u64)ffs64(v, 64), brev64(lo, 32), brev64(v, 64)};
    for (int k = 0; k < 8; k++)
      if (hout[t * 8 + k] != w[k]) { printf("FAIL bits_popc_clz: v=%016llx k=%d got %llx want %llx\n", v, k, hout[t * 8 + k], w[k]); return 1; }
  }
  printf("PASS bits_popc_clz\n");
  return 0;
}
