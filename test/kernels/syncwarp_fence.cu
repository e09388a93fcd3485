// __syncwarp (full and partial masks) ordering shared-memory exchange inside a warp, and memory fences
// __threadfence_block/__threadfence/__threadfence_system in a last-block-done pattern (the fence + atomic
// ticket idiom from the CUDA programming guide).
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL syncwarp_fence: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__device__ unsigned int g_ticket = 0;

__global__ void warp_exchange(const int *in, int *out) {
  __shared__ int buf[64];
  int t = threadIdx.x, lane = t & 31;
  buf[t] = in[blockIdx.x * 64 + t];
  __syncwarp();
  int v = buf[(t & ~31) | (31 - lane)];
  __syncwarp();
  buf[t] = v * 2;
  __threadfence_block();
  __syncwarp(0xffffffffu);
  if (lane < 16) {
    __syncwarp(0x0000ffffu);
    v = buf[(t & ~31) | (15 - lane)];
  }
  out[blockIdx.x * 64 + t] = v;
}

__global__ void last_block(const int *in, int *partial, int *result, int n) {
  __shared__ bool am_last;
  int t = threadIdx.x, b = blockIdx.x;
  if (t == 0) {
    int s = 0;
    for (int i = b * 32; i < (b + 1) * 32 && i < n; i++) s += in[i];
    partial[b] = s;
    __threadfence();                          // make partial[b] visible before taking a ticket
    unsigned ticket = atomicInc(&g_ticket, gridDim.x);
    am_last = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (am_last && t == 0) {
    int total = 0;
    for (int i = 0; i < (int)gridDim.x; i++) total += ((volatile int *)partial)[i];
    __threadfence_system();
    *result = total;
    g_ticket = 0;
  }
}

int main() {
  const int blocks = 4, n = 40 * 32;
  int hin[n], hout[blocks * 64];
  for (int i = 0; i < n; i++) hin[i] = i * 5 - 333;
  int *din, *dout, *dpart, *dres, hres = 0;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMalloc(&dpart, 40 * sizeof(int))); CK(cudaMalloc(&dres, sizeof(int)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  warp_exchange<<<blocks, 64>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < blocks * 64; i++) {
    int lane = i & 31, base = i & ~31;
    int want = lane < 16 ? 2 * hin[base + (31 - (15 - lane))] : hin[base + 31 - lane];
    if (hout[i] != want) { printf("FAIL syncwarp_fence: exchange[%d] = %d want %d\n", i, hout[i], want); return 1; }
  }
  for (int rep = 0; rep < 2; rep++) {
    last_block<<<40, 32>>>(din, dpart, dres, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&hres, dres, sizeof(int), cudaMemcpyDeviceToHost));
    int want = 0; for (int i = 0; i < n; i++) want += hin[i];
    if (hres != want) { printf("FAIL syncwarp_fence: total %d want %d (rep %d)\n", hres, want, rep); return 1; }
  }
  printf("PASS syncwarp_fence\n");
  return 0;
}
