// Block-wide vote barriers: __syncthreads_count, __syncthreads_and, __syncthreads_or, with predicates
// true for none, some and all threads; plus plain __syncthreads ordering of shared writes.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL sync_count: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(const int *in, int *out) {
  int t = threadIdx.x, v = in[blockIdx.x * blockDim.x + t];
  int c1 = __syncthreads_count(v > 0);
  int c2 = __syncthreads_count(v % 3 == 0);
  int a1 = __syncthreads_and(v > -1000000);
  int a2 = __syncthreads_and(v > 0);
  int o1 = __syncthreads_or(v == 12345);
  int o2 = __syncthreads_or(v > 1000000);
  if (t == 0) {
    int *o = out + blockIdx.x * 6;
    o[0] = c1; o[1] = c2; o[2] = a1 != 0; o[3] = a2 != 0; o[4] = o1 != 0; o[5] = o2 != 0;
  }
}

int main() {
  const int blocks = 5, bs = 192, n = blocks * bs;
  int hin[n], hout[blocks * 6];
  for (int i = 0; i < n; i++) {
    int b = i / bs;
    hin[i] = (b == 0) ? i + 1 : (b == 1 ? -(i % 50) : (i * 37) % 1001 - 300);
    if (b == 3 && i % bs == 77) hin[i] = 12345;
  }
  int *din, *dout;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<blocks, bs>>>(din, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; b++) {
    int w[6] = {0, 0, 1, 1, 0, 0};
    for (int i = b * bs; i < (b + 1) * bs; i++) {
      int v = hin[i];
      w[0] += v > 0; w[1] += v % 3 == 0; w[2] &= v > -1000000; w[3] &= v > 0; w[4] |= v == 12345; w[5] |= v > 1000000;
    }
    for (int k = 0; k < 6; k++)
      if (hout[b * 6 + k] != w[k]) { printf("FAIL sync_count: block %d item %d = %d want %d\n", b, k, hout[b * 6 + k], w[k]); return 1; }
  }
  printf("PASS sync_count\n");
  return 0;
}
