// 256-bin histogram of bytes: per-block privatised histogram in shared memory with shared atomics,
// merged into global memory with global atomics; grid-stride loop over packed 32-bit words.
#include <cstdio>
#include <cstring>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL histogram: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void hist(const unsigned *__restrict__ words, int nwords, unsigned *bins) {
  __shared__ unsigned local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < nwords; i += gridDim.x * blockDim.x) {
    unsigned w = words[i];
#pragma unroll
    for (int k = 0; k < 4; k++) atomicAdd(&local[(w >> (8 * k)) & 0xff], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    if (local[i]) atomicAdd(&bins[i], local[i]);
}

int main() {
  const int nwords = 1 << 18;
  unsigned *hw = new unsigned[nwords], want[256], got[256];
  memset(want, 0, sizeof(want));
  unsigned s = 1;
  for (int i = 0; i < nwords; i++) {
    s = s * 1103515245u + 12345u;
    hw[i] = (i % 3 == 0) ? (s & 0x0f0f0f0fu) : s;     // skewed distribution
    for (int k = 0; k < 4; k++) want[(hw[i] >> (8 * k)) & 0xff]++;
  }
  unsigned *dw, *db;
  CK(cudaMalloc(&dw, nwords * sizeof(unsigned))); CK(cudaMalloc(&db, sizeof(got)));
  CK(cudaMemcpy(dw, hw, nwords * sizeof(unsigned), cudaMemcpyHostToDevice));
  CK(cudaMemset(db, 0, sizeof(got)));
  hist<<<64, 192>>>(dw, nwords, db);
  CK(cudaGetLastError());
  CK(cudaMemcpy(got, db, sizeof(got), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 256; i++)
    if (got[i] != want[i]) { printf("FAIL histogram: bin %d = %u want %u\n", i, got[i], want[i]); return 1; }
  printf("PASS histogram\n");
  return 0;
}
