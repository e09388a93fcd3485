// const and volatile qualifiers: const parameters and locals, pointers to const, const pointers,
// volatile locals and volatile global accesses (each access must happen), a volatile shared flag.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL const_volatile: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__device__ int scale(const int x, const int *const factor) { return x * *factor; }

__global__ void kernel(const int *in, volatile int *counter, int *out, int n) {
  __shared__ volatile int flag;
  const int t = threadIdx.x;
  if (t == 0) flag = 0;
  __syncthreads();
  if (t == 5) flag = 42;
  __syncthreads();
  const int f = 3;
  volatile int acc = 0;
  for (int i = 0; i < 4; i++) acc = acc + i;     // volatile read-modify-write each iteration
  if (t < n) out[t] = scale(in[t], &f) + acc + flag;
  if (t == 0) {
    *counter = 1;
    *counter = *counter + 1;                     // both stores and the load must stay
    *counter = *counter * 5;
  }
}

int main() {
  const int n = 64;
  int hin[n], hout[n], hc;
  for (int i = 0; i < n; i++) hin[i] = i * i - 30;
  int *din, *dout, *dc;
  CK(cudaMalloc(&din, sizeof(hin)));
  CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMalloc(&dc, sizeof(int)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  kernel<<<1, n>>>(din, dc, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&hc, dc, sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++)
    if (hout[i] != hin[i] * 3 + 6 + 42) { printf("FAIL const_volatile: out[%d] = %d, want %d\n", i, hout[i], hin[i] * 3 + 48); return 1; }
  if (hc != 10) { printf("FAIL const_volatile: counter = %d, want 10\n", hc); return 1; }
  printf("PASS const_volatile\n");
  return 0;
}
