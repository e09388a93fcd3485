// Class hierarchies without virtual functions: multi-level and multiple inheritance, base members and
// methods through derived objects, pointers and references, qualified calls to a hidden base method,
// protected members, const and non-const overloads, default arguments in member functions, nested
// classes, and a class with member functions used in __shared__ memory.
#include <cstdio>

struct Shape {
  int id;
  __device__ int area() const { return 0; }
  __device__ int describe(int scale = 10) const { return id * scale; }
};
struct Rect : Shape {
  int w, h;
  __device__ int area() const { return w * h; }
  __device__ int both() const { return area() + Shape::area() + Shape::describe(); }
};
struct Square : Rect {
  __device__ Square(int id_, int s) { id = id_; w = s; h = s; }
};
struct Tagged { int tag; __device__ int tagPlus(int v) const { return tag + v; } };
struct Multi : Shape, Tagged { int extra; };

class Counter {
protected:
  int n;
public:
  __device__ void reset() { n = 0; }
  __device__ int &value() { return n; }
  __device__ int value() const { return n + 1000; }
};
class StepCounter : public Counter {
public:
  struct Step { int by; };
  __device__ void step(Step s) { n += s.by; }
};

__device__ __noinline__ int areaOf(const Rect &r) { return r.area(); }
__device__ __noinline__ int idOf(const Shape *s) { return s->id; }
__device__ __noinline__ int tagOf(const Tagged &t) { return t.tag; }

struct Slot { int v; __device__ void add(int x) { atomicAdd(&v, x); } };

__global__ void inherit(int *out) {
  __shared__ Slot slots[4];
  int i = threadIdx.x;
  if (i < 4) slots[i].v = 0;
  __syncthreads();
  slots[i % 4].add(1);
  Square sq(i, 3);
  Multi m; m.id = 7; m.tag = 100 + i; m.extra = 1;
  StepCounter c; c.reset();
  StepCounter::Step st = {5};
  c.step(st); c.step(st);
  c.value() += 1;                                     // non-const overload: 11
  const StepCounter &cc = c;
  __syncthreads();
  out[i * 8 + 0] = areaOf(sq);                        // 9
  out[i * 8 + 1] = sq.both();                         // 9 + 0 + 10i
  out[i * 8 + 2] = idOf(&sq) + idOf(&m);              // i + 7
  out[i * 8 + 3] = tagOf(m) + m.tagPlus(1);           // 2(100+i) + 1
  out[i * 8 + 4] = cc.value();                        // const overload: 1011
  out[i * 8 + 5] = sq.describe() + sq.describe(2);    // 12i
  out[i * 8 + 6] = slots[i % 4].v;                    // 8
  out[i * 8 + 7] = sizeof(Multi);                     // 12
}

int main() {
  const int T = 32;
  int *d;
  cudaMalloc(&d, T * 8 * sizeof(int));
  inherit<<<1, T>>>(d);
  int h[T * 8];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    int e[8] = {9, 9 + 10 * i, i + 7, 2 * (100 + i) + 1, 1011, 12 * i, 8, 12};
    for (int k = 0; k < 8; k++) if (h[i * 8 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx_inherit: out[%d][%d] = %d, expected %d\n", i, k, h[i * 8 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx_inherit\n");
  return 0;
}
