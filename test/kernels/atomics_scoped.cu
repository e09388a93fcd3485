// Scoped atomics: the _block and _system variants of atomicAdd/Sub/Exch/Min/Max/Inc/Dec/CAS/And/Or/Xor
// (int, unsigned, unsigned long long, float, double), on shared (block scope) and global (system scope) memory.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL atomics_scoped: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(int *gi, unsigned *gu, unsigned long long *gq, float *gf, double *gd) {
  __shared__ int si[4];
  __shared__ unsigned su[3];
  int t = threadIdx.x;
  if (t == 0) { si[0] = 0; si[1] = 1000; si[2] = -1000; si[3] = 0; su[0] = 0; su[1] = 0; su[2] = 0xffffffffu; }
  __syncthreads();
  atomicAdd_block(&si[0], t);
  atomicMin_block(&si[1], t - 50);
  atomicMax_block(&si[2], t * 3);
  atomicCAS_block(&si[3], 0, 99);
  atomicInc_block(&su[0], 9u);
  atomicDec_block(&su[1], 4u);
  atomicAnd_block(&su[2], ~(1u << (t % 32)));
  __syncthreads();
  if (t == 0) {
    atomicAdd_system(&gi[0], si[0]);
    atomicSub_system(&gi[1], si[1]);
    atomicMax_system(&gi[2], si[2]);
    atomicExch_system(&gi[3], si[3]);
    atomicMin_system(&gi[4], si[1]);
    atomicOr_system(&gu[0], su[0]);
    atomicXor_system(&gu[1], su[1] + blockIdx.x);
    atomicAnd_system(&gu[2], su[2] | 0xffff0000u);
    atomicInc_system(&gu[3], 1000u);
    atomicDec_system(&gu[4], 1000u);
    atomicCAS_system(&gu[5], 0u, 1u);
    atomicAdd_system(&gq[0], (unsigned long long)si[0]);
    atomicOr_block(&gu[6], 1u << blockIdx.x);
    atomicAdd_block(&gf[0], 2.0f);
    atomicAdd_system(&gd[0], 0.5);
    atomicExch_block(&gq[1], 5ULL);
  }
}

int main() {
  const int blocks = 8, bs = 100;
  int hi[5] = {0, 0, 0, 0, 0}; unsigned hu[7] = {0, 0, 0xffffffffu, 0, 0, 0, 0}; unsigned long long hq[2] = {0, 0};
  float hf = 0; double hd = 0;
  int *di; unsigned *du; unsigned long long *dq; float *df; double *dd;
  CK(cudaMalloc(&di, sizeof(hi))); CK(cudaMalloc(&du, sizeof(hu))); CK(cudaMalloc(&dq, sizeof(hq)));
  CK(cudaMalloc(&df, sizeof(float))); CK(cudaMalloc(&dd, sizeof(double)));
  CK(cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice)); CK(cudaMemcpy(du, hu, sizeof(hu), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dq, hq, sizeof(hq), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(df, &hf, sizeof(float), cudaMemcpyHostToDevice)); CK(cudaMemcpy(dd, &hd, sizeof(double), cudaMemcpyHostToDevice));
  kernel<<<blocks, bs>>>(di, du, dq, df, dd);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost)); CK(cudaMemcpy(hu, du, sizeof(hu), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hq, dq, sizeof(hq), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hf, df, sizeof(float), cudaMemcpyDeviceToHost)); CK(cudaMemcpy(&hd, dd, sizeof(double), cudaMemcpyDeviceToHost));
  int sum = bs * (bs - 1) / 2, mn = -50, mx = (bs - 1) * 3;
  unsigned inc = bs % 10, dec = 0;
  for (int t = 0; t < bs; t++) dec = (dec == 0 || dec > 4u) ? 4u : dec - 1;
  unsigned andv = 0xffffffffu; for (int t = 0; t < bs; t++) andv &= ~(1u << (t % 32));
  unsigned xorv = 0; for (int b = 0; b < blocks; b++) xorv ^= dec + b;
  int wi[5] = {sum * blocks, -mn * blocks, mx, 99, mn};
  unsigned wu[7] = {inc, xorv, andv | 0xffff0000u, blocks, 1000u - blocks + 1, 1, (1u << blocks) - 1};
  for (int k = 0; k < 5; k++) if (hi[k] != wi[k]) { printf("FAIL atomics_scoped: i[%d] = %d want %d\n", k, hi[k], wi[k]); return 1; }
  for (int k = 0; k < 7; k++) if (hu[k] != wu[k]) { printf("FAIL atomics_scoped: u[%d] = %u want %u\n", k, hu[k], wu[k]); return 1; }
  if (hq[0] != (unsigned long long)sum * blocks || hq[1] != 5 || hf != 2.0f * blocks || hd != 0.5 * blocks) {
    printf("FAIL atomics_scoped: q %llu %llu f %f d %f\n", hq[0], hq[1], hf, hd); return 1;
  }
  printf("PASS atomics_scoped\n");
  return 0;
}
