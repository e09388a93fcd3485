// Non-trivial destructors of local objects: run at the end of their scope in reverse order of
// construction, on break, continue and return, for members (after the class's own destructor) and
// bases, in a for-statement's init, and for RAII guards and scoped accumulators.
#include <cstdio>

// Appends digits to a per-thread log: construction appends id, destruction id + 5.
struct Trace {
  int *log; int id;
  __device__ Trace(int *l, int i) : log(l), id(i) { *log = *log * 10 + id; }
  __device__ ~Trace() { *log = *log * 10 + id + 5; }
};
struct Holder {
  Trace first, second;
  __device__ Holder(int *l) : first(l, 1), second(l, 2) {}
  __device__ ~Holder() { *first.log = *first.log * 10 + 9; }
};
struct Derived : Trace {
  Trace member;
  __device__ Derived(int *l) : Trace(l, 3), member(l, 4) {}
};
// Adds its total to a destination when it goes out of scope.
template <typename T> struct ScopedSum {
  T *dst; T total;
  __device__ explicit ScopedSum(T *d) : dst(d), total(0) {}
  __device__ ~ScopedSum() { *dst += total; }
  __device__ void add(T v) { total += v; }
};
struct Counter { int *n; __device__ ~Counter() { ++*n; } };

__device__ int early(int *log, int v) {
  Trace a(log, 1);
  if (v > 0) { Trace b(log, 2); return v; }
  Trace c(log, 3);
  return -v;
}

__global__ void destructors(const int *in, int *out) {
  int i = threadIdx.x;
  int *o = out + i * 8;
  for (int k = 0; k < 8; k++) o[k] = 0;
  { Trace a(o, 1); { Trace b(o, 2); } Trace c(o, 3); }                      // 1 2 7 3 8 6
  for (int k = 0; k < 4; k++) {
    Trace t(o + 1, 1);
    if (k == 1) continue;
    if (k == 3) break;
    Trace u(o + 1, 2);
  }
  { Holder h(o + 2); }                                                      // 1 2 9 7 6
  { Derived d(o + 3); }                                                     // 3 4 9 8
  o[4] = early(o + 5, in[i]);
  {
    ScopedSum<int> s(o + 6);
    for (int k = 0; k <= i % 5; k++) s.add(in[(i + k) % 32]);
  }
  int n = 0;
  for (Counter c{&n}; n < 3;) { Counter d{&n}; }
  o[7] = n;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 9 - 4;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 8 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  destructors<<<1, T>>>(din, dout);
  int h[T * 8];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int v = hin[i];
    // loop: k=0: 1 2 7 6; k=1: 1 6; k=2: 1 2 7 6; k=3: 1 6 (break); the digits wrap in 32 bits as on the device
    const int seq[] = {1, 2, 7, 6, 1, 6, 1, 2, 7, 6, 1, 6};
    unsigned loop = 0;
    for (int s = 0; s < 12; s++) loop = loop * 10u + (unsigned)seq[s];
    int lg = v > 0 ? 1276 : 1386;
    int sum = 0;
    for (int k = 0; k <= i % 5; k++) sum += hin[(i + k) % 32];
    int e[8] = {127386, (int)loop, 12976, 3498, v > 0 ? v : -v, lg, sum, 4};
    for (int k = 0; k < 8; k++) if (h[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_destructors: [%d][%d] = %d, expected %d\n", i, k, h[i * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_destructors\n");
  return 0;
}
