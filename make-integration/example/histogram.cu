#include "common.h"

#define BINS 16

__global__ void histogram(const unsigned *in, int n, unsigned *bins) {
  __shared__ unsigned local[BINS];
  if (threadIdx.x < BINS) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = global_index(); i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[in[i] % BINS], 1u);
  __syncthreads();
  if (threadIdx.x < BINS) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int run_histogram(int n) {
  unsigned *in, *bins;
  CHECK(cudaMallocManaged(&in, n * sizeof(unsigned)));
  CHECK(cudaMallocManaged(&bins, BINS * sizeof(unsigned)));
  for (int i = 0; i < n; i++) in[i] = (unsigned)i * 2654435761u;
  for (int b = 0; b < BINS; b++) bins[b] = 0;
  histogram<<<16, BLOCK>>>(in, n, bins);
  CHECK(cudaDeviceSynchronize());
  unsigned total = 0;
  for (int b = 0; b < BINS; b++) total += bins[b];
  cudaFree(in); cudaFree(bins);
  return total != (unsigned)n;
}
