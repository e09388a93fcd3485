// Virtual functions: shapes built per thread in local storage, reached through an array of base-class
// pointers by a function that is not inlined (calls through the vtable), an override that calls the
// base's version by its qualified name, a virtual function the derived class does not override, and a
// call through a base reference.
#include <cstdio>

struct Shape {
  int id;
  __device__ explicit Shape(int i) : id(i) {}
  __device__ virtual float area() const { return 0.0f; }
  __device__ virtual int corners() const { return 0; }
  __device__ virtual float weight() const { return area() * 0.5f + id; }
};
struct Rect : Shape {
  float w, h;
  __device__ Rect(int i, float a, float b) : Shape(i), w(a), h(b) {}
  __device__ float area() const override { return w * h; }
  __device__ int corners() const override { return 4; }
};
struct Square : Rect {
  __device__ Square(int i, float s) : Rect(i, s, s) {}
  __device__ float weight() const override { return Rect::weight() + 100.0f; }
};
struct Circle : Shape {
  float r;
  __device__ Circle(int i, float x) : Shape(i), r(x) {}
  __device__ float area() const override { return 3.0f * r * r; }
};
struct Tri : Shape {
  float b, h;
  __device__ Tri(int i, float x, float y) : Shape(i), b(x), h(y) {}
  __device__ float area() const override { return 0.5f * b * h; }
  __device__ int corners() const override { return 3; }
};

__device__ __noinline__ float totalArea(Shape *const *s, int n) {
  float t = 0.0f;
  for (int k = 0; k < n; k++) t += s[k]->area();
  return t;
}
__device__ __noinline__ int totalCorners(Shape *const *s, int n) {
  int c = 0;
  for (int k = 0; k < n; k++) c = c * 10 + s[k]->corners();
  return c;
}
__device__ __noinline__ float weightOf(const Shape &s) { return s.weight(); }

__global__ void virtualShapes(const float *in, float *fo, int *io) {
  int t = threadIdx.x;
  float x = in[t];
  Rect r(1, x, 2.0f);
  Square sq(2, x + 1.0f);
  Circle c(3, x);
  Tri tr(4, x, 4.0f);
  Shape plain(5);
  Shape *all[5] = {&r, &sq, &c, &tr, &plain};
  // a per-thread rotation: every lane sees the shapes in another order
  Shape *order[5];
  for (int k = 0; k < 5; k++) order[k] = all[(k + t) % 5];
  fo[t * 4 + 0] = totalArea(all, 5);
  fo[t * 4 + 1] = totalArea(order, 3);
  fo[t * 4 + 2] = weightOf(*order[0]) + weightOf(sq);
  fo[t * 4 + 3] = weightOf(c);
  io[t * 2 + 0] = totalCorners(order, 5);
  io[t * 2 + 1] = totalCorners(all + 1, 4);
}

static float areaOf(int k, float x) {
  switch (k) {
    case 0: return x * 2.0f;
    case 1: return (x + 1.0f) * (x + 1.0f);
    case 2: return 3.0f * x * x;
    case 3: return 0.5f * x * 4.0f;
    default: return 0.0f;
  }
}
static float weightHost(int k, float x) {
  float w = areaOf(k, x) * 0.5f + (float)(k + 1);
  return k == 1 ? w + 100.0f : w;
}

int main() {
  const int T = 32;
  float hin[T];
  for (int j = 0; j < T; j++) hin[j] = (j % 9) * 0.5f - 1.0f;
  float *din, *dfo; int *dio;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dfo, T * 4 * sizeof(float)); cudaMalloc(&dio, T * 2 * sizeof(int));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  virtualShapes<<<1, T>>>(din, dfo, dio);
  float fo[T * 4]; int io[T * 2];
  cudaMemcpy(fo, dfo, sizeof(fo), cudaMemcpyDeviceToHost);
  cudaMemcpy(io, dio, sizeof(io), cudaMemcpyDeviceToHost);
  const int corners[5] = {4, 4, 0, 3, 0};
  int bad = 0;
  for (int t = 0; t < T; t++) {
    float x = hin[t];
    float all = 0.0f;
    for (int k = 0; k < 5; k++) all += areaOf(k, x);
    float first3 = 0.0f;
    for (int k = 0; k < 3; k++) first3 += areaOf((k + t) % 5, x);
    int c1 = 0, c2 = 0;
    for (int k = 0; k < 5; k++) c1 = c1 * 10 + corners[(k + t) % 5];
    for (int k = 1; k < 5; k++) c2 = c2 * 10 + corners[k];
    float ef[4] = {all, first3, weightHost(t % 5, x) + weightHost(1, x), weightHost(2, x)};
    for (int k = 0; k < 4; k++) {
      float d = fo[t * 4 + k] - ef[k];
      if (d > 1e-3f || d < -1e-3f) { if (bad++ < 5) printf("FAIL cxx2_virtual_shapes: f[%d][%d] = %f, expected %f\n", t, k, fo[t * 4 + k], ef[k]); }
    }
    if (io[t * 2] != c1 || io[t * 2 + 1] != c2) { if (bad++ < 5) printf("FAIL cxx2_virtual_shapes: i[%d] = %d %d, expected %d %d\n", t, io[t * 2], io[t * 2 + 1], c1, c2); }
  }
  if (bad) return 1;
  printf("PASS cxx2_virtual_shapes\n");
  return 0;
}
