// __device__ global variables with initializers (scalars, arrays, structs, pointers to other globals),
// updated by one kernel and read by another; static __device__ variables; host access by symbol.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL device_vars: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

struct Acc { long long total; int calls; float last; };

__device__ int g_counter = 100;
__device__ unsigned char g_bytes[5] = {1, 2, 3, 250, 255};
__device__ double g_weights[3] = {0.5, 0.25, 2.0};
__device__ Acc g_acc = {1000, 0, -1.0f};
static __device__ int g_hidden[16];
__device__ int *g_ptr = &g_hidden[3];                       // address of another device global
__device__ const char g_msg[] = "ptxd";

__global__ void writer(int k) {
  int t = threadIdx.x;
  g_hidden[t] = t * k;
  if (t == 0) { g_counter += k; g_acc.total += k * 10; g_acc.calls++; g_acc.last = k * 0.5f; g_bytes[3]++; }
}

__global__ void reader(long long *out) {
  int t = threadIdx.x;
  long long v = g_counter + g_bytes[t % 5] + (long long)(g_weights[t % 3] * 8.0) + g_hidden[t];
  v += *g_ptr + g_msg[t % 4];
  v += g_acc.total + g_acc.calls * 7 + (long long)(g_acc.last * 4.0f);
  out[t] = v;
}

int main() {
  long long *d, h[16];
  CK(cudaMalloc(&d, sizeof(h)));
  writer<<<1, 16>>>(5);
  writer<<<1, 16>>>(3);
  reader<<<1, 16>>>(d);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  unsigned char bytes[5] = {1, 2, 3, 252, 255};
  double w[3] = {0.5, 0.25, 2.0};
  for (int t = 0; t < 16; t++) {
    long long v = 108 + bytes[t % 5] + (long long)(w[t % 3] * 8.0) + t * 3 + 9 + "ptxd"[t % 4] + 1080 + 14 + 6;
    if (h[t] != v) { printf("FAIL device_vars: out[%d] = %lld want %lld\n", t, h[t], v); return 1; }
  }
  int counter;
  CK(cudaMemcpyFromSymbol(&counter, g_counter, sizeof(int)));
  if (counter != 108) { printf("FAIL device_vars: counter %d\n", counter); return 1; }
  printf("PASS device_vars\n");
  return 0;
}
