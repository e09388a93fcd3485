// Destructors in class templates and hierarchies: a templated resource guard, a derived class template
// whose members and base are destroyed after its own destructor, guards inside switch cases and nested
// loops left by break/continue/return, and objects returned from functions then destroyed by the caller.
#include <cstdio>

template <typename T> struct Recorder {
  T *log; T id;
  __device__ Recorder(T *l, T i) : log(l), id(i) { *log = *log * 10 + id; }
  __device__ ~Recorder() { *log = *log * 10 + (id + 5) % 10; }
};
struct Base { int *log; __device__ explicit Base(int *l) : log(l) {} __device__ ~Base() { *log = *log * 10 + 9; } };
template <typename T> struct Derived : Base {
  Recorder<T> r;
  __device__ Derived(int *l, T *tl) : Base(l), r(tl, 1) {}
  __device__ ~Derived() { *log = *log * 10 + 8; }
};
template <typename T> __device__ Recorder<T> make(T *log, T id) { return Recorder<T>(log, id); }

__device__ int search(int *log, const int *data, int n, int key) {
  for (int i = 0; i < n; i++) {
    Recorder<int> outer(log, 1);
    for (int j = 0; j < 2; j++) {
      Recorder<int> inner(log, 2);
      if (data[i] + j == key) return i * 2 + j;
      if (j == 0 && data[i] < 0) break;
    }
  }
  return -1;
}

__global__ void destructorTemplates(const int *in, int *out) {
  int t = threadIdx.x;
  int *o = out + t * 6;
  for (int k = 0; k < 6; k++) o[k] = 0;
  { Derived<int> d(o, o + 1); }                      // o[0]: 8 9; o[1]: 1 6
  switch (t % 3) {
    case 0: { Recorder<int> a(o + 2, 3); break; }
    case 1: { Recorder<int> a(o + 2, 4); Recorder<int> b(o + 2, 5); break; }
    default: break;
  }
  int data[3] = {in[t], in[(t + 1) % 32], in[(t + 2) % 32]};
  o[3] = search(o + 4, data, 3, in[(t + 1) % 32] + 1);
  { Recorder<int> m = make(o + 5, 7); }               // constructed once in place, destroyed once
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 7 - 3;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  destructorTemplates<<<1, T>>>(din, dout);
  int h[T * 6];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int sw = t % 3 == 0 ? 38 : t % 3 == 1 ? 4509 : 0;
    // search: replay the loops with the same exits, appending digits (wrapping like the device's int)
    int data[3] = {hin[t], hin[(t + 1) % 32], hin[(t + 2) % 32]}, key = hin[(t + 1) % 32] + 1;
    unsigned lg = 0; int res = -1;
    for (int i = 0; i < 3 && res < 0; i++) {
      lg = lg * 10 + 1;
      for (int j = 0; j < 2; j++) {
        lg = lg * 10 + 2;
        if (data[i] + j == key) { res = i * 2 + j; lg = lg * 10 + 7; break; }
        if (j == 0 && data[i] < 0) { lg = lg * 10 + 7; break; }
        lg = lg * 10 + 7;
      }
      lg = lg * 10 + 6;
    }
    int e[6] = {89, 16, sw, res, (int)lg, 72};
    for (int k = 0; k < 6; k++) if (h[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_destructor_templates: [%d][%d] = %d, expected %d\n", t, k, h[t * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_destructor_templates\n");
  return 0;
}
