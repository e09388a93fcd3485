// Warp votes: __ballot_sync, __any_sync, __all_sync with data-dependent predicates, __activemask inside a
// divergent branch (only lanes of that branch can appear), and __popc of a ballot.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL vote: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define FULL 0xffffffffu

__global__ void kernel(const int *in, unsigned *out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  int v = in[t];
  unsigned *o = out + t * 6;
  o[0] = __ballot_sync(FULL, v > 0);
  o[1] = __any_sync(FULL, v == 77) ? 1u : 0u;
  o[2] = __all_sync(FULL, v > -1000) ? 1u : 0u;
  o[3] = __popc(__ballot_sync(FULL, v & 1));
  o[4] = 2;
  if (lane < 20) {
    unsigned m = __activemask();
    o[4] = ((m >> lane) & 1u) && (m & 0xfff00000u) == 0u;   // own lane set, no lane >= 20
  }
  o[5] = 0x0000ffffu;
  if (lane < 16) o[5] = __ballot_sync(0x0000ffffu, 1);      // partial mask: only lanes 0..15 take part
}

int main() {
  const int n = 128;
  int hin[n]; unsigned hout[n * 6];
  for (int i = 0; i < n; i++) hin[i] = (i / 32 == 2) ? 5 : ((i * 37) % 101 - 50);
  hin[40] = 77; hin[100] = -2000;
  int *din; unsigned *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<1, n>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int lane = t & 31, base = t - lane;
    unsigned ballot = 0, odd = 0; bool any = false, all = true;
    for (int k = 0; k < 32; k++) {
      int v = hin[base + k];
      if (v > 0) ballot |= 1u << k;
      if (v & 1) odd++;
      any = any || v == 77; all = all && v > -1000;
    }
    unsigned want[6] = {ballot, any ? 1u : 0u, all ? 1u : 0u, odd, lane < 20 ? 1u : 2u, 0x0000ffffu};
    for (int k = 0; k < 6; k++)
      if (hout[t * 6 + k] != want[k]) { printf("FAIL vote: t=%d k=%d got %08x want %08x\n", t, k, hout[t * 6 + k], want[k]); return 1; }
  }
  printf("PASS vote\n");
  return 0;
}
