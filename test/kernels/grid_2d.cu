// 2D grids and blocks: threadIdx.x/y, blockIdx.x/y, blockDim.x/y, gridDim.x/y, a 2D stencil-free
// index computation with a partial last tile, and a grid-stride loop in two dimensions.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL grid_2d: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__global__ void fill(int *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[y * w + x] = (blockIdx.y * gridDim.x + blockIdx.x) * 10000 + (threadIdx.y * blockDim.x + threadIdx.x);
}

__global__ void stride2d(int *out, int w, int h) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += gridDim.y * blockDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * blockDim.x)
      out[y * w + x] += x * 3 - y;
}

int main() {
  const int w = 70, h = 45, bx = 16, by = 8;
  int *d, *hout = new int[w * h];
  CK(cudaMalloc(&d, w * h * sizeof(int)));
  dim3 grid((w + bx - 1) / bx, (h + by - 1) / by), block(bx, by);
  fill<<<grid, block>>>(d, w, h);
  stride2d<<<dim3(2, 3), dim3(8, 4)>>>(d, w, h);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, d, w * h * sizeof(int), cudaMemcpyDeviceToHost));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int blk = (y / by) * grid.x + x / bx, thr = (y % by) * bx + x % bx;
      int want = blk * 10000 + thr + x * 3 - y;
      if (hout[y * w + x] != want) { printf("FAIL grid_2d: (%d,%d) = %d want %d\n", x, y, hout[y * w + x], want); return 1; }
    }
  printf("PASS grid_2d\n");
  return 0;
}
