// A class with a user copy constructor and a destructor passed to and returned from device functions by
// value: the caller makes each parameter object with the copy constructor (a prvalue argument directly)
// and destroys it at the end of the full-expression; a returned prvalue is built in the caller's object;
// returning a parameter copies it. Copies and destructions are counted in a shared tally.
#include <cstdio>

struct Tally { int copies, dtors, sum; };

struct Val {
  Tally *t; int v;
  __device__ Val(Tally *k, int x) : t(k), v(x) {}
  __device__ Val(const Val &o) : t(o.t), v(o.v + 1000) { t->copies++; }   // copies are marked in the value
  __device__ ~Val() { t->dtors++; t->sum += v; }
  __device__ int get() const { return v; }
};

__device__ __noinline__ int take(Val a, int k) { a.v += k; return a.get(); }          // changes its own copy only
__device__ __noinline__ Val make(Tally *t, int x) { return Val(t, x * 2); }            // built in the caller's object
__device__ __noinline__ Val pass(Val a) { return a; }                                 // the copy constructor again
__device__ int both(Val a, Val b) { return a.get() - b.get(); }

__global__ void temporariesByValue(const int *in, int *out) {
  int tid = threadIdx.x;
  int x = in[tid];
  Tally t = {0, 0, 0};
  int *o = out + tid * 8;
  Val local(&t, x);
  o[0] = take(local, 5);                 // 1000 + x + 5; the copy is destroyed after the call
  o[1] = local.get() * 10 + t.copies;    // the caller's object is unchanged
  o[2] = take(make(&t, x), 1);           // a prvalue argument: no copy
  o[3] = t.copies * 100 + t.dtors;
  {
    Val r = pass(local);                 // one copy into the parameter, one out of it
    o[4] = r.get();
    o[5] = t.copies * 100 + t.dtors;     // the parameter is gone (end of the declaration), r is not
  }
  o[6] = both(Val(&t, 3), local);
  o[7] = t.sum + t.copies * 100000;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 3) % 17 - 8;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 8 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  temporariesByValue<<<1, T>>>(din, dout);
  int h[T * 8];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int x = hin[i];
    // sum of destroyed values: take's copy (1000 + x + 5), make's object (2x + 1), pass's parameter
    // (1000 + x), r (2000 + x), both's parameters (3 and 1000 + x)
    int sum = (1000 + x + 5) + (2 * x + 1) + (1000 + x) + (2000 + x) + 3 + (1000 + x);
    int e[8] = {1000 + x + 5, x * 10 + 1, 2 * x + 1, 102, 2000 + x, 303, 3 - (1000 + x), sum + 4 * 100000};
    for (int k = 0; k < 8; k++) if (h[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_temporaries_byvalue: [%d][%d] = %d, expected %d\n", i, k, h[i * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_temporaries_byvalue\n");
  return 0;
}
