// Pointer arithmetic, pointer differences and comparisons, pointers to pointers, 2D arrays (row-major),
// arrays of pointers, pointer increments in loops, global arrays indexed through pointers.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL pointers_arrays: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define W 16
#define H 8

__device__ int sum_range(const int *begin, const int *end) {
  int s = 0;
  while (begin != end) s += *begin++;
  return s;
}

__device__ void swap_ptrs(int **a, int **b) { int *t = *a; *a = *b; *b = t; }

__global__ void kernel(const int (*grid)[W], int *out) {
  int r = threadIdx.x;
  if (r >= H) return;
  const int *row = grid[r];
  out[r * 4 + 0] = sum_range(row, row + W);
  out[r * 4 + 1] = (int)(&grid[H - 1][W - 1] - &grid[r][0]);
  int local[4] = {r, r * 2, r * 3, r * 4};
  int *p = local, *q = local + 3;
  swap_ptrs(&p, &q);
  out[r * 4 + 2] = *p * 10 + *q + (p > q) * 1000;
  const int *ptrs[3] = {row, row + 1, row + W - 1};
  int acc = 0;
  for (int k = 0; k < 3; k++) acc += *ptrs[k] * (k + 1);
  out[r * 4 + 3] = acc + 2[row];   // index written the other way round
}

int main() {
  int hg[H][W];
  for (int r = 0; r < H; r++) for (int c = 0; c < W; c++) hg[r][c] = r * 100 + c * 3 - 7;
  int (*dg)[W]; int *dout, hout[H * 4];
  CK(cudaMalloc(&dg, sizeof(hg)));
  CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(dg, hg, sizeof(hg), cudaMemcpyHostToDevice));
  kernel<<<1, 32>>>(dg, dout);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int r = 0; r < H; r++) {
    int s = 0; for (int c = 0; c < W; c++) s += hg[r][c];
    int w[4] = {s, (H - 1 - r) * W + W - 1, r * 4 * 10 + r + 1000, hg[r][0] + 2 * hg[r][1] + 3 * hg[r][W - 1] + hg[r][2]};
    for (int k = 0; k < 4; k++)
      if (hout[r * 4 + k] != w[k]) { printf("FAIL pointers_arrays: row %d item %d = %d, want %d\n", r, k, hout[r * 4 + k], w[k]); return 1; }
  }
  printf("PASS pointers_arrays\n");
  return 0;
}
