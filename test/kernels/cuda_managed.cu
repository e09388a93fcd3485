// __managed__ variables: one address for host and device. Kernels count launches with an atomic on a managed
// counter, read a managed scale factor initialised statically, and fill a managed histogram that the host
// reads directly after cudaDeviceSynchronize (no cudaMemcpy).
#include <cstdio>

__managed__ int launches;
__managed__ float scale = 2.5f;
__managed__ unsigned int hist[16];
__device__ __managed__ long long total;

__global__ void managed_count(const int *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicAdd(&launches, 1);
  if (i < n) {
    atomicAdd(&hist[in[i] & 15], 1u);
    atomicAdd((unsigned long long *)&total, (unsigned long long)in[i]);
    out[i] = scale * in[i];
  }
}

int main() {
  const int n = 500;
  int h[n];
  long long want_total = 0;
  unsigned want_hist[16] = {0};
  for (int i = 0; i < n; i++) { h[i] = (i * 7919) % 1000; want_total += 2 * h[i]; want_hist[h[i] & 15] += 2; }
  int *din; float *dout;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, n * sizeof(float));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  managed_count<<<4, 128>>>(din, dout, n);
  managed_count<<<4, 128>>>(din, dout, n);
  cudaDeviceSynchronize();
  float r[n];
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int bad = 0;
  if (launches != 2) { printf("FAIL cuda_managed: launches = %d\n", launches); bad++; }
  if (total != want_total) { printf("FAIL cuda_managed: total = %lld, expected %lld\n", total, want_total); bad++; }
  for (int b = 0; b < 16; b++) if (hist[b] != want_hist[b]) { if (bad++ < 5) printf("FAIL cuda_managed: hist[%d] = %u, expected %u\n", b, hist[b], want_hist[b]); }
  for (int i = 0; i < n; i++) if (r[i] != 2.5f * h[i]) { if (bad++ < 5) printf("FAIL cuda_managed: out[%d] = %g\n", i, r[i]); }
  if (bad) return 1;
  printf("PASS cuda_managed\n");
  return 0;
}
