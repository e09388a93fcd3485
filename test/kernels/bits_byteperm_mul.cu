// __byte_perm (selectors with nibbles 0..7), __mul24/__umul24 on 24-bit operands, __mulhi/__umulhi,
// __mul64hi/__umul64hi against 64/128-bit host arithmetic.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL bits_byteperm_mul: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
typedef unsigned long long u64;

__global__ void kernel(const u64 *in, u64 *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  u64 a = in[2 * t], b = in[2 * t + 1];
  unsigned x = (unsigned)a, y = (unsigned)b;
  unsigned sel = (unsigned)(a >> 32) & 0x7777u;
  int x24 = (int)(x << 8) >> 8, y24 = (int)(y << 8) >> 8;    // sign-extended 24-bit values
  u64 *o = out + t * 8;
  o[0] = __byte_perm(x, y, sel);
  o[1] = __byte_perm(x, y, 0x3210u) ^ __byte_perm(x, y, 0x7654u);
  o[2] = (u64)(long long)__mul24(x24, y24);
  o[3] = __umul24(x & 0xffffffu, y & 0xffffffu);
  o[4] = (u64)(long long)__mulhi((int)x, (int)y);
  o[5] = __umulhi(x, y);
  o[6] = (u64)__mul64hi((long long)a, (long long)b);
  o[7] = __umul64hi(a, b);
}

static unsigned host_perm(unsigned x, unsigned y, unsigned s) {
  u64 bytes = ((u64)y << 32) | x;
  unsigned r = 0;
  for (int k = 0; k < 4; k++) r |= (unsigned)((bytes >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
  return r;
}

int main() {
  const int n = 256;
  u64 hin[2 * n], hout[n * 8];
  u64 s = 88172645463325252ULL;
  for (int i = 0; i < 2 * n; i++) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; hin[i] = (i % 17 == 0) ? (u64)(-(long long)(s >> 3)) : s; }
  u64 *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<2, 128>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    u64 a = hin[2 * t], b = hin[2 * t + 1];
    unsigned x = (unsigned)a, y = (unsigned)b, sel = (unsigned)(a >> 32) & 0x7777u;
    int x24 = (int)(x << 8) >> 8, y24 = (int)(y << 8) >> 8;
    u64 w[8] = {host_perm(x, y, sel), (u64)(x ^ y), (u64)(long long)(int)(unsigned)((long long)x24 * y24),
                (u64)(unsigned)((u64)(x & 0xffffff) * (y & 0xffffff)), (u64)(long long)(int)(((long long)(int)x * (int)y) >> 32),
                (u64)(((u64)x * y) >> 32), (u64)(long long)(((__int128)(long long)a * (long long)b) >> 64),
                (u64)(((unsigned __int128)a * b) >> 64)};
    for (int k = 0; k < 8; k++)
      if (hout[t * 8 + k] != w[k]) { printf("FAIL bits_byteperm_mul: t=%d k=%d got %016llx want %016llx\n", t, k, hout[t * 8 + k], w[k]); return 1; }
  }
  printf("PASS bits_byteperm_mul\n");
  return 0;
}
