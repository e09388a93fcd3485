// A deeper multiple-inheritance hierarchy: a dynamic base that itself has two dynamic bases, so the complete
// class's vtable group holds two secondary vtables (offsets -16 and -32), overriders reached through thunks
// of both, implicit virtual destructors inherited from a secondary base, and heap objects deleted through a
// secondary base of a secondary base (its deleting destructor through a thunk).
#include <cstdio>

struct A { int a; __device__ virtual int fa() const { return a; } };
struct B { int b; __device__ virtual int fb() const { return 2 * b; } };
struct E {
  int e; int *log;
  __device__ virtual int fe() const { return 3; }
  __device__ virtual ~E() { if (log) *log = *log * 10 + 1; }
};
struct D : B, E { int d; __device__ int fe() const override { return 30 + d; } };
struct C : A, D {
  int c;
  __device__ int fb() const override { return 20 + c; }
  __device__ int fe() const override { return 300 + c + a + b + d; }
};

__device__ __noinline__ int viaE(const E *p) { return p->fe(); }
__device__ __noinline__ int viaB(const B *p) { return p->fb(); }
__device__ __noinline__ int viaD(const D *p) { return p->fe() * 10 + p->fb() % 10; }
__device__ __noinline__ void drop(E *p) { delete p; }

__global__ void basesDeep(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[t];
  int *o = out + t * 6;
  C c; c.a = 1; c.b = 2; c.d = 3; c.c = v; c.e = 0; c.log = nullptr;
  D d; d.b = v; d.d = t; d.e = 0; d.log = nullptr;
  o[0] = viaE(&c) + viaB(&c) * 1000;
  o[1] = viaE(&d) + viaB(&d) * 1000;
  o[2] = viaD(&c);
  o[3] = c.fa() + static_cast<A &>(c).fa();
  int log = 0;
  C *h = new C; h->a = 0; h->b = 0; h->d = 0; h->c = v; h->log = &log;
  o[4] = viaE(h);
  drop(h);
  D *g = new D; g->b = 1; g->d = 1; g->log = &log;
  E *ge = g;
  o[5] = ge->fe();
  delete ge;
  o[5] = o[5] * 1000 + log;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int t = 0; t < T; t++) hin[t] = (t * 13) % 11 - 5;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  basesDeep<<<1, T>>>(din, dout);
  int h[T * 6];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int cfe = 300 + v + 1 + 2 + 3;
    int e[6] = {cfe + (20 + v) * 1000, (30 + t) + 2 * v * 1000, cfe * 10 + ((20 + v) % 10), 2, 300 + v, 31 * 1000 + 11};
    for (int k = 0; k < 6; k++) if (h[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_bases_deep: [%d][%d] = %d, expected %d\n", t, k, h[t * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_bases_deep\n");
  return 0;
}
