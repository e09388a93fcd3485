// 3D grids and blocks: every component of threadIdx/blockIdx/blockDim/gridDim, warpSize,
// linear thread ids, warp and lane numbers.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL grid_3d: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void kernel(int *out) {
  int tid = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  int bid = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
  int nthreads = blockDim.x * blockDim.y * blockDim.z;
  int g = bid * nthreads + tid;
  int *o = out + g * 6;
  o[0] = tid; o[1] = bid;
  o[2] = tid / warpSize; o[3] = tid % warpSize;
  o[4] = gridDim.x * 100 + gridDim.y * 10 + gridDim.z;
  o[5] = blockDim.x * 100 + blockDim.y * 10 + blockDim.z + warpSize * 1000;
}

int main() {
  dim3 grid(3, 2, 4), block(4, 5, 3);
  const int nb = 3 * 2 * 4, nt = 4 * 5 * 3, n = nb * nt;
  int *d, *h = new int[n * 6];
  CK(cudaMalloc(&d, n * 6 * sizeof(int)));
  kernel<<<grid, block>>>(d);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * 6 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int g = 0; g < n; g++) {
    int tid = g % nt, bid = g / nt;
    int w[6] = {tid, bid, tid / 32, tid % 32, 324, 453 + 32000};
    for (int k = 0; k < 6; k++)
      if (h[g * 6 + k] != w[k]) { printf("FAIL grid_3d: thread %d item %d = %d want %d\n", g, k, h[g * 6 + k], w[k]); return 1; }
  }
  printf("PASS grid_3d\n");
  return 0;
}
