// extern __shared__ dynamic shared memory: size chosen at launch, carved into arrays of several types,
// used by two kernels with different dynamic sizes; block-reversal of the input.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL shared_dynamic: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

extern __shared__ int dyn[];

__global__ void reverse_block(const int *in, int *out, int n) {
  int t = threadIdx.x, base = blockIdx.x * blockDim.x;
  if (base + t < n) dyn[t] = in[base + t];
  __syncthreads();
  int src = blockDim.x - 1 - t;
  if (base + t < n && base + src < n) out[base + t] = dyn[src];
  else if (base + t < n) out[base + t] = -1;
}

__global__ void carve(const int *in, long long *out, int n) {
  extern __shared__ double mem[];       // a second extern declaration with another type
  double *d = mem;
  int *i32 = (int *)(d + blockDim.x);
  unsigned char *bytes = (unsigned char *)(i32 + blockDim.x);
  int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;
  int v = g < n ? in[g] : 0;
  d[t] = v * 0.5; i32[t] = v * 3; bytes[t] = (unsigned char)v;
  __syncthreads();
  int o = (t + 1) % blockDim.x;
  if (g < n) out[g] = (long long)(d[o] * 4.0) + i32[o] + bytes[o];
}

int main() {
  const int n = 1000, bs = 96;
  int hin[n], hout[n]; long long hout2[n];
  for (int i = 0; i < n; i++) hin[i] = i * 3 - 700;
  int *din, *dout; long long *dout2;
  CK(cudaMalloc(&din, sizeof(hin))); CK(cudaMalloc(&dout, sizeof(hout))); CK(cudaMalloc(&dout2, sizeof(hout2)));
  CK(cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice));
  reverse_block<<<(n + bs - 1) / bs, bs, bs * sizeof(int)>>>(din, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int base = i / bs * bs, src = base + bs - 1 - (i - base);
    int want = src < n ? hin[src] : -1;
    if (hout[i] != want) { printf("FAIL shared_dynamic: reverse[%d] = %d want %d\n", i, hout[i], want); return 1; }
  }
  const int bs2 = 64;
  carve<<<(n + bs2 - 1) / bs2, bs2, bs2 * (sizeof(double) + sizeof(int) + 1)>>>(din, dout2, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout2, dout2, sizeof(hout2), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    int base = i / bs2 * bs2, g = base + (i - base + 1) % bs2;
    int v = g < n ? hin[g] : 0;
    long long want = (long long)(v * 0.5 * 4.0) + v * 3 + (unsigned char)v;
    if (hout2[i] != want) { printf("FAIL shared_dynamic: carve[%d] = %lld want %lld\n", i, hout2[i], want); return 1; }
  }
  printf("PASS shared_dynamic\n");
  return 0;
}
