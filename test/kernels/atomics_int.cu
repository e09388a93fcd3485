// Every int atomic on global and shared memory: atomicAdd, atomicSub, atomicExch, atomicMin, atomicMax,
// atomicCAS, atomicAnd, atomicOr, atomicXor, with order-independent final values; returned old values checked
// where the set of results is order-independent (Exch permutation, CAS winner count).
#include <cstdio>
#include <vector>
#include <algorithm>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL atomics_int: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(int *g, int *olds, int n) {
  __shared__ int s[3];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) { s[0] = 0; s[1] = 0x7fffffff; s[2] = 0; }
  __syncthreads();
  if (t < n) {
    atomicAdd(&g[0], t);
    atomicSub(&g[1], t * 2);
    olds[t] = atomicExch(&g[2], t + 1);
    atomicMin(&g[3], (t * 7919) % 10007 - 5000);
    atomicMax(&g[4], (t * 7919) % 10007 - 5000);
    if (atomicCAS(&g[5], 0, t + 1) == 0) atomicAdd(&g[6], 1);   // exactly one winner
    atomicAnd(&g[7], ~(1 << (t % 31)));
    atomicOr(&g[8], 1 << (t % 29));
    atomicXor(&g[9], t * 2654435761u);
    int old = g[10], assumed;                                   // CAS loop: add 3
    do { assumed = old; old = atomicCAS(&g[10], assumed, assumed + 3); } while (old != assumed);
    atomicAdd(&s[0], 1); atomicMin(&s[1], -t); atomicXor(&s[2], t);
  }
  __syncthreads();
  if (threadIdx.x == 0) { atomicAdd(&g[11], s[0]); atomicMin(&g[12], s[1]); atomicXor(&g[13], s[2]); }
}

int main() {
  const int n = 5000, N = 14;
  int init[N] = {10, 0, 0, 0x7fffffff, (int)0x80000000, 0, 0, -1, 0, 0, 0, 0, 0, 0};
  int *dg, *dolds, h[N];
  std::vector<int> olds(n);
  CK(cudaMalloc(&dg, sizeof(h))); CK(cudaMalloc(&dolds, n * sizeof(int)));
  CK(cudaMemcpy(dg, init, sizeof(init), cudaMemcpyHostToDevice));
  kernel<<<(n + 255) / 256, 256>>>(dg, dolds, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, dg, sizeof(h), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(olds.data(), dolds, n * sizeof(int), cudaMemcpyDeviceToHost));
  int w[N] = {10, 0, 0, 0x7fffffff, (int)0x80000000, 0, 1, -1, 0, 0, 0, n, 0, 0};
  for (int t = 0; t < n; t++) {
    int v = (t * 7919) % 10007 - 5000;
    w[0] += t; w[1] -= 2 * t; w[3] = std::min(w[3], v); w[4] = std::max(w[4], v);
    w[7] &= ~(1 << (t % 31)); w[8] |= 1 << (t % 29); w[9] ^= (int)(t * 2654435761u); w[10] += 3;
    w[12] = std::min(w[12], -t); w[13] ^= t;
  }
  olds.push_back(h[2]);
  std::sort(olds.begin(), olds.end());
  for (int i = 0; i <= n; i++) if (olds[i] != i) { printf("FAIL atomics_int: exchange values are not a permutation at %d\n", i); return 1; }
  if (h[5] < 1 || h[5] > n) { printf("FAIL atomics_int: CAS slot %d\n", h[5]); return 1; }
  for (int k = 0; k < N; k++) {
    if (k == 2 || k == 5) continue;
    if (h[k] != w[k]) { printf("FAIL atomics_int: slot %d = %d want %d\n", k, h[k], w[k]); return 1; }
  }
  printf("PASS atomics_int\n");
  return 0;
}
