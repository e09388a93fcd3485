// new and delete in device code (the device heap: cicc calls malloc/free): scalars with and without an
// initializer, objects with constructors and destructors, arrays of scalars and of classes with
// destructors (the array cookie holds the count delete[] reads), a run-time array length, value-initialised
// arrays, deletion through a base pointer with a virtual destructor, and delete of a null pointer.
#include <cstdio>

struct Tally {
  int *log; int id;
  __device__ Tally(int *l, int i) : log(l), id(i) { *log = *log * 10 + id; }
  __device__ ~Tally() { *log = *log * 10 + id + 5; }
};
struct Cell {
  int v;
  __device__ Cell() : v(7) {}
  __device__ ~Cell() { v = -1; }
};
struct Count {
  static __device__ int live(int *c) { return *c; }
  int *c;
  __device__ Count() : c(nullptr) {}
  __device__ ~Count() { if (c) --*c; }
};
struct Base {
  int *log;
  __device__ explicit Base(int *l) : log(l) {}
  __device__ virtual ~Base() { *log = *log * 10 + 1; }
  __device__ virtual int id() const { return 1; }
};
struct Derived : Base {
  Tally t;
  __device__ explicit Derived(int *l) : Base(l), t(l, 3) {}
  __device__ ~Derived() override { *log = *log * 10 + 2; }
  __device__ int id() const override { return 2; }
};
struct Pair { int a; float b; };
struct alignas(16) Wide { double x, y; __device__ ~Wide() {} };

__device__ __noinline__ Base *make(int k, int *log) {
  if (k == 0) return nullptr;
  if (k == 1) return new Base(log);
  return new Derived(log);
}

__global__ void newObjects(const int *in, int *out) {
  int t = threadIdx.x;
  int *o = out + t * 12;
  int *p = new int(in[t] * 3);
  o[0] = *p;
  delete p;
  Pair *q = new Pair{in[t], 0.5f};
  q->b += q->a;
  o[1] = (int)(q->b * 2);
  delete q;
  int log = 0;
  Tally *y = new Tally(&log, 4);
  o[2] = log;
  delete y;
  o[3] = log;
  int n = (in[t] & 7) + 1;
  int *arr = new int[n];
  for (int i = 0; i < n; i++) arr[i] = i * in[t];
  int s = 0;
  for (int i = 0; i < n; i++) s += arr[i];
  delete[] arr;
  o[4] = s;
  Cell *cells = new Cell[n];
  s = 0;
  for (int i = 0; i < n; i++) s += cells[i].v + i;
  delete[] cells;
  o[5] = s;
  int live = n;
  Count *cs = new Count[n];
  for (int i = 0; i < n; i++) cs[i].c = &live;
  delete[] cs;
  o[6] = live;
  long long *z = new long long[n]();
  long long zs = 0;
  for (int i = 0; i < n; i++) zs += z[i] + 1;
  delete[] z;
  o[7] = (int)zs;
  int log2 = 0;
  Base *b = make(t % 3, &log2);
  o[8] = b ? b->id() : 0;
  delete b;
  o[9] = log2;
  Wide *w = new Wide[2];
  w[0].x = in[t]; w[1].y = 2.5;
  o[10] = (int)(w[0].x + w[1].y * 2) + (int)(((unsigned long long)w & 15) == 0);
  delete[] w;
  Tally *none = nullptr;
  delete none;
  delete[] none;
  o[11] = log;
}

int main() {
  const int T = 32;
  int hin[T];
  for (int t = 0; t < T; t++) hin[t] = (t * 5) % 13 - 4;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, T * 12 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  newObjects<<<1, T>>>(din, dout);
  int h[T * 12];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t], n = (v & 7) + 1;
    int s4 = 0, s5 = 0;
    for (int i = 0; i < n; i++) { s4 += i * v; s5 += 7 + i; }
    int k = t % 3;
    int e[12] = {v * 3, (int)((0.5f + v) * 2), 4, 49, s4, s5, 0, n, k, k == 0 ? 0 : k == 1 ? 1 : 3281, (int)(v + 5.0) + 1, 49};
    for (int j = 0; j < 12; j++) if (h[t * 12 + j] != e[j]) { if (bad++ < 5) printf("FAIL cxx2_new_objects: [%d][%d] = %d, expected %d\n", t, j, h[t * 12 + j], e[j]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_new_objects\n");
  return 0;
}
