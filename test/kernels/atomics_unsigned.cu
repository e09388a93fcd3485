// Unsigned and unsigned long long atomics: atomicAdd/Sub/Exch/Min/Max/Inc/Dec/CAS/And/Or/Xor on unsigned,
// atomicAdd/Exch/Min/Max/CAS/And/Or/Xor on unsigned long long; wrap-around semantics of atomicInc/atomicDec.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL atomics_unsigned: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
typedef unsigned long long u64;

__global__ void kernel(unsigned *u, u64 *q, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  unsigned h = (unsigned)t * 2654435761u;
  atomicAdd(&u[0], h);
  atomicSub(&u[1], (unsigned)t);
  atomicExch(&u[2], 7u);
  atomicMin(&u[3], h | 1u);
  atomicMax(&u[4], h);
  atomicInc(&u[5], 16u);            // cycles 0..16
  atomicDec(&u[6], 10u);            // cycles 10..0
  atomicCAS(&u[7], 0u, 5u);
  atomicAnd(&u[8], ~(1u << (t % 32)) | (h & 0xf0f0f0f0u));
  atomicOr(&u[9], 1u << (t % 32));
  atomicXor(&u[10], h);
  u64 v = (u64)h * 0x100000001ULL + (u64)t;
  atomicAdd(&q[0], v);
  atomicExch(&q[1], 42ULL);
  atomicMin(&q[2], v);
  atomicMax(&q[3], v);
  u64 old = q[4], assumed;
  do { assumed = old; old = atomicCAS(&q[4], assumed, assumed * 3 + 1); } while (old != assumed); // same map per thread:
  atomicAnd(&q[5], ~(1ULL << (t % 64)));                                                           // order-independent
  atomicOr(&q[6], 1ULL << (t % 61));
  atomicXor(&q[8], v);
  atomicAdd(&q[7], 1ULL);
}

int main() {
  const int n = 3000;
  unsigned hu[11] = {0, 0, 0, 0xffffffffu, 0, 0, 3, 0, 0xffffffffu, 0, 0};
  u64 hq[9] = {0, 0, ~0ULL, 0, 1, ~0ULL, 0, 0, 0};
  unsigned *du; u64 *dq;
  CK(cudaMalloc(&du, sizeof(hu))); CK(cudaMalloc(&dq, sizeof(hq)));
  CK(cudaMemcpy(du, hu, sizeof(hu), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dq, hq, sizeof(hq), cudaMemcpyHostToDevice));
  kernel<<<(n + 127) / 128, 128>>>(du, dq, n);
  CK(cudaGetLastError());
  unsigned gu[11]; u64 gq[9];
  CK(cudaMemcpy(gu, du, sizeof(gu), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(gq, dq, sizeof(gq), cudaMemcpyDeviceToHost));
  unsigned wu[11] = {0, 0, 7, 0xffffffffu, 0, 0, 3, 5, 0xffffffffu, 0, 0};
  u64 wq[9] = {0, 42, ~0ULL, 0, 0, ~0ULL, 0, (u64)n, 0};
  for (int t = 0; t < n; t++) {
    unsigned h = (unsigned)t * 2654435761u;
    wu[0] += h; wu[1] -= (unsigned)t; if ((h | 1u) < wu[3]) wu[3] = h | 1u; if (h > wu[4]) wu[4] = h;
    wu[5] = wu[5] >= 16u ? 0 : wu[5] + 1;
    wu[6] = (wu[6] == 0 || wu[6] > 10u) ? 10u : wu[6] - 1;
    wu[8] &= ~(1u << (t % 32)) | (h & 0xf0f0f0f0u); wu[9] |= 1u << (t % 32); wu[10] ^= h;
    u64 v = (u64)h * 0x100000001ULL + (u64)t;
    wq[0] += v; if (v < wq[2]) wq[2] = v; if (v > wq[3]) wq[3] = v;
    wq[5] &= ~(1ULL << (t % 64)); wq[6] |= 1ULL << (t % 61); wq[8] ^= v;
  }
  for (int k = 0; k < 11; k++)
    if (gu[k] != wu[k]) { printf("FAIL atomics_unsigned: u[%d] = %u want %u\n", k, gu[k], wu[k]); return 1; }
  u64 chain = 1; for (int t = 0; t < n; t++) chain = chain * 3 + 1;
  wq[4] = chain;
  for (int k = 0; k < 9; k++)
    if (gq[k] != wq[k]) { printf("FAIL atomics_unsigned: q[%d] = %llu want %llu\n", k, gq[k], wq[k]); return 1; }
  printf("PASS atomics_unsigned\n");
  return 0;
}
