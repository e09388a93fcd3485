// Arrays of objects with constructors and destructors: elements are constructed in order and destroyed
// in reverse order at the end of their scope (also on an early return and in a loop body), a partly
// initialised array default-constructs the rest, a two-dimensional array, and a class with an array member.
#include <cstdio>

struct Log { int seq; int count; };

struct Item {
  Log *l; int id;
  __device__ Item() : l(nullptr), id(0) {}
  __device__ Item(Log *g, int i) : l(g), id(i) { l->count++; }
  __device__ ~Item() { if (l) { l->seq = l->seq * 10 + id; l->count--; } }
};
struct Slot {
  Log *l; int id;
  __device__ Slot() : l(nullptr), id(7) {}
  __device__ ~Slot() { if (l) l->seq = l->seq * 10 + id; }
};
struct Bag {
  Slot s[3];
  __device__ explicit Bag(Log *g) { for (int k = 0; k < 3; k++) { s[k].l = g; s[k].id = k + 1; } }
};

__device__ int early(Log *g, int v) {
  Item a[2] = {Item(g, 1), Item(g, 2)};
  if (v > 0) return g->count;      // both destroyed after the value is taken
  Item b[1] = {Item(g, 3)};
  return -g->count;
}

__global__ void temporariesArrays(const int *in, int *out) {
  int t = threadIdx.x;
  int *o = out + t * 6;
  Log g = {0, 0};
  { Item a[3] = {Item(&g, 1), Item(&g, 2), Item(&g, 3)}; o[0] = g.count; }   // 3, then 3 2 1
  o[1] = g.seq * 10 + g.count;
  g.seq = 0;
  {
    Slot s[4];                                       // default-constructed: id 7, no log
    for (int k = 0; k < 4; k++) { s[k].l = &g; s[k].id = (k + t) % 9 + 1; }
  }
  o[2] = g.seq;
  g.seq = 0;
  {
    Item p[4] = {Item(&g, 5), Item(&g, 6)};          // the rest default-constructed (no log)
    Slot grid[2][2];
    grid[0][0].l = grid[1][1].l = &g; grid[1][1].id = 4;
  }
  o[3] = g.seq;
  g.seq = 0;
  { Bag b(&g); }
  o[4] = g.seq;
  g.seq = 0;
  int r = early(&g, in[t]);
  o[5] = r * 1000 + g.seq;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j % 3) - 1;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, T * 6 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  temporariesArrays<<<1, T>>>(din, dout);
  int h[T * 6];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int s = 0;
    for (int k = 3; k >= 0; k--) s = s * 10 + (k + t) % 9 + 1;
    int r = hin[t] > 0 ? 2 * 1000 + 21 : -3 * 1000 + 321;
    int e[6] = {3, 3210, s, 4765, 321, r};
    for (int k = 0; k < 6; k++) if (h[t * 6 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_temporaries_arrays: [%d][%d] = %d, expected %d\n", t, k, h[t * 6 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_temporaries_arrays\n");
  return 0;
}
