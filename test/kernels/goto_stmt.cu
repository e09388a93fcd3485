// goto: forward jumps out of nested loops, backward jumps forming a loop, jumps to a common cleanup label.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL goto_stmt: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__host__ __device__ int find_pair(const int *a, int n, int target) {
  int i, j, res = -1;
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++)
      if (a[i] + a[j] == target) goto found;
  goto done;
found:
  res = i * 100 + j;
done:
  return res;
}

__host__ __device__ int backward(int x) {
  int steps = 0;
again:
  if (x <= 1) goto out;
  x = (x % 2) ? x - 1 : x / 2;
  steps++;
  goto again;
out:
  return steps;
}

__host__ __device__ int cleanup(int v) {
  int r = 0;
  if (v < 0) { r = -1; goto fail; }
  r += v * 2;
  if (r > 300) { r = 300; goto fail; }
  r += 1;
  return r;
fail:
  return r * 10;
}

__global__ void kernel(const int *a, int *out, int n) {
  int t = threadIdx.x;
  out[t * 3] = find_pair(a, n, t);
  out[t * 3 + 1] = backward(t * 37 + 5);
  out[t * 3 + 2] = cleanup(t - 16);
}

int main() {
  const int n = 20, T = 256;
  int ha[n], hout[T * 3];
  for (int i = 0; i < n; i++) ha[i] = i * i % 23 + i;
  int *da, *dout;
  CK(cudaMalloc(&da, sizeof(ha))); CK(cudaMalloc(&dout, sizeof(hout)));
  CK(cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice));
  kernel<<<1, T>>>(da, dout, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  for (int t = 0; t < T; t++) {
    int w[3] = {find_pair(ha, n, t), backward(t * 37 + 5), cleanup(t - 16)};
    for (int k = 0; k < 3; k++)
      if (hout[t * 3 + k] != w[k]) { printf("FAIL goto_stmt: t=%d k=%d got %d want %d\n", t, k, hout[t * 3 + k], w[k]); return 1; }
  }
  printf("PASS goto_stmt\n");
  return 0;
}
