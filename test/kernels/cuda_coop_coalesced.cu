// coalesced_threads() after a divergent branch: the group of the lanes that took it (size, thread_rank,
// num_threads), shfl from its rank 0, ballot over the group, and the warp-aggregated atomic pattern (one
// atomicAdd per group, each lane's slot from the leader's base plus its rank).
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define N 256

__global__ void coalesced(const int *in, int *out, int *counter, int *slots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  out[i * 4 + 0] = -1; out[i * 4 + 1] = -1; out[i * 4 + 2] = -1; out[i * 4 + 3] = -1;
  if (v % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(counter, (int)g.size());
    base = g.shfl(base, 0);
    slots[base + g.thread_rank()] = v;
    out[i * 4 + 0] = g.size();
    out[i * 4 + 1] = g.thread_rank();
    out[i * 4 + 2] = g.shfl(v, g.num_threads() - 1);
    out[i * 4 + 3] = g.ballot(v > 0);
  }
}

int main() {
  int h[N], r[N * 4], slots[N], count = 0;
  for (int i = 0; i < N; i++) h[i] = (i * 7919) % 61 - 30;
  int *din, *dout, *dcount, *dslots;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(r)); cudaMalloc(&dcount, sizeof(int)); cudaMalloc(&dslots, sizeof(slots));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(dcount, &count, sizeof(int), cudaMemcpyHostToDevice);
  coalesced<<<N / 64, 64>>>(din, dout, dcount, dslots);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(&count, dcount, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(slots, dslots, sizeof(slots), cudaMemcpyDeviceToHost);
  int bad = 0, expectCount = 0, sumIn = 0, sumSlots = 0;
  for (int w = 0; w < N; w += 32) {
    int members[32], n = 0;
    for (int k = 0; k < 32; k++) if (h[w + k] % 3 == 0) members[n++] = k;
    expectCount += n;
    for (int j = 0; j < n; j++) {
      int i = w + members[j];
      unsigned bal = 0;
      for (int q = 0; q < n; q++) if (h[w + members[q]] > 0) bal |= 1u << q;
      int e[4] = {n, j, h[w + members[n - 1]], (int)bal};
      sumIn += h[i];
      for (int k = 0; k < 4; k++) if (r[i * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cuda_coop_coalesced: [%d][%d] = %d, expected %d\n", i, k, r[i * 4 + k], e[k]); }
    }
  }
  for (int k = 0; k < count && k < N; k++) sumSlots += slots[k];
  if (count != expectCount || sumSlots != sumIn) { bad++; printf("FAIL cuda_coop_coalesced: count %d (expected %d), slot sum %d (expected %d)\n", count, expectCount, sumSlots, sumIn); }
  if (bad) return 1;
  printf("PASS cuda_coop_coalesced\n");
  return 0;
}
