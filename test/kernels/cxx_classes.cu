// Classes in device code: member functions (in-class and out-of-line, const), constructors with
// mem-initializers and default member initialisers, this, static members, operators (arithmetic,
// compound assignment, subscript, call, comparison, unary, conversion), non-virtual inheritance.
#include <cstdio>

struct Vec2 {
  float x, y;
  __host__ __device__ Vec2() : x(0), y(0) {}
  __host__ __device__ Vec2(float a, float b) : x(a), y(b) {}
  __device__ Vec2 operator+(const Vec2 &o) const { return Vec2(x + o.x, y + o.y); }
  __device__ Vec2 operator-() const { return Vec2(-x, -y); }
  __device__ Vec2 &operator+=(const Vec2 &o) { x += o.x; y += o.y; return *this; }
  __device__ bool operator==(const Vec2 &o) const { return x == o.x && y == o.y; }
  __device__ float dot(const Vec2 &o) const;
  __device__ float length2() const { return dot(*this); }
};
__device__ float Vec2::dot(const Vec2 &o) const { return x * o.x + y * o.y; }
__device__ Vec2 operator*(float s, const Vec2 &v) { return Vec2(s * v.x, s * v.y); }

class Counter {
  int count = 10;
  static const int step = 3;
public:
  __device__ void bump() { this->count += step; }
  __device__ int get() const { return count; }
  __device__ static int twice(int v) { return 2 * v; }
};

struct Arr4 {
  int v[4];
  __device__ int &operator[](int i) { return v[i]; }
  __device__ int operator[](int i) const { return v[i]; }
};

struct Scale {
  float f;
  __device__ explicit Scale(float s) : f(s) {}
  __device__ float operator()(float v) const { return v * f; }
};

struct Meters {
  float m;
  __device__ Meters(float v) : m(v) {}
  __device__ operator float() const { return m; }
};

struct Base { int id; __device__ int idTimes(int k) const { return id * k; } };
struct Derived : Base { int extra; __device__ Derived(int a, int b) { id = a; extra = b; } __device__ int sum() const { return id + extra; } };

__device__ __noinline__ int baseId(const Base &b) { return b.id; }
__device__ __noinline__ float useVec(Vec2 a, Vec2 b) { Vec2 c = a + b; c += Vec2(1.0f, 1.0f); return c.length2(); }

__global__ void classes(float *fout, int *iout) {
  int i = threadIdx.x;
  Vec2 a(1.0f * i, 2.0f), b{3.0f, 4.0f};
  Vec2 c = a + b;                 // (i+3, 6)
  Vec2 d = -c;                    // (-(i+3), -6)
  Vec2 e = 2.0f * b;              // (6, 8)
  bool same = (e == Vec2(6.0f, 8.0f));
  Counter k;
  k.bump(); k.bump();             // 16
  Arr4 arr;
  for (int j = 0; j < 4; j++) arr[j] = j * i;
  const Arr4 &carr = arr;
  Scale sc(0.5f);
  Meters m = 3.0f;
  float mf = m + 1.0f;            // 4
  Derived dv(i, 7);
  fout[i * 6 + 0] = c.x;
  fout[i * 6 + 1] = d.y;
  fout[i * 6 + 2] = e.length2();  // 100
  fout[i * 6 + 3] = sc(10.0f);    // 5
  fout[i * 6 + 4] = mf;
  fout[i * 6 + 5] = useVec(a, b); // (i+4)^2 + 49
  iout[i * 6 + 0] = same ? 1 : 0;
  iout[i * 6 + 1] = k.get() + Counter::twice(1);   // 18
  iout[i * 6 + 2] = carr[3];      // 3i
  iout[i * 6 + 3] = dv.sum();     // i + 7
  iout[i * 6 + 4] = dv.idTimes(2) + baseId(dv);    // 3i
  iout[i * 6 + 5] = sizeof(Derived);
}

int main() {
  const int T = 32;
  float *df; int *di;
  cudaMalloc(&df, T * 6 * sizeof(float)); cudaMalloc(&di, T * 6 * sizeof(int));
  classes<<<1, T>>>(df, di);
  float hf[T * 6]; int hi[T * 6];
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < T; i++) {
    float ef[6] = {i + 3.0f, -6.0f, 100.0f, 5.0f, 4.0f, (i + 4.0f) * (i + 4.0f) + 49.0f};
    int ei[6] = {1, 18, 3 * i, i + 7, 3 * i, 8};
    for (int k = 0; k < 6; k++) {
      if (hf[i * 6 + k] != ef[k]) { if (bad++ < 5) printf("FAIL cxx_classes: f[%d][%d] = %f, expected %f\n", i, k, hf[i * 6 + k], ef[k]); }
      if (hi[i * 6 + k] != ei[k]) { if (bad++ < 5) printf("FAIL cxx_classes: i[%d][%d] = %d, expected %d\n", i, k, hi[i * 6 + k], ei[k]); }
    }
  }
  if (bad) return 1;
  printf("PASS cxx_classes\n");
  return 0;
}
