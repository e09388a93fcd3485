// Temporaries of classes with destructors: RAII guards made as temporaries count their constructions and
// destructions in a shared counter; each is destroyed at the end of its full-expression (after the value
// it helped compute is used), several in one expression (sequenced by a comma) in reverse order of construction, one bound to a
// const reference lives to the end of its scope, and temporaries in conditions and loop increments.
#include <cstdio>

struct Counter { int made, gone, order; };

struct Guard {
  Counter *c; int tag;
  __device__ Guard(Counter *k, int t) : c(k), tag(t) { c->made++; c->order = c->order * 10 + tag; }
  __device__ ~Guard() { c->gone++; c->order = c->order * 10 + tag + 5; }
  __device__ int live() const { return c->made - c->gone; }
  __device__ int value() const { return tag * 100 + live(); }
};
__device__ Guard makeGuard(Counter *c, int t) { return Guard(c, t); }
__device__ int peek(const Guard &g) { return g.live() * 10 + g.tag; }

__global__ void temporariesRaii(const int *in, int *out) {
  int t = threadIdx.x;
  Counter c = {0, 0, 0};
  int *o = out + t * 8;
  o[0] = Guard(&c, 1).value();                 // 101: alive while value() runs
  o[1] = c.made * 10 + c.gone;                 // 11: gone at the end of the statement
  c.order = 0;
  o[2] = (Guard(&c, 2).live(), Guard(&c, 3).value());   // 3 * 100 + 2 live
  o[3] = c.order;                              // 2 3 8 7: reverse order of construction
  c.order = 0;
  {
    const Guard &held = makeGuard(&c, 4);      // lifetime extended to the end of the block
    o[4] = peek(held) + peek(Guard(&c, 1)) * 1000;
  }
  o[5] = c.order;                              // 4 1 6 9
  int n = 0;
  c.order = 0;
  for (int k = 0; k < in[t] % 4 + 1 && Guard(&c, 2).live() > 0; k += Guard(&c, 1).tag) n++;
  o[6] = n * 1000 + c.made - c.gone;
  if (makeGuard(&c, 3).value() > 300) o[7] = c.made * 100 + c.gone; else o[7] = -1;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j * 5) % 11;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 8 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  temporariesRaii<<<1, T>>>(din, dout);
  int h[T * 8];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int n = hin[t] % 4 + 1;
    // before the loop: made 5 (1, 2, 3, 4, 1), all gone; each passing test of k makes one more (the
    // && stops the last one before it), each increment one more
    int made = 5 + n + n, gone = made;
    int e[8] = {101, 11, 302, 2387, 14 + 21 * 1000, 4169, n * 1000, (made + 1) * 100 + gone + 1};   // the condition's temporary is gone before the branch
    for (int k = 0; k < 8; k++) if (h[t * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_temporaries_raii: [%d][%d] = %d, expected %d\n", t, k, h[t * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_temporaries_raii\n");
  return 0;
}
