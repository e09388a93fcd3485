// Recursion in __noinline__ device functions: fibonacci, gcd, Ackermann-like mutual recursion,
// recursive tree depth over an array (needs a real call stack).
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL recursion: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)

__host__ __device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__host__ __device__ __noinline__ unsigned gcd(unsigned a, unsigned b) { return b == 0 ? a : gcd(b, a % b); }
__host__ __device__ __noinline__ int is_odd(int n);
__host__ __device__ __noinline__ int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
__host__ __device__ __noinline__ int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
// implicit binary tree stored in an array: children of i are 2i+1 and 2i+2; -1 marks an empty node
__host__ __device__ __noinline__ int depth(const int *tree, int n, int i) {
  if (i >= n || tree[i] < 0) return 0;
  int l = depth(tree, n, 2 * i + 1), r = depth(tree, n, 2 * i + 2);
  return 1 + (l > r ? l : r);
}
__host__ __device__ __noinline__ long long sum_digits_rev(long long v, long long acc) {
  if (v == 0) return acc;
  return sum_digits_rev(v / 10, acc * 10 + v % 10);
}

__global__ void kernel(const int *tree, int tn, int *out, long long *out2, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  out[t * 4 + 0] = fib(t % 18);
  out[t * 4 + 1] = (int)gcd(t * 84u + 36u, 1260u);
  out[t * 4 + 2] = is_even(t) * 2 + is_odd(t + 3);
  out[t * 4 + 3] = depth(tree, tn, t % 7);
  out2[t] = sum_digits_rev(123456789LL * (t + 1), 0);
}

int main() {
  const int n = 64, tn = 63;
  int htree[tn], hout[n * 4]; long long hout2[n];
  for (int i = 0; i < tn; i++) htree[i] = ((i * 7) % 11 == 3 && i > 2) ? -1 : i;
  int *dtree, *dout; long long *dout2;
  CK(cudaMalloc(&dtree, sizeof(htree))); CK(cudaMalloc(&dout, sizeof(hout))); CK(cudaMalloc(&dout2, sizeof(hout2)));
  CK(cudaMemcpy(dtree, htree, sizeof(htree), cudaMemcpyHostToDevice));
  CK(cudaDeviceSetLimit(cudaLimitStackSize, 16384));
  kernel<<<1, n>>>(dtree, tn, dout, dout2, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hout2, dout2, sizeof(hout2), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) {
    int w[4] = {fib(t % 18), (int)gcd(t * 84u + 36u, 1260u), is_even(t) * 2 + is_odd(t + 3), depth(htree, tn, t % 7)};
    for (int k = 0; k < 4; k++)
      if (hout[t * 4 + k] != w[k]) { printf("FAIL recursion: t=%d k=%d got %d want %d\n", t, k, hout[t * 4 + k], w[k]); return 1; }
    long long w2 = sum_digits_rev(123456789LL * (t + 1), 0);
    if (hout2[t] != w2) { printf("FAIL recursion: rev[%d] = %lld want %lld\n", t, hout2[t], w2); return 1; }
  }
  printf("PASS recursion\n");
  return 0;
}
