// C expressions: all compound assignments, pre/post increment and decrement, logical operators with
// short-circuit side effects, relational results as ints, bitwise not/and/or/xor, unary minus on unsigned,
// nested ternaries, comma operator, assignment as an expression, chained assignment.
#include <cstdio>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("FAIL expressions: %s (line %d)\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NOUT 16

__host__ __device__ void compute(int t, int *o) {
  int a = t * 13 - 400, b = (t % 11) + 1, c;
  unsigned u = (unsigned)t * 40503u;
  c = a; c += b; c -= 3; c *= 2; c /= b; c %= 1000; o[0] = c;
  c = a + 1000; c <<= 2; c >>= 1; c &= 0xfff0; c |= 5; c ^= 0x3c; o[1] = c;
  int i = t, p, q;
  p = i++; q = ++i; o[2] = p * 1000 + q;
  p = i--; q = --i; o[3] = p * 1000 - q; o[4] = i;
  int calls = 0;
  bool r1 = (a > 0) && (++calls > 0);        // short-circuit: increments only when a > 0
  bool r2 = (b > 5) || (++calls > 100);
  o[5] = r1 * 4 + r2 * 2 + calls * 16;
  o[6] = (a < b) + (a <= b) * 2 + (a > b) * 4 + (a >= b) * 8 + (a == b) * 16 + (a != b) * 32;
  o[7] = (int)(~u & 0xffff) | (int)((u | 0x100) ^ (u & 0x55));
  o[8] = (int)(-u >> 20);
  o[9] = a > 100 ? 1 : a > 0 ? 2 : a > -100 ? 3 : 4;
  int x, y, z;
  x = y = z = b * 3;
  o[10] = (x += 1, y -= 1, x * y + z);
  int e;
  o[11] = (e = b * b) + 1; o[11] += e;
  o[12] = !a + !!b + !(a & 1) * 10;
  o[13] = -a + +b - -t;
  long long big = (long long)a * u;
  big >>= 3; big += a; big ^= b;
  o[14] = (int)(big % 100000);
  unsigned short us = (unsigned short)t; us -= 70; us *= 3;
  o[15] = us;
}

__global__ void kernel(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) compute(t, out + t * NOUT);
}

int main() {
  const int n = 200;
  int *d, *h = new int[n * NOUT], *w = new int[n * NOUT];
  CK(cudaMalloc(&d, n * NOUT * sizeof(int)));
  kernel<<<2, 128>>>(d, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(h, d, n * NOUT * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < n; t++) compute(t, w + t * NOUT);
  for (int k = 0; k < n * NOUT; k++)
    if (h[k] != w[k]) { printf("FAIL expressions: t=%d slot=%d got %d want %d\n", k / NOUT, k % NOUT, h[k], w[k]); return 1; }
  printf("PASS expressions\n");
  return 0;
}
