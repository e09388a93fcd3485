// Overloads that differ only in cv-qualification of a reference or pointee: the binding that adds no
// qualification wins ([over.ics.rank] 3.2.5/3.2.6), so f(int&) beats f(const int&) for a non-const lvalue.
#include <cstdio>

struct Box { int v; };
__device__ int f(int &x) { x += 1; return 1; }
__device__ int f(const int &x) { return 2 + x * 0; }
__device__ int g(int *p) { *p += 10; return 10; }
__device__ int g(const int *p) { return 20 + *p * 0; }
__device__ int h(Box &b) { return b.v; }
__device__ int h(const Box &b) { return -b.v; }
__device__ int at(volatile int &x) { return 100 + x * 0; }
__device__ int at(const volatile int &x) { return 200 + x * 0; }

__global__ void cvOverloads(const int *in, int *io) {
  int t = threadIdx.x;
  int a = in[t];
  const int b = in[t] * 2;
  Box m{in[t]};
  const Box c{in[t] + 1};
  volatile int va = a;
  int r0 = f(a) * 10 + f(b);                 // 12, and a is incremented
  int r1 = g(&a) * 10 + g(&b);               // 120, and a grows by 10
  io[t * 4 + 0] = r0;
  io[t * 4 + 1] = r1;
  io[t * 4 + 2] = h(m) * 1000 + h(c);        // v * 1000 - (v + 1)
  io[t * 4 + 3] = a + at(va);                // in[t] + 11 + 100
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 3) % 11 - 5;
  int *din, *di;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&di, T * 4 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  cvOverloads<<<1, T>>>(din, di);
  int hi[T * 4];
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int e[4] = {12, 120, v * 1000 - (v + 1), v + 11 + 100};
    for (int k = 0; k < 4; k++) if (hi[t * 4 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_cv_overloads: [%d][%d] = %d, expected %d\n", t, k, hi[t * 4 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_cv_overloads\n");
  return 0;
}
