// Multiple inheritance with virtual functions in more than one base: calls through each base (the second
// base's vtable holds this-adjusting thunks to the derived class's overriders), a function overriding
// both bases' virtual functions, a deeper class deriving from a multiply-derived one, and calls of the
// second base's functions not overridden. Objects live in a thread's local memory and in an array.
#include <cstdio>

struct Shape {
  int sides;
  __device__ explicit Shape(int s) : sides(s) {}
  __device__ virtual int area() const { return 0; }
  __device__ virtual int tag() const { return 1; }
};
struct Named {
  int code;
  __device__ explicit Named(int c) : code(c) {}
  __device__ virtual int name() const { return code; }
  __device__ virtual int tag() const { return 2; }
  __device__ virtual int weight() const { return code * 2; }
};
struct Square : Shape, Named {
  int w;
  __device__ Square(int x, int c) : Shape(4), Named(c), w(x) {}
  __device__ int area() const override { return w * w; }
  __device__ int name() const override { return code + 100; }
  __device__ int tag() const override { return 3; }   // overrides both Shape::tag and Named::tag
  __device__ virtual int perimeter() const { return 4 * w; }
};
struct Cube : Square {
  int d;
  __device__ Cube(int x, int c) : Square(x, c), d(x + 1) {}
  __device__ int area() const override { return 6 * w * w; }
  __device__ int weight() const override { return d * 10 + code; }
  __device__ int perimeter() const override { return 12 * w; }
};
struct Plain {        // a non-dynamic first base: the vptr comes first, then Plain's fields
  int p[3];
};
struct Mixed : Named {
  Plain pl;
  __device__ explicit Mixed(int c) : Named(c) { pl.p[0] = c; pl.p[1] = 2 * c; pl.p[2] = 3 * c; }
  __device__ int name() const override { return pl.p[0] + pl.p[1] + pl.p[2]; }
};

__device__ __noinline__ int viaShape(const Shape *s) { return s->area() * 10 + s->tag(); }
__device__ __noinline__ int viaNamed(const Named *n) { return n->name() * 100 + n->tag() * 10 + n->weight() % 10; }
__device__ __noinline__ int viaSquare(const Square *q) { return q->perimeter() + q->weight(); }

__global__ void basesMultiple(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[t];
  int *o = out + t * 10;
  Square sq(v, t);
  Cube cu(v + 1, t + 3);
  o[0] = viaShape(&sq);
  o[1] = viaNamed(&sq);
  o[2] = viaShape(&cu);
  o[3] = viaNamed(&cu);
  o[4] = viaSquare(&cu) + viaSquare(&sq);
  Square *arr[2] = {&sq, &cu};
  Named *pick = arr[t & 1];
  o[5] = pick->weight() + pick->tag();
  Mixed mx(v);
  o[6] = viaNamed(&mx);
  Named &ref = cu;
  o[7] = ref.name() - ref.weight();
  o[8] = sq.Named::tag() * 10 + sq.Shape::tag();
  o[9] = cu.name() + cu.tag();
}

int main() {
  const int T = 32;
  int hin[T];
  for (int t = 0; t < T; t++) hin[t] = (t * 7) % 9 - 3;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin));
  cudaMalloc(&dout, T * 10 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  basesMultiple<<<1, T>>>(din, dout);
  int h[T * 10];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int t = 0; t < T; t++) {
    int v = hin[t];
    int sqName = t + 100, cuX = v + 1, cuC = t + 3, cuName = cuC + 100, cuD = cuX + 1;
    int sqWeight = t * 2, cuWeight = cuD * 10 + cuC;
    int e[10] = {
      (v * v) * 10 + 3,
      sqName * 100 + 30 + sqWeight % 10,
      (6 * cuX * cuX) * 10 + 3,
      cuName * 100 + 30 + cuWeight % 10,
      (12 * cuX + cuWeight) + (4 * v + sqWeight),
      (t & 1 ? cuWeight : sqWeight) + 3,
      (v + 2 * v + 3 * v) * 100 + 20 + (v * 2) % 10,
      cuName - cuWeight,
      2 * 10 + 1,
      cuName + 3,
    };
    for (int k = 0; k < 10; k++) if (h[t * 10 + k] != e[k]) { if (bad++ < 5) printf("FAIL cxx2_bases_multiple: [%d][%d] = %d, expected %d\n", t, k, h[t * 10 + k], e[k]); }
  }
  if (bad) return 1;
  printf("PASS cxx2_bases_multiple\n");
  return 0;
}
